"""Installed the way Textual apps are installed: the wheel carries everything it needs.

``pipx install .`` and ``uv tool install .`` build the project's wheel and install it into a
virtual environment of its own, far from the checkout. This test does the same by hand: it
builds the wheel, installs it into a fresh virtual environment outside the checkout, and
runs ``delvetui --version``, ``delvetui procedures`` and a headless screenshot of a new
expedition from there, so a procedure, a style sheet or a data file left out of the wheel
fails here and not on a game master's laptop.

The wheel's dependencies (Textual and the rest) are taken from this test run's own
environment through a path file rather than downloaded again: what is under test is the
wheel, and the suite must not depend on the network.
"""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.long


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The project's wheel, built from the checkout without build isolation."""
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "-q",
            "--no-deps",
            "--no-build-isolation",
            "-w",
            str(out),
            str(ROOT),
        ],
        check=True,
        capture_output=True,
    )
    (built,) = out.glob("delvetui-*.whl")
    return built


def test_the_wheel_carries_the_procedures_and_the_styles(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    shipped = {f"delvetui/_procedures/{path.name}" for path in (ROOT / "procedures").glob("*.toml")}
    assert shipped <= names
    assert {"delvetui/ui/delvetui.tcss", "delvetui/ui/players.tcss", "delvetui/py.typed"} <= names


def test_an_installed_delvetui_runs_outside_the_checkout(wheel: Path, tmp_path: Path) -> None:
    environment = tmp_path / "env"
    venv.create(environment, with_pip=False)
    site = Path(
        sysconfig.get_path("purelib", vars={"base": str(environment), "platbase": str(environment)})
    )
    # The dependencies come from this run's environment; delvetui itself from the wheel
    # only (a path file's folder is searched after the environment's own site-packages).
    (site / "dependencies.pth").write_text(sysconfig.get_path("purelib") + "\n")
    python = environment / ("Scripts" if os.name == "nt" else "bin") / "python"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(python),
            "install",
            "-q",
            "--no-deps",
            "--no-index",
            str(wheel),
        ],
        check=True,
        capture_output=True,
    )
    away = tmp_path / "elsewhere"
    away.mkdir()
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
    env["DELVETUI_HOME"] = str(tmp_path / "home")

    command = python.parent / "delvetui"  # the script the wheel's entry point makes

    def delvetui(*args: str) -> str:
        done = subprocess.run(
            [str(command), *args],
            cwd=away,
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 0, done.stderr
        return done.stdout

    where = subprocess.run(
        [str(python), "-c", "import delvetui; print(delvetui.__file__)"],
        cwd=away,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert Path(where.strip()).is_relative_to(site)
    assert delvetui("--version").startswith("delvetui ")
    listed = delvetui("procedures")
    for path in (ROOT / "procedures").glob("*.toml"):
        assert f"{path.stem} " in listed and "(shipped)" in listed
    delvetui("new", "crypt", "--procedure", "delving", "--seed", "3")
    delvetui("act", "crypt", "pc add Ash hp=6")
    picture = tmp_path / "crypt.svg"
    delvetui("open", "crypt", "--screenshot", str(picture), "--size", "80x24")
    assert "Ash" in picture.read_text(encoding="utf-8")
