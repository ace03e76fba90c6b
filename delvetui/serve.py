"""The players' screen in a browser: ``delvetui serve NAME`` for a laptop on the table's TV.

Each page that opens runs ``delvetui players NAME`` in a process of its own and streams its
screen over a WebSocket, with textual-serve's page script and Textual's web driver. The
page is the game master's only:

- It listens on this computer's loopback address and answers a request only when it is
  addressed to one of this computer's own names and this port (``Host``) and, when it comes
  from a page, from its own page (``Origin``). Another website open in the same browser, or
  one that points its own name here, gets a 403.
- Every address carries a secret made for this run (``http://127.0.0.1:8000/SECRET/``): the
  page, its script and styles, and its WebSocket. A request without it gets a 403.
- At most ``max_screens`` screens are open at once; the next page gets a sentence saying
  so and how to allow more.
- A connection is bounded too (``delvetui.connections``): one that has not sent the whole
  of a request within five seconds of its first byte is closed, one that is idle without a
  screen for a minute too, and at most 64 are open at once (past it, the one idle longest
  is closed). What a browser asks for by
  itself (its icon, ``/.well-known/…``) is answered 404, quietly.
- What a page sends that the screen does not take is ignored, with one line in the log;
  nothing a page or a request sends prints a traceback.
- The screens end with the server: each is told to quit when it stops (and ended if it
  does not within half a second), and each watches its parent (``players --served-by``), so
  a server killed outright takes its screens with it within a second.

textual-serve's own server is not used: it starts each screen through a shell (which a
killed server leaves running), answers any Host and Origin, prints a traceback for a
malformed message, and binds its port only after printing its address.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import html
import json
import logging
import os
import re
import secrets
import signal
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING

from delvetui import connections
from delvetui.errors import DelveError
from delvetui.text import visible

if TYPE_CHECKING:
    from aiohttp import web

#: The only address served: this computer's loopback.
HOST = "127.0.0.1"
DEFAULT_PORT = 8000
#: Players' screens open at once, unless ``--max-screens`` says otherwise.
DEFAULT_SCREENS = 4
MOST_SCREENS = 32
#: The names a page may reach this computer by (with the port served).
LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")
#: The most a page may send in one message: a key, a paste, a resize.
MESSAGE_LIMIT = 64 * 1024
#: How long a screen has to quit when told to, and then to end when ended.
QUIT_WAIT = 0.5
#: The largest screen a page may ask for, in cells across and down.
LARGEST_SIDE = 1000
#: What a browser asks a site for by itself, answered 404 without a note in the log.
_BROWSER_OWN = re.compile(
    r"/(?:favicon\.ico|apple-touch-icon(?:-precomposed)?(?:-\d+x\d+)?\.png|robots\.txt"
    r"|\.well-known/[^?#]*)"
)

log = logging.getLogger("delvetui.serve")


def players_command(path: Path, server: int) -> list[str]:
    """The command that runs the players' screen on this expedition for this server."""
    return [
        sys.executable, "-m", "delvetui", "players", str(path.resolve()),
        "--served-by", str(server),
    ]  # fmt: skip


def check_port(port: int) -> int:
    """The port, or a DelveError saying which ports can be used."""
    if not 1024 <= port <= 65535:
        raise DelveError(
            f"Port {port} cannot be served; give a port from 1024 to 65535, e.g. --port 8000."
        )
    return port


def check_screens(count: int) -> int:
    """The number of screens, or a DelveError saying which numbers can be used."""
    if not 1 <= count <= MOST_SCREENS:
        raise DelveError(
            f"--max-screens {count} cannot be served; give 1 to {MOST_SCREENS}, "
            f"e.g. --max-screens {DEFAULT_SCREENS}."
        )
    return count


def allowed_host(host: str | None, port: int) -> bool:
    """Whether a request's ``Host`` names this computer's loopback and the port served."""
    return host is not None and host.lower() in {f"{name}:{port}" for name in LOOPBACK_NAMES}


def allowed_origin(origin: str | None, port: int) -> bool:
    """Whether a request's ``Origin`` is the players' page itself."""
    names = {f"http://{name}:{port}" for name in LOOPBACK_NAMES}
    return origin is not None and origin.lower() in names


def full_message(count: int) -> str:
    """What a page is told when every screen allowed is open."""
    screens = "screen is" if count == 1 else "screens are"
    return (
        f"{count} players' {screens} open, the most this delvetui serve allows; close one, "
        f"or start delvetui serve again with --max-screens {count + 1}."
    )


class _OneLine(logging.Handler):
    """Each record as one line on standard error: its message, never a traceback."""

    def emit(self, record: logging.LogRecord) -> None:
        with contextlib.suppress(Exception):
            message = " ".join(record.getMessage().split())
            if record.exc_info and record.exc_info[0] is not None:
                message += f" ({record.exc_info[0].__name__})"
            sys.stderr.write(f"delvetui serve: {visible(message)}\n")
            sys.stderr.flush()


def _log_in_one_line() -> None:
    """What aiohttp, asyncio and this module log, in one line each."""
    handler = _OneLine(logging.WARNING)
    for name in ("aiohttp", "asyncio", log.name):
        logger = logging.getLogger(name)
        logger.handlers[:] = [handler]
        logger.setLevel(logging.WARNING)
        logger.propagate = False


def _cells(value: object) -> int | None:
    """A screen's width or height as a page sent it: a whole number of cells, or None."""
    if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= LARGEST_SIDE:
        return value
    return None


def _query_cells(text: str | None, default: int) -> int:
    """A width, height or font size from an address's query; the default when not one."""
    if text is None or not text.isdigit() or len(text) > 4:
        return default
    return _cells(int(text)) or default


def _meta_type(payload: bytes) -> object:
    with contextlib.suppress(ValueError, RecursionError, AttributeError):
        return json.loads(payload).get("type")
    return None


class Screen:
    """One page's players' screen: its ``delvetui players`` process and the page's socket."""

    def __init__(self, socket: web.WebSocketResponse) -> None:
        self.socket = socket
        self.process: asyncio.subprocess.Process | None = None
        #: The end of what the screen wrote to its standard error, said if it fails.
        self.errors = bytearray()

    async def start(self, path: Path, width: int, height: int) -> None:
        """Start the screen's process, the size of the page."""
        environment = {
            **os.environ,
            "TEXTUAL_DRIVER": "textual.drivers.web_driver:WebDriver",
            "TEXTUAL_FPS": "60",
            "TEXTUAL_COLOR_SYSTEM": "truecolor",
            "TERM_PROGRAM": "textual",
            "COLUMNS": str(width),
            "ROWS": str(height),
        }
        self.process = await asyncio.create_subprocess_exec(
            *players_command(path, os.getpid()),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env=environment,
        )

    async def forward(self) -> None:
        """Send what the screen draws to the page until the screen ends, then close it."""
        assert self.process is not None and self.process.stdout is not None
        output = self.process.stdout
        errors = asyncio.create_task(self._keep_errors())
        try:
            # The web driver starts with a line of its own, then sends packets.
            for _ in range(10):
                line = await output.readline()
                if not line or line == b"__GANGLION__\n":
                    break
            while True:
                kind = await output.readexactly(1)
                size = int.from_bytes(await output.readexactly(4), "big")
                payload = await output.readexactly(size)
                if kind == b"D":
                    await self.socket.send_bytes(payload)
                elif kind == b"M" and _meta_type(payload) == "exit":
                    break
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            await self.socket.close()
            await errors
        status = await self.process.wait()
        if status > 0:  # below 0: ended by a signal, the server's own when it stops
            said = bytes(self.errors).decode("utf-8", "replace").strip().splitlines()
            log.warning(
                "a players' screen ended with status %s%s",
                status,
                f": {said[-1]}" if said else "",
            )

    async def _keep_errors(self) -> None:
        assert self.process is not None and self.process.stderr is not None
        while chunk := await self.process.stderr.read(4096):
            self.errors += chunk
            del self.errors[:-4096]

    async def take(self, text: str) -> bool:
        """Pass on one message from the page; False when it is not one the screen takes."""
        try:
            envelope = json.loads(text)
        except (ValueError, RecursionError):
            return False
        if not isinstance(envelope, list) or not envelope:
            return False
        kind, *values = envelope
        if kind == "stdin" and len(values) == 1 and isinstance(values[0], str):
            await self._send(b"D", values[0].encode("utf-8", "replace"))
        elif kind == "resize" and len(values) == 1 and isinstance(values[0], dict):
            width, height = _cells(values[0].get("width")), _cells(values[0].get("height"))
            if width is None or height is None:
                return False
            await self._meta({"type": "resize", "width": width, "height": height})
        elif kind in ("focus", "blur") and not values:
            await self._meta({"type": kind})
        elif kind == "ping" and len(values) == 1 and isinstance(values[0], str):
            await self.socket.send_json(["pong", values[0]])
        else:
            return False
        return True

    async def stop(self) -> None:
        """Tell the screen to quit; end it if it has not within ``QUIT_WAIT`` seconds."""
        process = self.process
        if process is None or process.returncode is not None:
            return
        await self._meta({"type": "quit"})
        for end in (None, process.terminate, process.kill):
            if end is not None:
                with contextlib.suppress(ProcessLookupError):
                    end()
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(process.wait(), QUIT_WAIT)
                return

    async def _meta(self, data: dict[str, object]) -> None:
        await self._send(b"M", json.dumps(data).encode())

    async def _send(self, kind: bytes, payload: bytes) -> None:
        process = self.process
        if process is None or process.stdin is None or process.stdin.is_closing():
            return
        process.stdin.write(kind + len(payload).to_bytes(4, "big") + payload)
        with contextlib.suppress(ConnectionError):
            await process.stdin.drain()


_PAGE = """\
<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="referrer" content="no-referrer">
<link rel="icon" href="data:,">
<title>{title}</title>
<link rel="stylesheet" href="{static}css/xterm.css">
<script src="{static}js/textual.js"></script>
<style>
@font-face {{
  font-family: "Roboto Mono";
  src: url("{static}fonts/RobotoMono-VariableFont_wght.ttf");
}}
body {{ background: #0c181f; margin: 0; }}
.textual-terminal {{ opacity: 0; transition: opacity 0.3s ease-out; }}
body.-first-byte .textual-terminal {{ opacity: 1; }}
.closed {{
  display: none; position: absolute; inset: 0; z-index: 10;
  align-items: center; justify-content: center;
  background: rgba(12, 24, 31, 0.9); color: #eee; font: 20px "Roboto Mono", monospace;
}}
body.-closed .closed {{ display: flex; }}
</style>
</head>
<body>
<div class="closed"><p>The players' screen has closed. Reload the page to open it again.</p></div>
<div id="terminal" class="textual-terminal"
  data-session-websocket-url="{socket}" data-font-size="{font_size}"></div>
<script>
/* Type sized to the window, about 30 lines high, so the screen reads across a room on a TV
   as on a laptop; ?fontsize=N in the address sets it instead. */
(() => {{
  const terminal = document.getElementById("terminal");
  if (terminal.dataset.fontSize === "auto") {{
    const size = Math.round(window.innerHeight / 36);
    terminal.dataset.fontSize = String(Math.min(64, Math.max(14, size)));
  }}
}})();
</script>
</body>
</html>
"""

_REFUSED_HOST = "Forbidden: delvetui serve answers only this computer's own addresses."
_REFUSED_ORIGIN = "Forbidden: the players' screen opens only from its own page."
_REFUSED_KEY = "Forbidden: open the address delvetui serve printed, key and all."

#: Sent with every answer: no other site may frame, cache or be told the page's address.
_HEADERS = {
    "Cache-Control": "no-store",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
}


class PlayersServer:
    """The players' page and its screens, for one expedition, for the game master only."""

    def __init__(self, path: Path, port: int, max_screens: int) -> None:
        self.path = path
        self.port = port
        self.max_screens = max_screens
        #: The secret every address carries, made for this run.
        self.key = secrets.token_urlsafe(18)
        self.screens: set[Screen] = set()
        self._refused: set[str] = set()
        #: Every connection open, each bounded in time, and how many there may be.
        self.connections = connections.Connections(connections.MOST_CONNECTIONS)

    @property
    def url(self) -> str:
        """The page's address, secret and all."""
        return f"http://{HOST}:{self.port}/{self.key}/"

    def application(self) -> web.Application:
        """The aiohttp application: the page, its static files and its WebSocket."""
        import textual_serve  # only its page script and styles, which it ships as files
        from aiohttp import web

        static = Path(textual_serve.__file__).with_name("static")

        @web.middleware
        async def guard(
            request: web.Request,
            handler: Callable[[web.Request], Awaitable[web.StreamResponse]],
        ) -> web.StreamResponse:
            return await self._answer(request, handler)

        application = web.Application(middlewares=[guard])
        application.add_routes(
            [
                web.get(f"/{self.key}/", self._page),
                web.get(f"/{self.key}/ws", self._websocket),
                web.static(f"/{self.key}/static", static),
            ]
        )
        return application

    def _refuse(self, reason: str, line: str) -> web.Response:
        """A plain 403; the first of each kind noted in the log."""
        from aiohttp import web

        if reason not in self._refused:
            self._refused.add(reason)
            log.warning("%s (further ones are refused without a note)", line)
        return web.Response(status=403, text=reason + "\n", headers=_HEADERS)

    def _check(self, request: web.Request) -> web.Response | None:
        """A 403 for a request from elsewhere or without the key, a quiet 404 for what a
        browser asks for by itself; None for the page's own."""
        if not allowed_host(request.headers.get("Host"), self.port):
            host = request.headers.get("Host", "")[:80]
            return self._refuse(_REFUSED_HOST, f"refused a request for another host ({host!r})")
        origin = request.headers.get("Origin")
        websocket = request.headers.get("Upgrade", "").lower() == "websocket"
        if (origin is not None or websocket) and not allowed_origin(origin, self.port):
            shown = "no origin" if origin is None else repr(origin[:80])
            return self._refuse(_REFUSED_ORIGIN, f"refused a request from another page ({shown})")
        if _BROWSER_OWN.fullmatch(request.rel_url.raw_path):
            from aiohttp import web

            return web.Response(status=404, text="Not here.\n", headers=_HEADERS)
        parts = request.rel_url.raw_path.split("/", 2)
        first = parts[1] if len(parts) > 1 else ""
        if not secrets.compare_digest(first.encode(), self.key.encode()):
            return self._refuse(_REFUSED_KEY, "refused a request without the page's key")
        return None

    async def _answer(
        self,
        request: web.Request,
        handler: Callable[[web.Request], Awaitable[web.StreamResponse]],
    ) -> web.StreamResponse:
        """The guard before every handler; the headers after it. While it runs (a WebSocket's
        whole life) its connection is busy: never closed as idle or overdue."""
        with self.connections.busy(request.transport):
            refused = self._check(request)
            if refused is not None:
                return refused
            response = await handler(request)
            if not response.prepared:
                response.headers.update(_HEADERS)
            return response

    def _full(self) -> web.Response:
        from aiohttp import web

        return web.Response(
            status=503, text=full_message(self.max_screens) + "\n", headers=_HEADERS
        )

    async def _page(self, request: web.Request) -> web.Response:
        from aiohttp import web

        if len(self.screens) >= self.max_screens:
            return self._full()
        asked = request.query.get("fontsize")
        font_size = "auto" if asked is None else min(max(_query_cells(asked, 16), 8), 72)
        text = _PAGE.format(
            title=html.escape(f"{self.path.stem} — the players' screen"),
            static=html.escape(f"/{self.key}/static/"),
            socket=html.escape(f"ws://{request.host}/{self.key}/ws"),
            font_size=font_size,
        )
        return web.Response(text=text, content_type="text/html")

    async def _websocket(self, request: web.Request) -> web.StreamResponse:
        from aiohttp import WSMsgType, web

        if len(self.screens) >= self.max_screens:
            return self._full()
        width = _query_cells(request.query.get("width"), 80)
        height = _query_cells(request.query.get("height"), 24)
        socket = web.WebSocketResponse(heartbeat=30, max_msg_size=MESSAGE_LIMIT)
        screen = Screen(socket)
        self.screens.add(screen)
        forwarding: asyncio.Task[None] | None = None
        try:
            await socket.prepare(request)
            try:
                await screen.start(self.path, width, height)
            except OSError as error:
                log.warning("a players' screen could not start (%s)", error.strerror or error)
                await socket.close()
                return socket
            forwarding = asyncio.create_task(screen.forward())
            told = False
            async for message in socket:
                if message.type != WSMsgType.TEXT:
                    continue
                if not await screen.take(message.data) and not told:
                    told = True
                    log.warning(
                        "a page sent a message the players' screen does not take (%r); "
                        "it and any more like it are ignored",
                        message.data[:40],
                    )
        finally:
            await screen.stop()
            if forwarding is not None:
                await forwarding
            self.screens.discard(screen)
        return socket

    async def close(self) -> None:
        """End every screen and close every page's socket."""
        from aiohttp import WSCloseCode

        screens = list(self.screens)
        await asyncio.gather(*(screen.stop() for screen in screens))
        await asyncio.gather(
            *(screen.socket.close(code=WSCloseCode.GOING_AWAY) for screen in screens)
        )


async def listen(server: PlayersServer) -> web.AppRunner:
    """Start answering on the server's port; the runner, to clean up when done. DelveError
    with a sentence when the port cannot be served."""
    from aiohttp import web

    port = server.port
    runner = web.AppRunner(
        server.application(),
        handle_signals=False,
        access_log=None,
        shutdown_timeout=QUIT_WAIT,
        keepalive_timeout=connections.IDLE_WAIT,
    )
    await runner.setup()
    try:
        await connections.site(runner, HOST, port, server.connections).start()
    except OSError as error:
        await runner.cleanup()
        if error.errno in (errno.EADDRINUSE, getattr(errno, "WSAEADDRINUSE", errno.EADDRINUSE)):
            raise DelveError(
                f"Port {port} is in use (by another program, or another delvetui serve); "
                f"choose another with --port, e.g. --port {port + 1 if port < 65535 else 8000}."
            ) from None
        raise DelveError(
            f"Port {port} cannot be served ({error.strerror or error}); choose another with --port."
        ) from None
    return runner


async def _serve(path: Path, port: int, max_screens: int) -> None:
    server = PlayersServer(path, port, max_screens)
    runner = await listen(server)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for name in ("SIGINT", "SIGTERM", "SIGHUP"):
        with contextlib.suppress(AttributeError, NotImplementedError, ValueError):
            loop.add_signal_handler(getattr(signal, name), stop.set)
    print(f"The players' screen of {path.stem}: open {server.url} (Ctrl+C stops).", flush=True)
    try:
        await stop.wait()
    finally:
        await server.close()
        await runner.cleanup()


def serve(path: Path, port: int = DEFAULT_PORT, max_screens: int = DEFAULT_SCREENS) -> None:
    """Serve the players' screen on http://127.0.0.1:PORT/SECRET/ until Ctrl+C."""
    check_port(port)
    check_screens(max_screens)
    _log_in_one_line()
    asyncio.run(_serve(path, port, max_screens))
