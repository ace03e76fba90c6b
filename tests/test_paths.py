"""Names and paths: nothing is created outside where the game master clearly asked.

The command line is run as a real subprocess, from a folder of the test's own, so that a
path that escapes (``../../x``) would land inside the test's folder, where it is looked for.
"""

from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from delvetui import paths
from delvetui.cli import main
from delvetui.errors import DelveError, ExpeditionExists, ExpeditionNotFound
from delvetui.export import import_file
from delvetui.session import Expedition
from tests.cli_support import delvetui

ROOT = Path(__file__).resolve().parent.parent


def run(
    home: Path, cwd: Path, *args: str, limit: Callable[[], None] | None = None
) -> subprocess.CompletedProcess[str]:
    """The command line started in another folder (cwd), as a user in that folder runs it."""
    return delvetui(home, *args, cwd=cwd, env={"PYTHONPATH": str(ROOT)}, limit=limit)


class Said:
    """What an in-process run of the command line said, and its exit status."""

    def __init__(self, returncode: int, stdout: str, stderr: str) -> None:
        self.returncode, self.stdout, self.stderr = returncode, stdout, stderr


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]) -> Callable[..., Said]:
    """The command line's main() in this process: quick, for the many cases of one point."""

    def call(*args: str) -> Said:
        code = main(list(args))
        out, err = capsys.readouterr()
        return Said(code, out, err)

    return call


def everything(root: Path) -> set[str]:
    """Every file and folder under root, as paths relative to it."""
    return {str(p.relative_to(root)) for p in root.rglob("*")}


def refused(result: subprocess.CompletedProcess[str] | Said, *words: str) -> None:
    assert result.returncode == 2, result.stdout + result.stderr
    assert "Traceback" not in result.stderr
    assert result.stderr.startswith("delvetui: ") and result.stderr.count("\n") == 1
    for word in words:
        assert word in result.stderr


@pytest.fixture
def deep(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A working folder three levels down in the test's folder (and this process's)."""
    folder = tmp_path / "a" / "b" / "c"
    folder.mkdir(parents=True)
    monkeypatch.chdir(folder)
    return folder


# Point 3: new with a / in the name ----------------------------------------------------------


def test_new_with_a_folder_in_the_name_creates_nothing_anywhere(
    home: Path, tmp_path: Path, deep: Path, cli: Callable[..., Said]
) -> None:
    before = everything(tmp_path)
    result = run(home, deep, "new", "../../escape", "--procedure", "delving")
    refused(result, "cannot be an expedition name", "a path ending in .delve")
    for name in (str(tmp_path / "abs" / "path"), "sub/crypt", "..\\x", "/"):
        said = cli("new", name, "--procedure", "delving")
        refused(said, "cannot be an expedition name", "a path ending in .delve")
    assert everything(tmp_path) == before
    assert list(home.iterdir()) == []


def test_a_path_is_taken_when_it_ends_in_delve_or_comes_with_file(
    home: Path, tmp_path: Path, deep: Path, cli: Callable[..., Said]
) -> None:
    made = cli("new", "../here.delve", "--procedure", "delving")
    assert made.returncode == 0, made.stderr
    assert (deep.parent / "here.delve").is_file()
    titled = run(home, deep, "new", "The Crypt", "--file", "crypt.delve", "--procedure", "delving")
    assert titled.returncode == 0, titled.stderr
    shown = cli("status", "crypt.delve", "--json")
    assert json.loads(shown.stdout)["name"] == "The Crypt"
    before = everything(tmp_path)
    refused(cli("new", "x", "--file", "x.sqlite", "--procedure", "delving"), ".delve")
    missing = cli("new", "nowhere/x.delve", "--procedure", "delving")
    refused(missing, "the folder nowhere does not exist")
    assert everything(tmp_path) == before


def test_a_file_name_in_a_path_passes_the_checks_of_a_name(
    home: Path, tmp_path: Path, deep: Path, cli: Callable[..., Said]
) -> None:
    before = everything(tmp_path)
    for name in (
        "clr\x1b[2Jx.delve",
        "\x1b]0;owned\x07.delve",
        ".hidden.delve",
        "\u202eevil.delve",
    ):
        result = cli("new", name, "--procedure", "delving")
        refused(result, "cannot be used")
        assert "\x1b" not in result.stderr and "\u202e" not in result.stderr
    assert everything(tmp_path) == before
    listed = run(home, deep, "list")
    assert listed.returncode == 0 and listed.stdout.startswith("No saved expeditions")


# Point 16: a name that passes "up to 80" then fails "File name too long" -------------------


def test_a_long_name_is_refused_by_its_size_in_bytes_not_by_the_file_system(
    home: Path, deep: Path, cli: Callable[..., Said]
) -> None:
    for name in ("😀" * 61, "語" * 78 + "😀😀", "é" * 81):
        result = cli("new", name, "--procedure", "delving")
        refused(result, "cannot be an expedition name")
        assert "File name too long" not in result.stderr
    assert list(home.iterdir()) == []
    for name in ("😀" * 60, "語" * 80, "x" * 80):
        made = cli("new", name, "--procedure", "delving")
        assert made.returncode == 0, made.stderr
        played = cli("act", name, "note", "the name fits")
        assert played.returncode == 0, played.stderr
        exported = cli("export", name, "--format", "json", "-o", f"{name}.json")
        assert exported.returncode == 0, exported.stderr
        copied = cli("import", f"{name}.json", name[:-1] + "!")
        assert copied.returncode == 0, copied.stderr


# Point 16: a dangling symbolic link is reported the same way everywhere ------------------


def test_a_dangling_link_is_named_as_such_by_status_new_and_act(
    home: Path, deep: Path, cli: Callable[..., Said]
) -> None:
    (home / "ghost.delve").symlink_to(home / "gone.delve")
    said = "ghost.delve is a symbolic link to"
    refused(run(home, deep, "status", "ghost"), said, "which does not exist")
    refused(cli("act", "ghost", "turn"), said, "which does not exist")
    refused(cli("new", "ghost", "--procedure", "delving"), said, "does not exist")
    listed = cli("list")
    assert listed.returncode == 0 and "ghost: cannot be opened" in listed.stdout
    assert said in listed.stdout
    assert not (home / "gone.delve").exists()


def test_the_paths_module_reports_a_dangling_link_alike(home: Path) -> None:
    (home / "ghost.delve").symlink_to(home / "gone.delve")
    with pytest.raises(ExpeditionNotFound, match="symbolic link") as found:
        paths.find_expedition("ghost")
    with pytest.raises(ExpeditionExists, match="symbolic link") as made:
        paths.new_expedition_path("ghost")
    assert str(found.value).split(";")[0] == str(made.value).split(";")[0]


# Point 2: import names the expedition itself ------------------------------------------------


@pytest.fixture
def document(tmp_path: Path, deep: Path, cli: Callable[..., Said]) -> Path:
    assert cli("new", "crypt", "--procedure", "delving").returncode == 0
    assert cli("act", "crypt", "pc", "add", "Ash", "hp=6").returncode == 0
    out = tmp_path / "crypt.json"
    assert cli("export", "crypt", "-o", str(out)).returncode == 0
    return out


@pytest.mark.parametrize("inside", ["{tmp}/x/evil.delve", "../../x", "a/b/.hidden", ".hidden"])
def test_the_name_inside_an_import_never_chooses_where_it_goes(
    inside: str,
    document: Path,
    home: Path,
    tmp_path: Path,
    deep: Path,
    cli: Callable[..., Said],
) -> None:
    data = json.loads(document.read_text(encoding="utf-8"))
    data["meta"]["name"] = inside.format(tmp=tmp_path)
    document.write_text(json.dumps(data), encoding="utf-8")
    before, before_home = everything(tmp_path), everything(home)
    result = run(home, deep, "import", str(document))
    refused(result, "Give the imported expedition a name", "Nothing was imported")
    assert everything(tmp_path) == before and everything(home) == before_home
    named = cli("import", str(document), "copy")
    assert named.returncode == 0, named.stderr
    assert named.stdout.strip() == str(home / "copy.delve")
    assert everything(tmp_path) == before and everything(home) - before_home == {"copy.delve"}


def test_the_name_given_to_an_import_is_a_plain_name_in_the_data_folder(
    document: Path, home: Path, tmp_path: Path, deep: Path
) -> None:
    before = everything(tmp_path)
    for name in ("../../x", str(tmp_path / "y.delve"), "z.delve", "a/b"):
        with pytest.raises(DelveError, match=r"plain name|not a path"):
            import_file(document, name)
    assert everything(tmp_path) == before


# Point 10: only regular files are opened, and every read is bounded ------------------------


def test_devices_and_fifos_are_refused_without_reading_or_waiting(
    home: Path, tmp_path: Path, deep: Path, cli: Callable[..., Said]
) -> None:
    fifo = deep / "x.delve"
    os.mkfifo(fifo)
    refused(run(home, deep, "status", "x.delve"), "is not a file but a FIFO")
    refused(cli("act", "x.delve", "turn"), "is not a file but a FIFO")
    os.mkfifo(deep / "fifo.json")
    refused(cli("import", "fifo.json"), "is not a file but a FIFO", "Nothing was created")
    for device in ("/dev/zero", "/dev/urandom"):
        refused(cli("import", device), "is not a file but a device", "Nothing was created")
    assert list(home.iterdir()) == []


# Point 16: a disk-full message names the file, not its temporary --------------------------


def test_a_disk_full_import_names_the_expedition_not_a_temporary_file(
    document: Path, home: Path, deep: Path
) -> None:
    def small_disk() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (6000, 6000))

    with Expedition.open(home / "crypt.delve") as crypt:
        for number in range(30):
            crypt.execute(f"note {number} " + "x" * 900)
    document.unlink()
    assert main(["export", "crypt", "-o", str(document)]) == 0
    before = sorted(p.name for p in home.iterdir())
    result = run(home, deep, "import", str(document), "copy", limit=small_disk)
    refused(result, str(home / "copy.delve"), "nothing")
    assert ".delvetui-" not in result.stderr and ".importing" not in result.stderr
    assert ".creating" not in result.stderr
    assert sorted(p.name for p in home.iterdir()) == before


# Point 9: a data folder that cannot be made or read ---------------------------------------


@pytest.mark.parametrize("where", ["under a file", "too long", "a file"])
def test_an_unusable_data_folder_gets_a_sentence_never_a_traceback(
    where: str,
    tmp_path: Path,
    deep: Path,
    cli: Callable[..., Said],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    home = {
        "under a file": blocker / "sub",
        "too long": tmp_path / ("x" * 300),
        "a file": blocker,
    }[where]
    made = run(home, deep, "new", "crypt", "--procedure", "delving")
    refused(made, str(home.name))
    monkeypatch.setenv("DELVETUI_HOME", str(home))
    export = tmp_path / "some.json"
    export.write_text("{}")
    for args in (
        ("status", "crypt"),
        ("act", "crypt", "turn"),
        ("list",),
        ("import", str(export), "crypt"),
    ):
        result = cli(*args)
        assert result.returncode == 2, (args, result.stdout, result.stderr)
        assert "No saved expeditions" not in result.stdout
    listed = cli("list")
    refused(listed, str(home), "data folder")
    procedures = cli("procedures")
    assert procedures.returncode == (2 if where == "too long" else 0)


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads a folder whatever its permissions")
def test_list_says_when_the_data_folder_cannot_be_read(home: Path, deep: Path) -> None:
    assert run(home, deep, "new", "crypt", "--procedure", "delving").returncode == 0
    home.chmod(0)
    try:
        listed = run(home, deep, "list")
    finally:
        home.chmod(0o755)
    refused(listed, "cannot be read")
    assert "No saved expeditions" not in listed.stdout


def test_list_says_when_the_data_folder_cannot_be_read_even_as_root(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (home / "crypt.delve").write_bytes(b"")

    def denied(path: object) -> None:
        raise PermissionError(13, "Permission denied", str(path))

    monkeypatch.setattr(os, "scandir", denied)
    with pytest.raises(DelveError, match=r"data folder .* cannot be read \(Permission denied\)"):
        paths.saved_expeditions()
