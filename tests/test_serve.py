"""`delvetui serve`: the players' screen in a real browser (headless Chromium) on localhost.

The browser is driven over the DevTools protocol. Before the page loads, a small script
keeps a copy of what the page's terminal receives over its WebSocket, so the test reads
the words the page draws (the terminal itself paints on a canvas). Skipped, with the
reason, where no Chromium is installed (Debian's `chromium` package).
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import re
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.request
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from tests.cli_support import command, delvetui
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

    async def text(self) -> str:
        found = await self.call("Runtime.evaluate", expression="window.__received || ''")
        raw = str(found.get("result", {}).get("value", ""))
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


@pytest.mark.long
@pytest.mark.skipif(CHROMIUM is None, reason="no Chromium installed (Debian package: chromium)")
async def test_a_browser_shows_the_players_screen_and_follows_the_table(home: Path) -> None:
    assert CHROMIUM is not None
    path = make("crypt")
    port, debug_port = free_port(), free_port()
    env = {**os.environ, "DELVETUI_HOME": str(home)}
    server = subprocess.Popen(
        command("serve", "crypt", "--port", str(port)),
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    profile = tempfile.mkdtemp(prefix="delvetui-chromium-")
    browser = None
    try:
        url = f"http://127.0.0.1:{port}/"
        wait_for_http(url)
        browser = subprocess.Popen(
            [
                CHROMIUM, "--headless=new", "--no-sandbox", "--disable-gpu",
                "--no-first-run", f"--user-data-dir={profile}",
                f"--remote-debugging-port={debug_port}", "--window-size=1100,800",
                "about:blank",
            ],
            # Chromium's own scratch folders (org.chromium.Chromium.*) go in the profile,
            # which is removed, not in the system's temporary folder.
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
            # A command at the table (here through act) shows on the page.
            burnt = delvetui(home, "act", "crypt", "turn hazard=3")
            assert burnt.returncode == 0, burnt.stderr
            await page.until("Darkness")
            shot = await page.call("Page.captureScreenshot", format="png")
            picture = base64.b64decode(shot["data"])
            assert picture.startswith(b"\x89PNG")
            out = os.environ.get("DELVETUI_SERVE_SHOT")
            if out:
                Path(out).write_bytes(picture)
        assert path.exists()
    finally:
        if browser is not None:
            browser.terminate()
            browser.wait(timeout=30)
        server.terminate()
        server.wait(timeout=30)
        shutil.rmtree(profile, ignore_errors=True)


def test_serve_takes_only_usable_ports(home: Path) -> None:
    make("crypt")
    refused = delvetui(home, "serve", "crypt", "--port", "80")
    assert refused.returncode == 2
    assert "1024 to 65535" in refused.stderr
