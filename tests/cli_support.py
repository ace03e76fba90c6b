"""The real ``delvetui`` command line, run in its own process the way a game master starts it.

Every test that runs the CLI as a subprocess goes through ``delvetui`` (text) or
``delvetui_bytes`` (raw bytes, for the tests of what reaches the terminal), so each runs it
the same way: ``python -m delvetui ARGS...`` with its own ``DELVETUI_HOME``, its own
standard streams, folder, environment and exit status. Where the system allows, the process
is forked from a command server that has already imported delvetui (``tests.cli_server``:
the same ``runpy`` start and interpreter exit, without 0.2 s of start-up for each of the
suite's few hundred runs); a run that sets a resource limit or changes how Python starts
(``PYTHON*``, ``LD_*``, the locale) is a fresh interpreter. The tests of start-up itself
(the README's commands, a kill of ``python -m delvetui``, the Windows lock) start their own."""

from __future__ import annotations

import json
import locale
import os
import subprocess
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from tests import cli_server

#: The repository, where ``python -m delvetui`` finds the package even without an install.
PROJECT = Path(__file__).resolve().parent.parent


def command(*args: str) -> list[str]:
    """The argument list that runs ``delvetui ARGS...`` with this interpreter."""
    return [sys.executable, "-m", "delvetui", *args]


def environment(home: Path | None, extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """This process's environment with DELVETUI_HOME set to home (and any extra names)."""
    env = dict(os.environ)
    if home is not None:
        env["DELVETUI_HOME"] = str(home)
    env.update(extra or {})
    return env


def delvetui(
    home: Path | None,
    *args: str,
    stdin: str | None = None,
    cwd: Path | None = None,
    env: Mapping[str, str] | None = None,
    limit: Callable[[], None] | None = None,
    timeout: float = 120,
) -> subprocess.CompletedProcess[str]:
    """Run ``delvetui ARGS...`` with DELVETUI_HOME=home; its output, errors and status.

    ``env`` adds names to the environment, ``limit`` runs in the child before it starts
    (to set a resource limit), ``timeout`` only stops a run that hangs.
    """
    if limit is None and _served(env):
        data = None if stdin is None else stdin.encode()
        served = _run_served(args, environment(home, env), cwd or PROJECT, data, timeout)
        return subprocess.CompletedProcess(
            served.args, served.returncode, _text(served.stdout), _text(served.stderr)
        )
    if limit is not None:
        # A child under a resource limit writes no bytecode: under RLIMIT_FSIZE the write of
        # a module's bytecode comes up short without an error, and the cut file, left in the
        # run's shared bytecode folder, broke every later run of the command line that read
        # that module ("marshal data too short").
        env = {**(env or {}), "PYTHONDONTWRITEBYTECODE": "1"}
    return subprocess.run(
        command(*args),
        input=stdin,
        capture_output=True,
        text=True,
        env=environment(home, env),
        cwd=cwd or PROJECT,
        timeout=timeout,
        preexec_fn=limit,
    )


def _run_served(
    args: Sequence[str], env: Mapping[str, str], cwd: Path, stdin: bytes | None, timeout: float
) -> subprocess.CompletedProcess[bytes]:
    """``python -m delvetui ARGS`` as a child of this worker's command server."""
    status, out, err = cli_server.run(
        args,
        env=env,
        cwd=cwd,
        stdin=stdin,
        timeout=timeout,
        server_env=environment(None),
        project=PROJECT,
    )
    return subprocess.CompletedProcess(command(*args), status, out, err)


def _text(data: bytes) -> str:
    """Bytes read from a child as ``subprocess.run(text=True)`` gives them."""
    return data.decode(locale.getpreferredencoding(False)).replace("\r\n", "\n").replace("\r", "\n")


def _served(extra: Mapping[str, str] | None) -> bool:
    """Whether a run can be a child of the command server (see ``tests.cli_server``)."""
    return cli_server.AVAILABLE and not any(
        name.startswith(("PYTHON", "LC_", "LD_")) or name == "LANG" for name in extra or {}
    )


def delvetui_bytes(
    home: Path, *args: str, stdin: bytes | None = None, timeout: float = 120
) -> subprocess.CompletedProcess[bytes]:
    """``delvetui`` with standard input and output as raw bytes, nothing decoded."""
    if _served(None):
        return _run_served(args, environment(home), PROJECT, stdin, timeout)
    return subprocess.run(
        command(*args),
        input=stdin,
        capture_output=True,
        env=environment(home),
        cwd=PROJECT,
        timeout=timeout,
    )


def made(
    home: Path,
    name: str,
    procedure: str,
    commands: Sequence[str] = (),
    *,
    seed: int | None = None,
    start: str | None = None,
) -> Path:
    """The expedition ``delvetui new NAME --procedure PROCEDURE [--seed] [--start]`` makes,
    with the commands then typed as ``delvetui act NAME -`` takes them, made in this process.

    The same program code as those two runs (``Expedition.create`` as ``new`` calls it, then
    ``execute`` for each command, as ``act`` does), without starting two interpreters: for a
    test that checks what the command line does with an expedition, not how it was made.
    Returns the file's path.
    """
    from delvetui.procedure.registry import find
    from delvetui.session import Expedition

    path = home / f"{name}.delve"
    with Expedition.create(path, find(procedure), name=name, seed=seed, start=start) as made:
        for text in commands:
            made.execute(text)
    return path


def status(home: Path, name: str) -> dict[str, Any]:
    """``delvetui status NAME --json``, which must succeed, as data."""
    result = delvetui(home, "status", name, "--json")
    assert result.returncode == 0, result.stderr
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def played(
    home: Path, name: str, procedure: str, commands: Sequence[str], *, seed: int = 4
) -> tuple[dict[str, Any], str]:
    """A session played through the command line: ``new``, the commands on one ``act -``,
    then what ``status --json`` and the text export say."""
    made = delvetui(home, "new", name, "--procedure", procedure, "--seed", str(seed))
    assert made.returncode == 0, made.stderr
    act = delvetui(home, "act", name, "-", stdin="\n".join(commands) + "\n")
    assert act.returncode == 0, act.stderr
    log = delvetui(home, "export", name, "--format", "txt")
    assert log.returncode == 0, log.stderr
    return status(home, name), log.stdout
