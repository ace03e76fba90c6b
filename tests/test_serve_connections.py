"""`delvetui serve` bounds its connections: none is kept for good (docs/reliability.md,
"The served players' page").

The finding: the server kept idle and half-sent connections forever (1,100 of them, an
open file each), and answered the browser's own icon request with "refused a request
without the page's key", which reads like an attack to a game master. Here the server runs
in the test's own event loop, on a free port, with its waits made short (the same code
paths; ``connections.REQUEST_WAIT`` and ``IDLE_WAIT`` are read when a connection needs
them), and
plain sockets and aiohttp's client are the browser and the attacker.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest

from delvetui import connections, serve
from tests.test_serve import free_port
from tests.ui_support import make


@pytest.fixture
async def players(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[serve.PlayersServer]:
    """A serving PlayersServer with a request wait of 0.3 s, an idle wait of 0.6 s and at
    most five connections."""
    monkeypatch.setattr(connections, "REQUEST_WAIT", 0.3)
    monkeypatch.setattr(connections, "IDLE_WAIT", 0.6)
    monkeypatch.setattr(connections, "MOST_CONNECTIONS", 5)
    server = serve.PlayersServer(make("crypt"), free_port(), max_screens=2)
    runner = await serve.listen(server)
    try:
        yield server
    finally:
        await server.close()
        await runner.cleanup()


async def connect(server: serve.PlayersServer) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    return await asyncio.open_connection(serve.HOST, server.port)


async def closed_after(reader: asyncio.StreamReader, most: float) -> float:
    """Seconds until the server closes the connection (the test fails past ``most``). A
    reset is a close too: bytes still arriving at a closed socket (a request dribbled in)
    make the system answer with one, and under load it can come before the end is read."""
    start = time.monotonic()
    while True:
        try:
            data = await asyncio.wait_for(reader.read(65536), most)
        except ConnectionResetError:
            return time.monotonic() - start
        if data == b"":
            return time.monotonic() - start


def request(server: serve.PlayersServer, path: str, *, keep: bool = False) -> bytes:
    close = "" if keep else "Connection: close\r\n"
    return f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n{close}\r\n".encode()


async def test_a_request_not_sent_whole_in_time_is_closed(players: serve.PlayersServer) -> None:
    reader, writer = await connect(players)
    writer.write(request(players, f"/{players.key}/")[:30])  # a request half sent
    await writer.drain()
    took = await closed_after(reader, 5)
    assert 0.25 <= took < 2, took
    # Sent a byte at a time, a request is still bounded from its first byte.
    reader, writer = await connect(players)

    async def dribble() -> None:
        for byte in request(players, f"/{players.key}/"):
            writer.write(bytes([byte]))
            await asyncio.sleep(0.05)

    dribbling = asyncio.create_task(dribble())
    try:
        took = await closed_after(reader, 5)
    finally:
        dribbling.cancel()
    assert 0.25 <= took < 2, took


async def test_an_idle_connection_is_closed_and_a_screen_is_not(
    players: serve.PlayersServer,
) -> None:
    reader, _ = await connect(players)
    took = await closed_after(reader, 5)
    assert 0.5 <= took < 3, took
    # A browser's connection kept alive after the page is idle once the page is sent.
    reader, writer = await connect(players)
    writer.write(request(players, f"/{players.key}/", keep=True))
    await writer.drain()
    assert (await reader.readline()).startswith(b"HTTP/1.1 200")
    await closed_after(reader, 5)
    # A screen's WebSocket is a request being answered for as long as it is open.
    url = f"ws://127.0.0.1:{players.port}/{players.key}/ws"
    origin = {"Origin": f"http://127.0.0.1:{players.port}"}
    async with aiohttp.ClientSession() as session, session.ws_connect(url, headers=origin) as ws:
        await asyncio.sleep(2 * connections.IDLE_WAIT + connections.REQUEST_WAIT)
        await ws.send_json(["ping", "still there"])
        while (message := await ws.receive(timeout=30)).type == aiohttp.WSMsgType.BINARY:
            pass
        assert message.type == aiohttp.WSMsgType.TEXT and message.json() == ["pong", "still there"]


async def test_open_connections_are_capped_the_idle_one_going_first(
    players: serve.PlayersServer, caplog: pytest.LogCaptureFixture
) -> None:
    first = await connect(players)
    others = [await connect(players) for _ in range(4)]
    await asyncio.sleep(0.05)
    assert len(players.connections.open) == 5
    # The sixth is served; the connection idle longest, the first, is closed for it.
    reader, writer = await connect(players)
    writer.write(request(players, f"/{players.key}/"))
    await writer.drain()
    assert (await reader.readline()).startswith(b"HTTP/1.1 200")
    assert await closed_after(first[0], 1) < 1
    assert len(players.connections.open) <= 5
    said = [r.getMessage() for r in caplog.records if r.name == "delvetui.serve"]
    assert said == [
        "5 connections are open, the most served; the one idle longest is closed for each "
        "new one (further ones without a note)"
    ]
    for _, other in others:
        other.close()


async def test_what_a_browser_asks_for_by_itself_is_answered_quietly(
    players: serve.PlayersServer, caplog: pytest.LogCaptureFixture
) -> None:
    for path in (
        "/favicon.ico",
        "/apple-touch-icon.png",
        "/apple-touch-icon-precomposed.png",
        "/robots.txt",
        "/.well-known/appspecific/com.chrome.devtools.json",
    ):
        reader, writer = await connect(players)
        writer.write(request(players, path))
        await writer.drain()
        answer = await reader.read()
        assert answer.startswith(b"HTTP/1.1 404"), (path, answer[:40])
        assert players.key.encode() not in answer
    assert [r for r in caplog.records if r.name == "delvetui.serve"] == []
    # Anything else without the key is still refused, and said once.
    reader, writer = await connect(players)
    writer.write(request(players, "/favicon.png"))
    await writer.drain()
    assert (await reader.read()).startswith(b"HTTP/1.1 403")
    assert [r.getMessage() for r in caplog.records if r.name == "delvetui.serve"] == [
        "refused a request without the page's key (further ones are refused without a note)"
    ]
    # The page tells the browser it has no icon to ask for.
    status, page = await fetch(f"http://127.0.0.1:{players.port}/{players.key}/")
    assert status == 200 and '<link rel="icon" href="data:,">' in page


async def fetch(url: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as session, session.get(url) as answer:
        return answer.status, await answer.text()


def test_the_waits_are_a_few_seconds_and_a_minute() -> None:
    """What docs/reliability.md says: a few seconds for a request, a minute idle."""
    assert (
        connections.REQUEST_WAIT == 5.0
        and connections.IDLE_WAIT == 60.0
        and connections.MOST_CONNECTIONS == 64
    )
