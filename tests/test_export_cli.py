"""`delvetui export` and `delvetui import`, run as real subprocesses as scripts use them."""

from __future__ import annotations

import json
import os
import shutil
import stat
from pathlib import Path

import pytest

from delvetui.cli import main
from delvetui.export import export
from delvetui.procedure.registry import find
from delvetui.session import Expedition
from tests.cli_support import delvetui, made, status


def played(home: Path) -> None:
    """``delvetui new crypt --procedure delving --seed 7``, then a session on ``act crypt -``
    (made in this process: the tests here are of export and import)."""
    commands = ["pc add Ash hp=6", "session start", "turn hazard=5", "note <b>door</b>", "turn"]
    made(home, "crypt", "delving", [*commands, "session end"], seed=7)


def test_export_prints_or_writes_each_format(home: Path, tmp_path: Path) -> None:
    played(home)
    printed = delvetui(home, "export", "crypt", "--format", "md")
    assert printed.returncode == 0, printed.stderr
    assert printed.stdout.startswith("# crypt\n") and "## Session 1 · " in printed.stdout
    assert "\\<b\\>door\\</b\\>" in printed.stdout
    target = tmp_path / "session-1.html"
    written = delvetui(home, "export", "crypt", "--session", "1", "-o", str(target))
    assert written.returncode == 0, written.stderr
    assert written.stdout.strip() == str(target)
    page = target.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and "&lt;b&gt;door&lt;/b&gt;" in page
    text = delvetui(home, "export", "crypt", "--format", "txt", "-o", str(tmp_path / "x.md"))
    assert (tmp_path / "x.md").read_text().startswith("crypt\n#####\n"), text.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["session-1.html", "x.md"]


def test_export_json_then_import_brings_the_same_expedition(home: Path, tmp_path: Path) -> None:
    played(home)
    document = tmp_path / "crypt.json"
    assert delvetui(home, "export", "crypt", "-o", str(document)).returncode == 0
    data = json.loads(document.read_text(encoding="utf-8"))
    assert data["format"] == "delvetui-expedition" and data["format_version"] == 1
    imported = delvetui(home, "import", str(document), "copy")
    assert imported.returncode == 0, imported.stderr
    assert imported.stdout.strip() == str(home / "copy.delve")
    assert status(home, "copy") == status(home, "crypt")


def test_refusals_exit_2_with_a_sentence(home: Path, tmp_path: Path) -> None:
    played(home)
    document = tmp_path / "crypt.json"
    with Expedition.open(home / "crypt.delve", write=False) as crypt:  # as `export -o` writes
        document.write_text(export(crypt, "json"), encoding="utf-8")
    again = delvetui(home, "import", str(document))
    assert again.returncode == 2
    assert "An expedition 'crypt' already exists" in again.stderr
    document.write_text(document.read_text()[:500])
    cut = delvetui(home, "import", str(document), "copy")
    assert cut.returncode == 2 and "it looks cut off" in cut.stderr
    assert "Nothing was created." in cut.stderr and not (home / "copy.delve").exists()
    session = delvetui(home, "export", "crypt", "--format", "json", "--session", "1")
    assert session.returncode == 2 and "whole expedition" in session.stderr
    missing = delvetui(home, "export", "crypt", "--session", "4")
    assert missing.returncode == 2 and "There is no session 4" in missing.stderr
    nowhere = delvetui(home, "export", "crypt", "-o", str(tmp_path / "no" / "x.md"))
    assert nowhere.returncode == 2 and "nothing was written" in nowhere.stderr


def test_export_and_import_explain_themselves(home: Path) -> None:
    for sub in ("export", "import"):
        result = delvetui(home, sub, "--help")
        assert result.returncode == 0
        assert "\nexample" in result.stdout and f"delvetui {sub} " in result.stdout


# export -o never destroys: a new file, or one replaced only with --force ---------------------


def played_here(home: Path) -> None:
    """The same expedition as played(), made in this process (quicker)."""
    with Expedition.create(home / "crypt.delve", find("delving"), seed=7) as crypt:
        for command in ("pc add Ash hp=6", "session start", "turn hazard=5", "turn"):
            crypt.execute(command)


def export_to(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """``delvetui export crypt ARGS`` in this process (quick, for the many cases)."""
    code = main(["export", "crypt", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_export_never_replaces_the_expedition_itself(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    played_here(home)
    before = (home / "crypt.delve").read_bytes()
    result = delvetui(home, "export", "crypt", "-o", str(home / "crypt.delve"), "--force")
    assert result.returncode == 2 and "is an expedition file" in result.stderr
    assert "Traceback" not in result.stderr
    code, _, err = export_to(capsys, "-o", str(home / "crypt.delve"))
    assert code == 2 and "is an expedition file" in err
    assert (home / "crypt.delve").read_bytes() == before
    with Expedition.open(home / "crypt.delve", write=False) as crypt:
        assert crypt.state.turn == 2


def test_export_refuses_an_existing_file_unless_forced_and_keeps_its_permissions(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    played_here(home)
    target = tmp_path / "log.md"
    target.write_text("the players' handout")
    target.chmod(0o600)
    code, _, err = export_to(capsys, "-o", str(target))
    assert code == 2 and "already exists; add --force to replace it" in err
    assert target.read_text() == "the players' handout"
    code, out, _ = export_to(capsys, "-o", str(target), "--force")
    assert code == 0 and out == f"{target}\n"
    assert target.read_text().startswith("# crypt\n")
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    assert sorted(p.name for p in tmp_path.iterdir()) == ["log.md"]


def test_export_never_replaces_a_folder_fifo_device_or_another_database(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    played_here(home)
    folder = tmp_path / "folder.md"
    folder.mkdir()
    fifo = tmp_path / "pipe.md"
    os.mkfifo(fifo)
    database = tmp_path / "backup.md"
    shutil.copyfile(home / "crypt.delve", database)
    targets = {folder: "is a folder", fifo: "is a FIFO", database: "is an expedition file"}
    device = tmp_path / "null.md"
    try:
        os.mknod(device, stat.S_IFCHR | 0o666, os.makedev(1, 3))
        targets[device] = "is a device"
    except PermissionError:
        pass  # no right to make a device node here; /dev/null itself is not risked
    for target, said in targets.items():
        code, _, err = export_to(capsys, "-o", str(target), "--force")
        assert code == 2 and said in err, err
    assert folder.is_dir() and stat.S_ISFIFO(fifo.lstat().st_mode)
    assert database.read_bytes() == (home / "crypt.delve").read_bytes()
    if device in targets:
        assert stat.S_ISCHR(device.lstat().st_mode)


def test_export_writes_through_a_symbolic_link_and_to_standard_output(
    home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    played_here(home)
    real = tmp_path / "real.txt"
    real.write_text("old")
    link = tmp_path / "link.txt"
    link.symlink_to(real)
    code, _, err = export_to(capsys, "-o", str(link), "--force")
    assert code == 0, err
    assert link.is_symlink() and real.read_text().startswith("crypt\n")
    dangling = tmp_path / "dangling.txt"
    dangling.symlink_to(tmp_path / "gone.txt")
    code, _, err = export_to(capsys, "-o", str(dangling))
    assert code == 2 and "which does not exist" in err
    assert not (tmp_path / "gone.txt").exists()
    piped = delvetui(home, "export", "crypt", "--format", "txt", "-o", "-")
    assert piped.returncode == 0 and piped.stdout.startswith("crypt\n#####\n")
    assert not (home / "-").exists() and not Path("-").exists()
