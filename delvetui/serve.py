"""The players' screen in a browser: ``delvetui serve NAME`` for a laptop on the table's TV.

textual-serve runs ``delvetui players NAME`` for each page that opens and streams it to the
browser. It listens on the loopback address only: the page is for the screen attached to
this computer, never for the network.
"""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

from delvetui.errors import DelveError

#: The only address served: this computer's loopback.
HOST = "127.0.0.1"
DEFAULT_PORT = 8000


def players_command(path: Path) -> str:
    """The shell command that runs the players' screen on this expedition."""
    return shlex.join([sys.executable, "-m", "delvetui", "players", str(path.resolve())])


def check_port(port: int) -> int:
    """The port, or a DelveError saying which ports can be used."""
    if not 1024 <= port <= 65535:
        raise DelveError(
            f"Port {port} cannot be served; give a port from 1024 to 65535, e.g. --port 8000."
        )
    return port


def serve(path: Path, port: int = DEFAULT_PORT) -> None:
    """Serve the players' screen on http://127.0.0.1:PORT until Ctrl+C."""
    from textual_serve.server import Server

    check_port(port)
    server = Server(
        players_command(path),
        host=HOST,
        port=port,
        title=f"{path.stem} — the players' screen",
    )
    print(f"The players' screen of {path.stem}: open http://{HOST}:{port} (Ctrl+C stops).")
    server.serve()
