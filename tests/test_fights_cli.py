"""The fight's command-line contract, run as a subprocess as other tools script it:
``foe``, ``fight``, ``round``, ``morale`` and ``fight end`` through ``delvetui act``, the
``foes`` and ``fight`` of ``status --json``, the fight in the export, and bad input refused
with a sentence, exit status 2 and nothing written."""

from __future__ import annotations

from pathlib import Path

from tests.cli_support import delvetui, status

SCRIPT = """pc add Ash hp=6
foe add goblin count=3 hp=3,4,5 morale=7 note=guards
fight initiative=5,2
foe goblin1 hp=-3 morale=7
round initiative=1,6
"""


def test_a_fight_from_the_shell(home: Path) -> None:
    delvetui(home, "new", "crypt", "--procedure", "ose", "--seed", "3")
    result = delvetui(home, "act", "crypt", "-", stdin=SCRIPT)
    assert result.returncode == 0, result.stderr
    data = status(home, "crypt")
    assert data["fight"] == {
        "round": 2,
        "first": "foes",
        "lost": None,
        "before": [],
        "after": [],
    }
    assert [(f["name"], f["hp"], f["max_hp"], f["morale"], f["state"]) for f in data["foes"]] == [
        ("goblin1", 0, 3, 7, "down"),
        ("goblin2", 4, 4, 7, "fighting"),
        ("goblin3", 5, 5, 7, "fighting"),
    ]
    ended = delvetui(home, "act", "crypt", "fight", "end", "the goblins", "run")
    assert ended.returncode == 0, ended.stderr
    data = status(home, "crypt")
    assert data["fight"] is None and data["foes"] == []
    assert (data["fights"], data["foes_defeated"]) == (1, 1)
    story = delvetui(home, "export", "crypt", "--format", "md").stdout
    assert "Round 2: the foes act first (d6 each side: the party 1, the foes 6)." in story
    assert "Fights (1)" in story and "Foes defeated" in story


def test_bad_fight_input_is_a_sentence_exit_2_and_nothing_written(home: Path) -> None:
    delvetui(home, "new", "crypt", "--procedure", "ose", "--seed", "3")
    delvetui(home, "act", "crypt", "foe", "add", "goblin", "count=2", "hp=3")
    events = status(home, "crypt")["events"]
    for words, sentence in (
        (("foe", "add", "goblin", "count=2"), "There is already a foe named goblin1"),
        (("foe", "kobold", "hp=-2"), "There is no foe named 'kobold'"),
        (("round",), "There is no fight to take a round of"),
        (("foe", "goblin1", "hp=-1", "morale=8"), "No morale check is due"),
    ):
        result = delvetui(home, "act", "crypt", *words)
        assert result.returncode == 2 and sentence in result.stderr, result.stderr
    assert status(home, "crypt")["events"] == events
