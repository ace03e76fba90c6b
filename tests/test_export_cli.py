"""`delvetui export` and `delvetui import`, run as real subprocesses as scripts use them."""

from __future__ import annotations

import json
from pathlib import Path

from tests.test_cli import delvetui, status


def played(home: Path) -> None:
    assert delvetui(home, "new", "crypt", "--procedure", "delving", "--seed", "7").returncode == 0
    script = "pc add Ash hp=6\nsession start\nturn hazard=5\nnote <b>door</b>\nturn\nsession end\n"
    assert delvetui(home, "act", "crypt", "-", stdin=script).returncode == 0


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
    delvetui(home, "export", "crypt", "--format", "json", "-o", str(document))
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
        assert "example:" in result.stdout and f"delvetui {sub} " in result.stdout
