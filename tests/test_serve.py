"""`delvetui serve`: the players' page is the game master's only, and ends with its server.

Each test runs the real command (``python -m delvetui serve``) in a process of its own and
talks to it with aiohttp's client, a real WebSocket: another name for the host, another
website's origin, no key, too many screens, malformed messages, a port in use, the server
killed. Every test leaves no process behind: the server is stopped, and any players'
screen it started (found in the server's own session) is ended and reported.

The last test shows the players' screen in a real browser (headless Chromium), driven
over the DevTools protocol. Before the page loads, a small script
keeps a copy of what the page's terminal receives over its WebSocket, so the test reads
the words the page draws (the terminal itself paints on a canvas); the page's own layout
gives the terminal's size, and a small screenshot, read pixel by pixel, what the window
shows. Skipped, with the reason, where no Chromium is installed (Debian's `chromium`
package).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import os
import re
import select
import shutil
import signal
import socket
import struct
import subprocess
import tempfile
import threading
import time
import urllib.request
import zlib
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import IO, Any

import aiohttp
import pytest

from delvetui.ui.players.big_text import block_lines
from tests.cli_support import command, delvetui, environment
from tests.ui_support import make

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")

#: Kept by the page: every byte its terminal received, as text.
RECORD = """
(() => {
  window.__received = "";
  const Original = window.WebSocket;
  window.WebSocket = function (...args) {
    const socket = new Original(...args);
    socket.addEventListener("message", (event) => {
      if (typeof event.data !== "string") {
        window.__received += new TextDecoder().decode(new Uint8Array(event.data));
      }
    });
    return socket;
  };
  window.WebSocket.prototype = Original.prototype;
})();
"""

_ESCAPE = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b[()][A-Z0-9]|\x1b[=>]")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def wait_for_http(url: str, timeout: float = 60) -> None:
    end = time.monotonic() + timeout
    while True:
        try:
            with urllib.request.urlopen(url, timeout=5) as answer:
                if answer.status == 200:
                    return
        except OSError:
            if time.monotonic() > end:
                raise
        time.sleep(0.2)


def wait_for_port(port: int, timeout: float = 30) -> None:
    """Wait until the port takes connections (the address may be printed before)."""
    end = time.monotonic() + timeout
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=5).close()
            return
        except OSError:
            if time.monotonic() > end:
                raise
        time.sleep(0.1)


class Served:
    """A running ``delvetui serve``: its process, the address it printed, what it says."""

    def __init__(self, process: subprocess.Popen[bytes], url: str, port: int) -> None:
        self.process = process
        self.url = url
        self.port = port
        self.said: list[str] = []
        self._readers = [
            threading.Thread(target=self._read, args=(stream,), daemon=True)
            for stream in (process.stdout, process.stderr)
        ]
        for reader in self._readers:
            reader.start()

    def _read(self, stream: IO[bytes] | None) -> None:
        assert stream is not None
        for line in stream:
            self.said.append(line.decode("utf-8", "replace"))

    @property
    def socket_url(self) -> str:
        """The address of the page's WebSocket."""
        return "ws" + self.url.rstrip("/")[4:] + "/ws"

    @property
    def own_origin(self) -> dict[str, str]:
        """The headers of the page's own WebSocket."""
        return {"Origin": f"http://127.0.0.1:{self.port}"}

    def screens(self) -> list[int]:
        """The players' screens this server started that are still running."""
        return screens_of(self.process.pid)

    def output(self) -> str:
        """Everything the server printed, once it has ended (both streams)."""
        for reader in self._readers:
            reader.join(10)
        return "".join(self.said)


def screens_of(server: int) -> list[int]:
    """The players' screens the server started that still run (a zombie has ended).

    The server runs in a session of its own, which every process it starts shares, even
    once the server is gone; each is a ``delvetui players`` or a shell running one.
    """
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == server:
            continue
        try:
            stat = (entry / "stat").read_text()
            line = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        state, _, _, session = stat.rsplit(")", 1)[1].split()[:4]
        if int(session) == server and state != "Z" and b"players" in line:
            found.append(int(entry.name))
    return found


def _end(pids: list[int]) -> None:
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


@contextlib.contextmanager
def served(path: Path, home: Path, *more: str) -> Iterator[Served]:
    """``delvetui serve PATH --port P MORE...`` until the block ends; then it is stopped, and
    a screen it left running is ended and fails the test."""
    port = free_port()
    process = subprocess.Popen(
        command("serve", str(path), "--port", str(port), *more),
        env=environment(home),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    left: list[int] = []
    try:
        assert process.stdout is not None
        ready, _, _ = select.select([process.stdout], [], [], 60)
        first = process.stdout.readline().decode() if ready else ""
        found = re.search(r"open (http://\S+) \(", first)
        assert found, f"serve printed no address: {first!r}"
        server = Served(process, found.group(1), port)
        server.said.append(first)
        wait_for_port(port)
        yield server
    finally:
        pid = process.pid
        if process.poll() is None:
            process.terminate()
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        for _ in range(50):
            left = screens_of(pid)
            if not left:
                break
            time.sleep(0.1)
        _end(left)
    assert not left, f"serve left its screens running: {left}"


async def get(url: str, **headers: str) -> tuple[int, str]:
    """A GET with these headers: the status and the text."""
    async with (
        aiohttp.ClientSession() as session,
        session.get(url, headers=headers, allow_redirects=False) as answer,
    ):
        return answer.status, await answer.text()


async def drawn(ws: aiohttp.ClientWebSocketResponse, words: str, timeout: float = 60) -> str:
    """What the screen drew over the WebSocket, once it shows these words."""
    received = b""
    end = time.monotonic() + timeout
    while words not in " ".join(_ESCAPE.sub(" ", received.decode("utf-8", "replace")).split()):
        left = end - time.monotonic()
        assert left > 0, f"the screen never showed {words!r}"
        message = await ws.receive(timeout=left)
        assert message.type == aiohttp.WSMsgType.BINARY, message
        received += message.data
    return received.decode("utf-8", "replace")


async def all_closed(server: Served, timeout: float = 10) -> None:
    """Wait until every screen of the server has ended (a page closed ends its screen)."""
    end = time.monotonic() + timeout
    while server.screens():
        assert time.monotonic() < end, f"screens still running: {server.screens()}"
        await asyncio.sleep(0.05)


async def refused(url: str, headers: dict[str, str]) -> int:
    """The status a WebSocket is refused with (the test fails if it is let in)."""
    async with aiohttp.ClientSession() as session:
        with pytest.raises(aiohttp.WSServerHandshakeError) as refusal:
            async with session.ws_connect(url, headers=headers):
                pass
    return refusal.value.status


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """One server for the checks that start at most one screen at a time."""
    home = tmp_path_factory.mktemp("served")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("DELVETUI_HOME", str(home))
        path = make("crypt")
    with served(path, home) as running:
        yield running


async def test_a_page_asked_for_by_another_name_is_refused(server: Served) -> None:
    """Rule: the page answers only this computer's loopback names with the port it serves
    (127.0.0.1, localhost, [::1]); a website that points its own name here (DNS rebinding)
    gets a plain 403. Before: `Host: attacker.example` got the page."""
    port = server.port
    for host in (
        "attacker.example", f"attacker.example:{port}", "127.0.0.1", f"127.0.0.1:{port + 1}",
        f"localhost.:{port}", f"127.0.0.2:{port}", f"192.168.1.5:{port}", f"0.0.0.0:{port}",
    ):  # fmt: skip
        status, text = await get(server.url, Host=host)
        assert (status, text.startswith("Forbidden")) == (403, True), host
        assert "textual" not in text
    for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"[::1]:{port}", f"LocalHost:{port}"):
        status, text = await get(server.url, Host=host)
        assert status == 200, host
        assert f"ws://{host}/" in text and "textual.js" in text


async def test_a_websocket_from_another_website_gets_nothing(server: Served) -> None:
    """Rule: the players' screen opens only from its own page: a WebSocket whose Origin is
    another website (or none, or this computer on another port or scheme) is refused
    before any screen starts. Before: `Origin: http://evil.example` received the screen."""
    port = server.port
    for origin in (
        "http://evil.example", f"http://evil.example:{port}", "null",
        f"https://127.0.0.1:{port}", f"http://127.0.0.1:{port + 1}", f"http://localhost.:{port}",
    ):  # fmt: skip
        assert await refused(server.socket_url, {"Origin": origin}) == 403, origin
    assert await refused(server.socket_url, {}) == 403
    assert server.screens() == []
    # The page's own origin, by any of this computer's names, gets the screen.
    async with aiohttp.ClientSession() as session:
        own = {"Origin": f"http://localhost:{port}"}
        async with session.ws_connect(server.socket_url, headers=own) as ws:
            assert "Bright light" in " ".join((await drawn(ws, "Bright light")).split())
            assert len(server.screens()) == 1
    await all_closed(server)


async def test_every_address_needs_the_key_printed(server: Served) -> None:
    """Rule: every address carries the secret made for the run (the page, its script and
    styles, its WebSocket); without it, a plain 403 and no screen. Before: anyone who
    found the port had the page."""
    key = server.url.rstrip("/").rsplit("/", 1)[1]
    assert len(key) >= 20
    root = f"http://127.0.0.1:{server.port}"
    wrong = "A" * len(key)
    for path in ("/", "/ws", "/static/js/textual.js", f"/{wrong}/", f"/{wrong}/ws", f"/{key}x/"):
        status, text = await get(root + path)
        assert (status, text.strip()) == (
            403, "Forbidden: open the address delvetui serve printed, key and all."
        ), path  # fmt: skip
        assert key not in text
    for path in ("/ws", "/static/js/textual.js"):
        websocket = root.replace("http", "ws") + path
        assert await refused(websocket, server.own_origin) == 403
    status, page = await get(server.url)
    assert status == 200
    assert f"/{key}/ws" in page and f"/{key}/static/js/textual.js" in page
    assert "googleapis" not in page  # the page asks nothing of another site
    assert (await get(f"{server.url}static/js/textual.js"))[0] == 200
    assert server.screens() == []


@pytest.mark.long
async def test_malformed_messages_are_ignored_without_a_traceback(server: Served) -> None:
    """Rule: nothing a page or a request sends prints a traceback; what the screen does not
    take is ignored, with one line in the log at most. Before: 12 bad messages gave 13
    tracebacks with local variables, about 690 lines, in the game master's terminal."""
    bad = ["not json", "[]", '["stdin",5]', '["resize",null]'] * 3 + [
        "[" * 20000, '{"stdin": "q"}', '"q"', "null", '["resize",{"width":1e9,"height":5}]',
        '["resize",{"width":true,"height":5}]', '["resize",{"width":-3,"height":5}]',
        '["ping",{"a":1}]', '["focus",1]', '["nothing"]', '["stdin","\\ud800"]',
    ]  # fmt: skip
    async with aiohttp.ClientSession() as session:
        async with session.ws_connect(server.socket_url, headers=server.own_origin) as ws:
            await drawn(ws, "Bright light")
            for message in bad:
                await ws.send_str(message)
            await ws.send_bytes(b"\x00\xff not text")
            await ws.send_str('["ping","still here"]')
            while (answer := await ws.receive(timeout=30)).type == aiohttp.WSMsgType.BINARY:
                pass
            assert answer.json() == ["pong", "still here"]
        # A message past the limit (64 KiB) closes its socket, and says so.
        async with session.ws_connect(server.socket_url, headers=server.own_origin) as ws:
            await ws.send_str('["stdin","' + "x" * 70_000 + '"]')
            while (answer := await ws.receive(timeout=30)).type == aiohttp.WSMsgType.BINARY:
                pass
            assert answer.type == aiohttp.WSMsgType.CLOSE
            assert ws.close_code == aiohttp.WSCloseCode.MESSAGE_TOO_BIG
    # Requests that are not HTTP, or not whole.
    for raw in (b"GARBAGE \x00\x01 HTTP/9\r\n\r\n", b"\x16\x03\x01\x02\x00\x01" + b"\x00" * 60):
        with socket.create_connection(("127.0.0.1", server.port), timeout=10) as probe:
            probe.sendall(raw)
            assert probe.recv(100).startswith(b"HTTP/1.0 400")
    await all_closed(server)
    said = "".join(server.said)
    assert "Traceback" not in said and 'File "' not in said, said
    assert len([line for line in server.said if "does not take" in line]) == 1, said


@pytest.mark.long
async def test_the_screens_open_at_once_are_capped(home: Path) -> None:
    """Rule: at most --max-screens players' screens run at once (each is a process of about
    40 MB); the page past them is told the limit and how to raise it, and a screen closed
    makes room. Before: 20 connections made 20 processes and 792 MB."""
    with served(make("crypt"), home, "--max-screens", "1") as server:
        async with aiohttp.ClientSession() as session:
            async with session.ws_connect(server.socket_url, headers=server.own_origin) as ws:
                await drawn(ws, "Bright light")
                assert await refused(server.socket_url, server.own_origin) == 503
                status, text = await get(server.url)
                assert status == 503
                assert text.strip() == (
                    "1 players' screen is open, the most this delvetui serve allows; "
                    "close one, or start delvetui serve again with --max-screens 2."
                )
                assert len(server.screens()) == 1
            for _ in range(100):
                if (await get(server.url))[0] == 200:
                    break
                await asyncio.sleep(0.1)
            async with session.ws_connect(server.socket_url, headers=server.own_origin) as ws:
                await drawn(ws, "Bright light")
                assert len(server.screens()) == 1


def test_serve_takes_only_usable_ports_and_screen_counts(home: Path) -> None:
    make("crypt")
    refused = delvetui(home, "serve", "crypt", "--port", "80")
    assert refused.returncode == 2
    assert "1024 to 65535" in refused.stderr
    for count in ("0", "33"):
        refused = delvetui(home, "serve", "crypt", "--max-screens", count)
        assert refused.returncode == 2
        assert f"--max-screens {count} cannot be served; give 1 to 32" in refused.stderr
        assert refused.stdout == ""


def test_a_port_in_use_is_one_sentence_and_no_address(home: Path) -> None:
    """Rule: a port that cannot be had is one sentence naming it and what to do, exit 2,
    and no address printed first. Before: the address (of the other expedition's server),
    then 35 lines of traceback, exit 1."""
    make("crypt")
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        taken = delvetui(home, "serve", "crypt", "--port", str(port))
    assert taken.returncode == 2
    assert taken.stdout == ""
    assert taken.stderr == (
        f"delvetui: Port {port} is in use (by another program, or another delvetui serve); "
        f"choose another with --port, e.g. --port {port + 1}.\n"
    )


@pytest.mark.long
@pytest.mark.skipif(not Path("/proc/self/cmdline").exists(), reason="needs Linux's /proc")
async def test_the_screens_end_when_the_server_is_killed(home: Path) -> None:
    """Rule: the server owns its screens: killed outright (SIGKILL, nothing of it runs to
    tidy up), every players' screen it started ends within a few seconds. Before: three
    pages left three `delvetui players` (and three shells) reading the file five times a
    second, for good."""
    with served(make("crypt"), home) as server:
        async with (
            aiohttp.ClientSession() as session,
            session.ws_connect(server.socket_url, headers=server.own_origin) as first,
            session.ws_connect(server.socket_url, headers=server.own_origin) as second,
        ):
            await drawn(first, "Bright light")
            await drawn(second, "Bright light")
            assert len(server.screens()) >= 2  # two, and before, a shell for each
            server.process.kill()
            server.process.wait(10)
            killed = time.monotonic()
            while server.screens() and time.monotonic() - killed < 10:
                await asyncio.sleep(0.05)
            took = time.monotonic() - killed
            assert server.screens() == [], f"still running {took:.1f} s after the kill"
            assert took < 5
            print(f"the screens ended {took:.2f} s after the server's SIGKILL")


@pytest.mark.long
@pytest.mark.parametrize("stop", ["ctrl+c", "SIGINT", "SIGTERM", "SIGHUP"])
async def test_the_server_stops_at_once_with_a_page_open(home: Path, stop: str) -> None:
    """Rule: Ctrl+C (SIGINT to the terminal's whole process group), SIGINT to the server
    alone, SIGTERM and SIGHUP stop the server and every screen it started within a second;
    the page is told. Before: with a page open, Ctrl+C could take 20 s, SIGTERM took 22 s,
    and SIGHUP killed the server and left the screen running. (Up to 2.5 s is allowed
    here: a loaded machine.)"""
    with served(make("crypt"), home) as server:
        async with (
            aiohttp.ClientSession() as session,
            session.ws_connect(server.socket_url, headers=server.own_origin) as ws,
        ):
            await drawn(ws, "Bright light")
            started = time.monotonic()
            if stop == "ctrl+c":
                os.killpg(server.process.pid, signal.SIGINT)
            else:
                server.process.send_signal(getattr(signal, stop))
            server.process.wait(30)
            took = time.monotonic() - started
            while (message := await ws.receive(timeout=10)).type == aiohttp.WSMsgType.BINARY:
                pass
            assert message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
            assert server.screens() == []
        assert server.process.returncode == 0
        assert took < 2.5, f"{stop} took {took:.2f} s"
        assert "Traceback" not in server.output()


class Page:
    """One Chromium tab over the DevTools protocol."""

    def __init__(self, socket: aiohttp.ClientWebSocketResponse) -> None:
        self.socket = socket
        self.number = 0

    async def call(self, method: str, **params: Any) -> dict[str, Any]:
        self.number += 1
        await self.socket.send_str(
            json.dumps({"id": self.number, "method": method, "params": params})
        )
        while True:
            message = json.loads((await self.socket.receive()).data)
            if message.get("id") == self.number:
                result: dict[str, Any] = message.get("result", {})
                return result

    async def value(self, expression: str) -> Any:
        """What a JavaScript expression comes to in the page (as JSON)."""
        found = await self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        return found.get("result", {}).get("value")

    async def text(self) -> str:
        raw = str(await self.value("window.__received || ''"))
        return _ESCAPE.sub(" ", raw)

    async def until(self, words: str, timeout: float = 60) -> str:
        end = time.monotonic() + timeout
        while True:
            shown = await self.text()
            if words in " ".join(shown.split()):
                return shown
            if time.monotonic() > end:
                raise AssertionError(f"the page never showed {words!r}; it showed {shown[-400:]!r}")
            await asyncio.sleep(0.25)


async def browser_page(debug_port: int) -> AsyncIterator[Page]:
    async with aiohttp.ClientSession() as session:
        end = time.monotonic() + 30
        while True:
            try:
                async with session.get(f"http://127.0.0.1:{debug_port}/json/list") as answer:
                    targets = await answer.json()
                pages = [t for t in targets if t.get("type") == "page"]
                if pages:
                    break
            except aiohttp.ClientError:
                pass
            if time.monotonic() > end:
                raise AssertionError("Chromium did not start")
            await asyncio.sleep(0.2)
        async with session.ws_connect(pages[0]["webSocketDebuggerUrl"], max_msg_size=0) as ws:
            yield Page(ws)


def pixels(png: bytes) -> tuple[int, int, list[bytes]]:
    """A PNG's width, height and rows of pixels, 3 or 4 bytes each (8-bit RGB or RGBA, as
    Chromium writes them)."""
    width, height, depth, kind, _, _, interlaced = struct.unpack(">IIBBBBB", png[16:29])
    assert (depth, kind, interlaced) in ((8, 2, 0), (8, 6, 0)), "an 8-bit RGB(A) picture"
    step = 3 if kind == 2 else 4
    data, at = b"", 8
    while at < len(png):
        size, name = struct.unpack(">I4s", png[at : at + 8])
        if name == b"IDAT":
            data += png[at + 8 : at + 8 + size]
        at += size + 12
    raw, stride, rows = zlib.decompress(data), width * step, []
    above = bytearray(stride)
    for row in range(height):
        start = row * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1 : start + 1 + stride])
        for i in range(stride):
            left = line[i - step] if i >= step else 0
            up, corner = above[i], above[i - step] if i >= step else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                guess = left + up - corner
                near = min((abs(guess - left), 0, left), (abs(guess - up), 1, up),
                           (abs(guess - corner), 2, corner))  # fmt: skip
                line[i] = (line[i] + near[2]) & 255
        rows.append(bytes(line))
        above = line
    return width, height, rows


def share_of(png: bytes, colour: tuple[int, int, int]) -> tuple[float, float]:
    """How much of the picture is (near) this colour, and of the widest row of it, how much
    of the width is between its first and last pixel of it."""
    width, height, rows = pixels(png)
    step = len(rows[0]) // width
    found, widest = 0, 0
    for row in rows:
        near = [
            x for x in range(width)
            if all(abs(row[step * x + n] - colour[n]) <= 12 for n in range(3))
        ]  # fmt: skip
        found += len(near)
        if near:
            widest = max(widest, near[-1] - near[0] + 1)
    return found / (width * height), widest / width


#: The band's colour behind bright light (players.tcss).
BRIGHT_BAND = (0xF4, 0xC5, 0x42)


def drawn_big(shown: str, word: str) -> int:
    """The scale the word is drawn at in block letters in what the page received; 0: not."""
    for scale in range(12, 0, -1):
        if all(line.strip() in shown for line in block_lines(word, scale)):
            return scale
    return 0


@pytest.mark.long
@pytest.mark.skipif(CHROMIUM is None, reason="no Chromium installed (Debian package: chromium)")
async def test_a_browser_shows_the_players_screen_and_follows_the_table(home: Path) -> None:
    """Rule: in a browser window the players' screen fills the window and reads across a
    table: the terminal takes the whole window, the light's band its whole width, the
    light's word in block letters. Before: at 1200×800 a box of 80-column text sat in the
    middle of a dark page."""
    assert CHROMIUM is not None
    path = make("crypt")
    debug_port = free_port()
    profile = tempfile.mkdtemp(prefix="delvetui-chromium-")
    browser = None
    try:
        with served(path, home) as server:
            url = server.url
            wait_for_http(url)
            browser = subprocess.Popen(
                [
                    CHROMIUM, "--headless=new", "--no-sandbox", "--disable-gpu",
                    "--no-first-run", f"--user-data-dir={profile}",
                    f"--remote-debugging-port={debug_port}", "--window-size=1200,800",
                    "about:blank",
                ],
                # Chromium's own scratch folders (org.chromium.Chromium.*) go in the
                # profile, which is removed, not in the system's temporary folder.
                env={**os.environ, "TMPDIR": profile},
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )  # fmt: skip
            async for page in browser_page(debug_port):
                await page.call("Page.enable")
                await page.call("Runtime.enable")
                await page.call("Page.addScriptToEvaluateOnNewDocument", source=RECORD)
                await page.call("Page.navigate", url=url)
                first = await page.until("burns bright")
                assert "Bright light" in " ".join(first.split())
                assert "hazard" not in first.lower()
                assert drawn_big(first, "BRIGHT") >= 2
                # The terminal takes the whole window.
                window = await page.value("[window.innerWidth, window.innerHeight]")
                box = await page.value(
                    "(() => { const r = document.querySelector('.xterm-screen')"
                    ".getBoundingClientRect(); return [r.width, r.height]; })()"
                )
                assert window[0] >= 1000 and window[1] >= 600, window
                # Its type is sized to the window: about 30 lines high.
                font = await page.value("document.getElementById('terminal').dataset.fontSize")
                assert font == str(max(14, round(window[1] / 36))), (font, window)
                assert box[0] >= 0.9 * window[0] and box[1] >= 0.9 * window[1], (box, window)
                # And the light's band is painted across it, a large part of the window.
                await asyncio.sleep(1)  # the terminal fades in
                small = await page.call(
                    "Page.captureScreenshot", format="png",
                    clip={"x": 0, "y": 0, "width": window[0], "height": window[1], "scale": 0.1},
                )  # fmt: skip
                band, across = share_of(base64.b64decode(small["data"]), BRIGHT_BAND)
                assert band >= 0.25 and across >= 0.9, (band, across)
                # A command at the table (here through act) shows on the page.
                burnt = delvetui(home, "act", "crypt", "turn hazard=3")
                assert burnt.returncode == 0, burnt.stderr
                dark = await page.until("Darkness")
                assert drawn_big(dark, "DARK") >= 2
                shot = await page.call("Page.captureScreenshot", format="png")
                picture = base64.b64decode(shot["data"])
                assert picture.startswith(b"\x89PNG")
                out = os.environ.get("DELVETUI_SERVE_SHOT")
                if out:
                    Path(out).write_bytes(picture)
                # ?fontsize=N in the address sets the type instead.
                with urllib.request.urlopen(url + "?fontsize=20", timeout=30) as answer:
                    assert 'data-font-size="20"' in answer.read().decode()
        assert path.exists()
    finally:
        if browser is not None:
            browser.terminate()
            browser.wait(timeout=30)
        shutil.rmtree(profile, ignore_errors=True)
