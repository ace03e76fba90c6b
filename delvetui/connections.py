"""The served page's connections (``delvetui serve``), each bounded in time and in number.

aiohttp answers every request of a connection for as long as the connection is open, and
keeps it open for as long as its peer likes: a connection that sends half a request and
waits, or one that sends nothing, costs an open file for good. Each connection the server
takes is watched here, between the socket and aiohttp's handler of it:

- a request must come whole within ``REQUEST_WAIT`` seconds of its first byte;
- a connection idle without a request being answered is closed after ``IDLE_WAIT``
  seconds (aiohttp's keep-alive, which the server sets to it);
- at most ``MOST_CONNECTIONS`` are open at once: past it, the one idle longest is closed to
  make room, or the new one when every one is busy.

A request being answered, a players' screen's WebSocket for its whole life among them, is
never closed (``Connections.busy``, which the server's guard holds while it answers).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Iterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from aiohttp import web

#: Seconds a connection has to send the whole of a request once it has begun one.
REQUEST_WAIT = 5.0
#: Seconds a connection may stay open with no request and no screen (a browser keeps one
#: open after loading the page, to ask again quickly).
IDLE_WAIT = 60.0
#: Connections open at once: the screens' and a browser's few for each page, many times.
MOST_CONNECTIONS = 64

#: The server's log: what is said here is said as the server says it.
log = logging.getLogger("delvetui.serve")


class Connection(asyncio.Protocol):
    """One connection to the server: aiohttp's own handler of it, watched in time.

    Every call goes on to the handler; what passes is noted: when a request begins (its
    first byte while the connection is not busy), when one is being answered (``busy``).
    """

    def __init__(self, connections: Connections, handler: asyncio.Protocol) -> None:
        self.connections = connections
        self.handler = handler
        self.transport: asyncio.Transport | None = None
        #: Requests being answered on it now (a WebSocket is one, for its whole life).
        self.busy = 0
        #: Requests begun on it, so a deadline knows whether its request came.
        self.begun = 0
        #: When it last had nothing to do: opened, or its last request answered.
        self.idle_since = 0.0
        self.deadline: asyncio.TimerHandle | None = None
        self.admitted = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        self.idle_since = asyncio.get_running_loop().time()
        self.admitted = self.connections.admit(self)
        if not self.admitted:
            transport.abort()
            return
        self.handler.connection_made(transport)

    def data_received(self, data: bytes) -> None:
        if not self.admitted:
            return
        if data and not self.busy and self.deadline is None:
            loop = asyncio.get_running_loop()
            self.deadline = loop.call_later(REQUEST_WAIT, self._overdue, self.begun)
        self.handler.data_received(data)

    def eof_received(self) -> bool | None:
        return self.handler.eof_received() if self.admitted else None

    def connection_lost(self, exc: Exception | None) -> None:
        self.connections.closed(self)
        if self.deadline is not None:
            self.deadline.cancel()
        if self.admitted:
            self.handler.connection_lost(exc)

    def pause_writing(self) -> None:
        self.handler.pause_writing()

    def resume_writing(self) -> None:
        self.handler.resume_writing()

    def _overdue(self, begun: int) -> None:
        """Close the connection when the request it began has not come whole in time."""
        self.deadline = None
        if self.begun == begun and not self.busy and self.transport is not None:
            self.transport.close()

    def close(self) -> None:
        if self.transport is not None:
            self.transport.close()


class Connections:
    """Every connection the server has open, at most ``most`` of them."""

    def __init__(self, most: int) -> None:
        self.most = most
        self.open: dict[asyncio.BaseTransport, Connection] = {}
        self._said = False

    def admit(self, connection: Connection) -> bool:
        """Take a new connection; at the cap, close the one idle longest to make room, or
        refuse the new one when every one is busy."""
        if len(self.open) >= self.most:
            idle = [c for c in self.open.values() if not c.busy]
            if not self._said:
                self._said = True
                log.warning(
                    "%s connections are open, the most served; the one idle longest is "
                    "closed for each new one (further ones without a note)",
                    self.most,
                )
            if not idle:
                return False
            oldest = min(idle, key=lambda c: c.idle_since)
            self.open.pop(oldest.transport, None)  # type: ignore[arg-type]
            oldest.close()
        assert connection.transport is not None
        self.open[connection.transport] = connection
        return True

    def closed(self, connection: Connection) -> None:
        if connection.transport is not None:
            self.open.pop(connection.transport, None)

    @contextlib.contextmanager
    def busy(self, transport: asyncio.BaseTransport | None) -> Iterator[None]:
        """While a request of this connection is answered: it is neither idle nor overdue."""
        connection = self.open.get(transport) if transport is not None else None
        if connection is None:
            yield
            return
        connection.busy += 1
        connection.begun += 1
        if connection.deadline is not None:
            connection.deadline.cancel()
            connection.deadline = None
        try:
            yield
        finally:
            connection.busy -= 1
            connection.idle_since = asyncio.get_running_loop().time()


def site(runner: web.AppRunner, host: str, port: int, connections: Connections) -> web.BaseSite:
    """aiohttp's TCP site on ``host`` and ``port``, each connection watched by
    ``connections``."""
    from aiohttp import web

    class Site(web.BaseSite):
        @property
        def name(self) -> str:
            return f"http://{host}:{port}"

        async def start(self) -> None:
            await super().start()
            server = self._runner.server
            assert server is not None
            loop = asyncio.get_running_loop()
            self._server = await loop.create_server(
                lambda: Connection(connections, server()), host, port
            )

    return Site(runner)
