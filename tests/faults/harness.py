"""Shared machinery of the reliability tests (tests/test_reliability_*.py).

- ``scaled``: how many times to try each fault. ``DELVETUI_RELIABILITY_ROUNDS`` sets the number
  of SIGKILLs of the kill test (240 in CI); every other count grows in proportion.
- ``fork_act``: a ``delvetui act EXPEDITION -`` child forked from this (already imported)
  interpreter, so hundreds of them start in milliseconds. The child runs the real command line
  (``delvetui.cli.main``) with its standard input, output and error on pipes and a file.
- ``popen_act``: the same through a fresh ``python -m delvetui``, the way a user starts it.
- ``Mirror``: a second expedition, on a RAM disk where there is one, that takes the same commands
  in-process: what the child's state must have been.
- ``build_shim``: compiles tests/faults/faultshim.c (LD_PRELOAD fault injection) once per run.
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import hashlib
import io
import os
import random
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

import attrs
import pytest

from delvetui.core import events as ev
from delvetui.procedure.model import Procedure
from delvetui.session import Expedition
from tests.cli_server import prime

PROJECT = Path(__file__).resolve().parents[2]
SHIM_SOURCE = Path(__file__).with_name("faultshim.c")

#: SIGKILLs of the kill test in one CI run; DELVETUI_RELIABILITY_ROUNDS overrides it and every
#: other count of the reliability tests scales with it.
DEFAULT_ROUNDS = 240

#: The tests that fork children or SIGKILL them run where the system can (not on Windows).
needs_fork = pytest.mark.skipif(
    not hasattr(os, "fork") or not hasattr(signal, "SIGKILL"),
    reason="forking and SIGKILL are POSIX only",
)


def rounds() -> int:
    """The number of kill rounds asked for (DELVETUI_RELIABILITY_ROUNDS, default 240)."""
    text = os.environ.get("DELVETUI_RELIABILITY_ROUNDS", "")
    return max(1, int(text)) if text.strip() else DEFAULT_ROUNDS


def scaled(count: int) -> int:
    """``count`` (the CI number of tries) scaled by DELVETUI_RELIABILITY_ROUNDS / 240."""
    return max(1, round(count * rounds() / DEFAULT_ROUNDS))


def seed() -> int:
    """The random seed of this run: DELVETUI_RELIABILITY_SEED, or a fresh one (it is printed)."""
    text = os.environ.get("DELVETUI_RELIABILITY_SEED", "")
    value = int(text) if text.strip() else random.randrange(2**32)
    print(f"reliability seed: DELVETUI_RELIABILITY_SEED={value}")
    return value


def fingerprint(path: Path) -> tuple[str, list[str]]:
    """The file's hash and its folder's listing: both unchanged after a refused open."""
    return hashlib.sha256(path.read_bytes()).hexdigest(), sorted(os.listdir(path.parent))


@contextmanager
def fast_folder(fallback: Path) -> Iterator[Path]:
    """A scratch folder on /dev/shm (RAM) when there is one, else under ``fallback``."""
    shm = Path("/dev/shm")
    parent = shm if shm.is_dir() and os.access(shm, os.W_OK) else fallback
    folder = Path(tempfile.mkdtemp(prefix="delvetui-rel-", dir=parent))
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


# -- children running `delvetui act EXPEDITION -` ------------------------------------------------


@attrs.define
class Child:
    """A running ``delvetui act X -``: write commands to ``stdin``, read ``ok N ...`` lines."""

    pid: int
    stdin: int
    stdout: int
    stderr: int
    popen: subprocess.Popen[bytes] | None = None
    status: int | None = None
    _buffer: bytes = b""
    _lines: list[str] = attrs.field(factory=list)

    def send(self, lines: Iterable[str]) -> None:
        """Write command lines (the pipe holds far more than a test sends at once).

        A child that has already ended (a second writer refused the lock at once) reads
        nothing more: the lines are dropped, and its exit status and what it said tell the
        test the rest."""
        data = "".join(f"{line}\n" for line in lines).encode()
        view = memoryview(data)
        with contextlib.suppress(BrokenPipeError):
            while view:
                view = view[os.write(self.stdin, view) :]

    def read_line(self, timeout: float = 30.0) -> str | None:
        """The next line the child printed, or None at the end of its output or on timeout."""
        deadline = time.monotonic() + timeout
        while b"\n" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            ready, _, _ = select.select([self.stdout], [], [], left)
            if not ready:
                return None
            chunk = os.read(self.stdout, 65536)
            if not chunk:
                return None
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        self._lines.append(line.decode())
        return self._lines[-1]

    def kill(self) -> None:
        """SIGKILL: the crash no program can catch or clean up after."""
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.pid, signal.SIGKILL)

    def close_stdin(self) -> None:
        """End of input: the child finishes the commands it has and exits."""
        if self.stdin >= 0:
            os.close(self.stdin)
            self.stdin = -1

    def poll(self) -> int | None:
        """The child's status if it has ended, else None."""
        if self.status is None:
            if self.popen is not None:
                self.status = self.popen.poll()
            else:
                pid, raw = os.waitpid(self.pid, os.WNOHANG)
                if pid:
                    self.status = os.waitstatus_to_exitcode(raw)
        return self.status

    def wait(self, timeout: float = 60.0) -> int:
        """Wait for the child to end; its status as subprocess gives it (-9 when killed)."""
        if self.status is not None:
            return self.status
        if self.popen is not None:
            try:
                self.status = self.popen.wait(timeout)
            except subprocess.TimeoutExpired:
                self.kill()
                self.status = self.popen.wait()
                raise
            return self.status
        deadline = time.monotonic() + timeout
        while True:
            pid, raw = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.status = os.waitstatus_to_exitcode(raw)
                return self.status
            if time.monotonic() > deadline:
                self.kill()
                _, raw = os.waitpid(self.pid, 0)
                self.status = os.waitstatus_to_exitcode(raw)
                raise TimeoutError(f"child {self.pid} did not end within {timeout} s")
            time.sleep(0.001)

    def finish(self) -> tuple[list[str], str]:
        """Once the child has ended: every line it printed, and what it wrote on stderr."""
        self.close_stdin()
        if self.stdout >= 0:
            while chunk := os.read(self.stdout, 65536):
                self._buffer += chunk
            os.close(self.stdout)
            self.stdout = -1
        lines = [*self._lines, *self._buffer.decode(errors="replace").splitlines()]
        self._lines, self._buffer = [], b""
        errors = b""
        if self.stderr >= 0:
            while chunk := os.read(self.stderr, 65536):
                errors += chunk
            os.close(self.stderr)
            self.stderr = -1
        return lines, errors.decode(errors="replace")


def fork_act(home: Path, target: str, *, file_size_limit: int | None = None) -> Child:
    """Fork this interpreter into ``delvetui act TARGET -`` (the real ``cli.main``).

    See ``fork_cli``.
    """
    return fork_cli(home, ["act", target, "-"], file_size_limit=file_size_limit)


def fork_cli(home: Path, argv: Sequence[str], *, file_size_limit: int | None = None) -> Child:
    """Fork this interpreter into ``delvetui ARGV...`` (the real ``cli.main``).

    ``file_size_limit`` sets RLIMIT_FSIZE in the child (with SIGXFSZ ignored), so every write
    past that many bytes fails with EFBIG: a disk that is full at byte N. Standard error is a
    pipe too (a file would be size-limited as well); it holds what a dying child has to say.
    """
    prime()  # once: each child would import the modules its command uses
    in_r, in_w = os.pipe()
    out_r, out_w = os.pipe()
    err_r, err_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - runs in the child
        code = 70
        try:
            os.dup2(in_r, 0)
            os.dup2(out_w, 1)
            os.dup2(err_fd, 2)
            # Drop every other descriptor: no other child's pipe or lock stays open through us.
            os.closerange(3, 65536)
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            signal.signal(signal.SIGPIPE, signal.SIG_DFL)
            if file_size_limit is not None:
                import resource  # POSIX only, like fork itself

                signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
                resource.setrlimit(resource.RLIMIT_FSIZE, (file_size_limit, file_size_limit))
            os.environ["DELVETUI_HOME"] = str(home)
            sys.stdin = io.TextIOWrapper(io.FileIO(0, "r", closefd=False), encoding="utf-8")
            sys.stdout = io.TextIOWrapper(
                io.FileIO(1, "w", closefd=False), encoding="utf-8", line_buffering=True
            )
            sys.stderr = io.TextIOWrapper(
                io.FileIO(2, "w", closefd=False), encoding="utf-8", line_buffering=True
            )
            from delvetui import cli

            code = cli.main(list(argv))
            sys.stdout.flush()
            sys.stderr.flush()
        except BaseException:
            with contextlib.suppress(BaseException):
                os.write(2, traceback.format_exc().encode())
        finally:
            os._exit(code)
    os.close(in_r)
    os.close(out_w)
    os.close(err_fd)
    return Child(pid=pid, stdin=in_w, stdout=out_r, stderr=err_r)


def popen_act(home: Path, target: str, *, env: dict[str, str] | None = None) -> Child:
    """``python -m delvetui act TARGET -`` as a fresh process, exactly as a user starts it."""
    process = subprocess.Popen(
        [sys.executable, "-m", "delvetui", "act", target, "-"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "DELVETUI_HOME": str(home), **(env or {})},
        cwd=PROJECT,
    )
    assert process.stdin and process.stdout and process.stderr
    child = Child(
        pid=process.pid,
        stdin=os.dup(process.stdin.fileno()),
        stdout=os.dup(process.stdout.fileno()),
        stderr=os.dup(process.stderr.fileno()),
        popen=process,
    )
    for stream in (process.stdin, process.stdout, process.stderr):
        stream.close()
    return child


def parse_acks(lines: Sequence[str]) -> list[tuple[int, str]]:
    """The ``ok N COMMAND`` lines as (N, COMMAND); anything else is a test failure."""
    acks: list[tuple[int, str]] = []
    for line in lines:
        head, _, text = line.partition(" ")
        number, _, command = text.partition(" ")
        assert head == "ok" and number.isdigit(), f"not an acknowledgement: {line!r}"
        acks.append((int(number), command))
    return acks


# -- what the state must be ------------------------------------------------------------------------


class Mirror:
    """The same expedition played in-process: the state a child had after the same commands."""

    def __init__(self, folder: Path, name: str, procedure: Procedure, seed: int) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.expedition = Expedition.create(folder / f"{name}.delve", procedure, seed=seed)

    def play(self, commands: Iterable[str]) -> None:
        for command in commands:
            self.expedition.execute(command)

    def events(self, after: int) -> list[tuple[str, tuple[ev.Event, ...]]]:
        return [(b.command, b.events) for b in self.expedition.batches(after=after)]

    def close(self) -> None:
        self.expedition.close()


# -- the LD_PRELOAD shim ---------------------------------------------------------------------------


@functools.cache
def build_shim() -> Path | None:
    """Compile the fault-injection shim once; None when there is no C compiler."""
    if not sys.platform.startswith("linux"):
        return None  # an LD_PRELOAD library for Linux's C library
    compiler = shutil.which(os.environ.get("CC", "cc")) or shutil.which("gcc")
    if compiler is None:
        return None
    folder = Path(tempfile.mkdtemp(prefix="delvetui-shim-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    target = folder / "faultshim.so"
    subprocess.run(
        [compiler, "-shared", "-fPIC", "-O2", "-o", str(target), str(SHIM_SOURCE), "-ldl"],
        check=True,
        capture_output=True,
    )
    return target
