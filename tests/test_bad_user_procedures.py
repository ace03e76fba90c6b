"""One bad file never stops the program, and a game master's file never changes a shipped
game's rules (docs/procedures.md, "Where the files go").

A procedure in the game master's folder that cannot be used (a number that is not one, a
syntax error, the id of a shipped procedure, an id another file has) is listed as such with
its first problem by ``delvetui procedures``, the start screen and the new-expedition form;
every other procedure, shipped or the game master's, works. A changed copy of a shipped
procedure is made with ``delvetui procedures copy``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.widgets import OptionList, Static

from delvetui.procedure import loader, registry
from delvetui.procedure.loader import load_file
from delvetui.procedure.registry import shipped_dir
from delvetui.ui.app import DelveApp
from delvetui.ui.start_screen import StartScreen
from tests.cli_support import delvetui
from tests.test_ui_start import open_form
from tests.ui_support import screen_text, settled

DELVING = (shipped_dir() / "delving.toml").read_text(encoding="utf-8")

#: The first problem each bad file is listed with.
NAN = (
    "line 15: time.turn_hours: is nan, which is not a number; give a number from 0 to 8,760 hours."
)
SHADOW = (
    "line 6: id: is 'delving', a shipped procedure's id, which a file of yours cannot change; "
    "to keep a changed copy, run 'delvetui procedures copy delving my-delving' and edit the "
    "file it makes (an id of your own)."
)


def as_id(pid: str, text: str = DELVING) -> str:
    return text.replace('id = "delving"', f'id = "{pid}"', 1)


@pytest.fixture
def folder(home: Path) -> Path:
    """The game master's procedures: one with a number that is not one, one carrying the
    shipped id 'delving' (run changed), one of their own that works, and its twin."""
    mine = home / "procedures"
    mine.mkdir()
    (mine / "bad.toml").write_text(
        as_id("bad").replace("turn_minutes = 10", "turn_hours = nan"), encoding="utf-8"
    )
    (mine / "changed.toml").write_text(
        DELVING.replace('label = "Run"', 'label = "Run away"'), encoding="utf-8"
    )
    (mine / "good.toml").write_text(as_id("good"), encoding="utf-8")
    (mine / "twin.toml").write_text(as_id("good"), encoding="utf-8")
    return mine


def test_the_listing_names_each_file_that_cannot_be_used_with_its_first_problem(
    home: Path, folder: Path
) -> None:
    listed = delvetui(home, "procedures")
    assert listed.returncode == 0 and listed.stderr == ""
    lines = listed.stdout.splitlines()
    for name, first in (
        ("bad.toml", NAN),
        ("changed.toml", SHADOW),
        (
            "twin.toml",
            "line 6: id: is 'good', the id of good.toml already; give this one an id of its own.",
        ),
    ):
        at = next(i for i, line in enumerate(lines) if line.startswith(f"{name} "))
        assert f"(user) cannot be used, 1 problem(s): {folder / name}" in lines[at]
        assert lines[at + 1].strip() == first
    assert any(line.startswith("good ") and "(user)" in line for line in lines)
    assert any(line.startswith("delving ") and "(shipped)" in line for line in lines)
    data = {e["id"]: e for e in json.loads(delvetui(home, "procedures", "--json").stdout)}
    assert data["bad.toml"]["problem"] == NAN and data["bad.toml"]["name"] is None
    assert data["changed.toml"]["problem"] == SHADOW
    assert data["delving"]["problem"] is None and data["delving"]["user"] is False


def test_every_other_procedure_works_and_the_shipped_one_keeps_its_rules(
    home: Path, folder: Path
) -> None:
    made = delvetui(home, "new", "crypt", "--procedure", "delving")
    assert made.returncode == 0, made.stderr
    assert (
        made.stderr
        == f"delvetui: {folder / 'changed.toml'} is not used: its id {SHADOW.split(': ', 2)[2]}\n"
    )
    ran = delvetui(home, "act", "crypt", "turn", "run", "hazard=6")
    assert ran.returncode == 0 and "Run, 1500 m" in ran.stdout and "Run away" not in ran.stdout
    assert delvetui(home, "new", "own", "--procedure", "good").returncode == 0
    for refused, said in (("bad", NAN), ("changed", SHADOW)):
        tried = delvetui(home, "new", refused, "--procedure", refused)
        assert tried.returncode == 2 and said in tried.stderr, tried.stderr
        assert not (home / f"{refused}.delve").exists()
    checked = delvetui(home, "procedures", "check", str(folder / "changed.toml"))
    assert checked.returncode == 2 and SHADOW in checked.stderr
    # The same file anywhere else is a valid procedure (new --procedure FILE reads it so).
    elsewhere = home / "elsewhere.toml"
    elsewhere.write_text((folder / "changed.toml").read_text(encoding="utf-8"), encoding="utf-8")
    assert delvetui(home, "procedures", "check", str(elsewhere)).returncode == 0


def test_a_changed_copy_is_made_by_copy_and_is_the_game_masters_own(home: Path) -> None:
    done = delvetui(home, "procedures", "copy", "delving", "my-delving")
    assert done.returncode == 0, done.stderr
    copy = home / "procedures" / "my-delving.toml"
    assert done.stdout == (
        f"{copy}: a copy of delving as my-delving; edit it, then use delvetui new NAME "
        "--procedure my-delving.\n"
    )
    text = copy.read_text(encoding="utf-8")
    assert text.startswith("# A copy of delving, made by `delvetui procedures copy`")
    assert text.split("\n", 1)[1] == as_id("my-delving")  # every other line as it was
    procedure = load_file(copy)
    assert (procedure.id, procedure.name) == ("my-delving", "Delving")
    copy.write_text(text.replace('label = "Run"', 'label = "Flee"'), encoding="utf-8")
    assert delvetui(home, "new", "mine", "--procedure", "my-delving").returncode == 0
    ran = delvetui(home, "act", "mine", "turn", "run", "hazard=6")
    assert "Flee" in ran.stdout
    for args, said in (
        (("delving", "my-delving"), "There is a procedure 'my-delving' already"),
        (("delving", "ose"), "There is a procedure 'ose' already"),
        (("delving", "My Copy"), "'My Copy' cannot be a procedure's id"),
        (("nowhere", "x"), "There is no procedure 'nowhere'"),
        (("delving",), "Give the procedure to copy and the copy's id"),
    ):
        refused = delvetui(home, "procedures", "copy", *args)
        assert refused.returncode == 2 and said in refused.stderr, refused.stderr
    assert sorted(p.name for p in (home / "procedures").iterdir()) == ["my-delving.toml"]


def test_a_file_the_loader_fails_on_is_listed_not_raised(
    home: Path, folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whatever goes wrong reading one of the game master's files, it is that file's
    problem: the listing and every other procedure go on."""

    def broken(path: Path) -> object:
        if path.name == "good.toml":
            raise ValueError("something no check foresaw")
        return load_file(path)

    monkeypatch.setattr(registry, "load_file", broken)
    registry._CACHE.clear()
    loader.forget()
    found = {entry.id: entry for entry in registry.entries()}
    assert (
        found["good.toml"].problem == "could not be read (ValueError: something no check foresaw)."
    )
    assert registry.find("delving").id == "delving"
    registry._CACHE.clear()


async def test_the_start_screen_and_the_form_name_each_file_that_cannot_be_used(
    home: Path, folder: Path
) -> None:
    app = DelveApp(None)
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(pilot, lambda: isinstance(app.screen, StartScreen))
        await settled(pilot, lambda: "Your procedure bad.toml" in screen_text(app))
        shown = str(app.screen.query_one("#start-broken", Static).content)
        assert shown.splitlines() == [
            f"Your procedure bad.toml cannot be used: {NAN}",
            f"Your procedure changed.toml cannot be used: {SHADOW}",
            "Your procedure twin.toml cannot be used: line 6: id: is 'good', the id of "
            "good.toml already; give this one an id of its own.",
        ]
        form = await open_form(pilot)
        picker = form.query_one("#form-procedure", OptionList)
        options = [picker.get_option_at_index(i) for i in range(picker.option_count)]
        by_id = {option.id: option for option in options}
        for name, first in (("bad.toml", NAN), ("changed.toml", SHADOW)):
            assert by_id[name].disabled
            assert first in str(by_id[name].prompt)
        assert not by_id["delving"].disabled and not by_id["good"].disabled
        assert form.procedure is not None and form.procedure.id == "delving"
        assert form.procedure.actions["run"].label == "Run"
