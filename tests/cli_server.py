"""``python -m delvetui`` in a new process, started from an interpreter that has imported it.

Most of the time of a command-line run is the interpreter starting and importing delvetui
(about 0.2 s of processor each), and the suite makes a few hundred of them. A test worker
starts one *command server* for its runs: a plain ``python`` (not the test process: no
pytest, no test's changes, no threads) that imports delvetui once and then, for each run,
forks a child. The child takes the run's standard input, output and error, its folder and
its whole environment, and runs ``delvetui`` the way ``python -m delvetui`` does
(``runpy``, with ``sys.argv`` set), exits as the interpreter would (``SystemExit``'s code,
a traceback and 1 for an uncaught exception, ``atexit`` functions, then the flushed streams)
and the test gets its output, errors and status as from ``subprocess.run``. Each run starts
from the same state, the server's, which no run changes.

Runs a fresh interpreter must make are not sent here (``cli_support.delvetui`` decides):
those that set a resource limit or change what Python reads at start-up (``PYTHON*``,
``LD_*``, the locale). Where the system has no ``fork`` (or no Unix sockets with
message boundaries), every run is a fresh interpreter.
"""

from __future__ import annotations

import atexit
import contextlib
import errno
import json
import os
import selectors
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

#: Whether this system can serve runs by fork (Linux: fork, and Unix sockets that keep
#: message boundaries and carry file descriptors).
AVAILABLE = sys.platform == "linux" and hasattr(os, "fork") and hasattr(socket, "send_fds")
#: The largest request (arguments, environment, folder) a run sends the server.
_MESSAGE = 1 << 20


def serve(address: str) -> None:  # pragma: no cover - runs in the server process
    """The server's loop: accept a run, fork its child, report the child's status.

    Ends when its standard input closes (the test worker that started it has gone).
    """
    prime()
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    listener.bind(address)
    listener.listen(16)
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_r, False)
    os.set_blocking(wake_w, False)
    signal.set_wakeup_fd(wake_w)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    waiting: dict[int, socket.socket] = {}
    selector = selectors.DefaultSelector()
    selector.register(listener, selectors.EVENT_READ, "run")
    selector.register(wake_r, selectors.EVENT_READ, "child")
    selector.register(sys.stdin.fileno(), selectors.EVENT_READ, "worker")
    print("ready", flush=True)
    while True:
        for key, _ in selector.select():
            if key.data == "worker":
                if not os.read(sys.stdin.fileno(), 4096):
                    for pid in waiting:
                        with contextlib.suppress(ProcessLookupError):
                            os.kill(pid, signal.SIGKILL)
                    return
            elif key.data == "run":
                connection, _ = listener.accept()
                message, fds, _, _ = socket.recv_fds(connection, _MESSAGE, 3)
                request = json.loads(message)
                sys.stdout.flush()
                sys.stderr.flush()
                pid = os.fork()
                if pid == 0:
                    _child(fds, request)
                for fd in fds:
                    os.close(fd)
                connection.send(str(pid).encode())
                waiting[pid] = connection
            else:
                with contextlib.suppress(BlockingIOError):
                    while os.read(wake_r, 4096):
                        pass
            _reap(waiting)


def _reap(waiting: dict[int, socket.socket]) -> None:  # pragma: no cover - in the server
    for pid in list(waiting):
        done, raw = os.waitpid(pid, os.WNOHANG)
        if done:
            connection = waiting.pop(pid)
            with contextlib.suppress(OSError):
                connection.send(str(os.waitstatus_to_exitcode(raw)).encode())
            connection.close()


def prime() -> None:
    """Import what the commands import, so a forked child starts with it all in place."""
    import delvetui.cli

    delvetui.cli._import_core()
    import delvetui.application.files
    import delvetui.core.log
    import delvetui.core.odds
    import delvetui.export.html
    import delvetui.export.importing
    import delvetui.export.json_format
    import delvetui.export.markdown
    import delvetui.export.picture


def _child(fds: list[int], request: dict[str, object]) -> None:  # pragma: no cover
    """In the forked child: become ``python -m delvetui ARGS`` and exit as it would."""
    code = 1
    try:
        for target, fd in enumerate(fds):
            os.dup2(fd, target)
        os.closerange(3, 65536)
        signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        os.chdir(str(request["cwd"]))
        env = request["env"]
        assert isinstance(env, dict)
        os.environ.clear()
        os.environ.update(env)
        args = request["args"]
        assert isinstance(args, list)
        code = _run_as_main([str(arg) for arg in args])
    finally:
        os._exit(code)


def _run_as_main(args: list[str]) -> int:  # pragma: no cover - runs in the child
    """``python -m delvetui ARGS``, from ``runpy`` to the interpreter's exit."""
    import runpy

    sys.argv = ["-m", *args]
    try:
        runpy.run_module("delvetui", run_name="__main__", alter_sys=True)
        code = 0
    except SystemExit as exit:
        code = _exit_code(exit.code)
    except BaseException:
        sys.excepthook(*sys.exc_info())
        code = 1
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            code = 120  # as the interpreter exits when it cannot flush its output
    return code


def _exit_code(value: object) -> int:  # pragma: no cover - runs in the child
    """The status ``SystemExit(value)`` gives, as the interpreter makes it."""
    if value is None:
        return 0
    if isinstance(value, int):
        return value & 0xFF
    print(value, file=sys.stderr)
    return 1


class Server:
    """One worker's command server: started at the first run, stopped when the worker ends."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._process: subprocess.Popen[bytes] | None = None
        self._folder: str | None = None
        atexit.register(self.stop)

    def address(self, env: Mapping[str, str], project: Path) -> str:
        with self._lock:
            if self._process is None or self._process.poll() is not None:
                self._folder = tempfile.mkdtemp(prefix="delvetui-cli-server-")
                address = os.path.join(self._folder, "socket")
                self._process = subprocess.Popen(
                    [
                        sys.executable,
                        "-c",
                        "import sys; from tests.cli_server import serve; serve(sys.argv[1])",
                        address,
                    ],
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    cwd=project,
                    env=dict(env),
                )
                assert self._process.stdout is not None
                assert self._process.stdout.readline() == b"ready\n", "the server did not start"
            assert self._folder is not None
            return os.path.join(self._folder, "socket")

    def stop(self) -> None:
        with self._lock:
            if self._process is not None:
                assert self._process.stdin is not None
                self._process.stdin.close()
                self._process.wait(30)
                self._process = None
            if self._folder is not None:
                shutil.rmtree(self._folder, ignore_errors=True)
                self._folder = None


SERVER = Server()


def run(
    args: Sequence[str],
    *,
    env: Mapping[str, str],
    cwd: Path,
    stdin: bytes | None,
    timeout: float,
    server_env: Mapping[str, str],
    project: Path,
) -> tuple[int, bytes, bytes]:
    """``python -m delvetui ARGS`` in a child of the server: its status, output and errors.

    ``env`` is the run's whole environment; ``server_env`` the one the server starts with
    (the test process's own: nothing a test adds for one run, such as a preloaded library).
    """
    address = SERVER.address(server_env, project)
    in_r, in_w = os.pipe()
    out_r, out_w = os.pipe()
    err_r, err_w = os.pipe()
    connection = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    try:
        connection.connect(address)
        request = {"args": list(args), "env": dict(env), "cwd": str(cwd)}
        socket.send_fds(connection, [json.dumps(request).encode()], [in_r, out_w, err_w])
    finally:
        for fd in (in_r, out_w, err_w):
            os.close(fd)
    pid = int(connection.recv(64))
    return _talk(pid, connection, in_w, out_r, err_r, stdin or b"", args, timeout)


def _talk(
    pid: int,
    connection: socket.socket,
    in_w: int,
    out_r: int,
    err_r: int,
    data: bytes,
    args: Sequence[str],
    timeout: float,
) -> tuple[int, bytes, bytes]:
    """Feed the child its input and read its output until it has ended (or time is up)."""
    output = {out_r: bytearray(), err_r: bytearray()}
    status: int | None = None
    deadline = time.monotonic() + timeout
    with selectors.DefaultSelector() as selector:
        if data:
            os.set_blocking(in_w, False)
            selector.register(in_w, selectors.EVENT_WRITE)
        else:
            os.close(in_w)
        for fd in output:
            selector.register(fd, selectors.EVENT_READ)
        selector.register(connection, selectors.EVENT_READ)
        view = memoryview(data)
        while selector.get_map():
            left = deadline - time.monotonic()
            if left <= 0:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
                for key in list(selector.get_map().values()):
                    selector.unregister(key.fileobj)
                    if key.fileobj is connection:
                        connection.close()
                    else:
                        os.close(key.fd)
                raise subprocess.TimeoutExpired(["delvetui", *args], timeout)
            for key, _ in selector.select(left):
                fd = key.fd
                if fd == in_w:
                    try:
                        view = view[os.write(in_w, view[:65536]) :]
                    except OSError as error:
                        if error.errno != errno.EPIPE:
                            raise
                        view = view[:0]
                    if not view:
                        selector.unregister(in_w)
                        os.close(in_w)
                elif key.fileobj is connection:
                    selector.unregister(connection)
                    status = int(connection.recv(64))
                    connection.close()
                else:
                    chunk = os.read(fd, 65536)
                    if chunk:
                        output[fd] += chunk
                    else:
                        selector.unregister(fd)
                        os.close(fd)
    assert status is not None
    return status, bytes(output[out_r]), bytes(output[err_r])
