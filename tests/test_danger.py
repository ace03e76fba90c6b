"""What a procedure marks as dangerous (``core.danger``): a counter's ``danger_at``, a
track's ``danger_at`` and ``[party] danger_conditions``, checked by the loader and read
from the state for the attention strip; every shipped procedure says its own."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from delvetui.core.danger import dangers
from delvetui.errors import ProcedureError
from delvetui.procedure.loader import load_text
from delvetui.procedure.registry import find
from delvetui.session import Expedition
from tests.test_docs_procedures import complete


def _texts(expedition: Expedition) -> list[str]:
    return [danger.text for danger in dangers(expedition.state, expedition.procedure)]


def test_the_long_watch_plays_as_the_doc_says(home: Path) -> None:
    """docs/procedures.md, 'Dangers in the attention strip': the noise at its danger_at,
    a track past the member's limit, a condition and a fatigue step from there on up; a
    rest that ends them takes them away."""
    procedure = load_text(complete("long-watch"))
    with Expedition.create(home / "w.delve", procedure, seed=3) as expedition:
        expedition.execute("pc add Ash hp=5 CON=2")
        expedition.execute("pc add Bryn hp=5 CON=5")
        expedition.execute("turn watch")
        expedition.execute("turn watch")
        assert _texts(expedition) == []
        expedition.execute("turn watch")
        assert _texts(expedition) == ["Ash starving", "Hours without food over the limit: Ash 3/2"]
        expedition.execute("turn watch")
        assert _texts(expedition)[0] == "Noise 4/6"
        expedition.execute("pc Bryn fatigue=+1")
        assert "Bryn spent" not in _texts(expedition)  # tired is not yet spent
        expedition.execute("pc Bryn fatigue=+1")
        assert "Bryn spent" in _texts(expedition)
        expedition.execute("turn eat")
        assert _texts(expedition) == ["Noise 4/6", "Bryn spent"]
        expedition.execute("undo")
        assert "Ash starving" in _texts(expedition)


#: For each shipped procedure: commands that bring about one of its dangers, and the words.
SHIPPED_DANGERS: dict[str, tuple[Sequence[str], str]] = {
    "trespasser": (("counter set alarm 8",), "Alarm 8/10"),
    "travel-turn": (("pc Ash +exhausted",), "Ash exhausted"),
    "dungeon-turn": (("pc Ash fatigue=+2",), "Ash exhausted"),
    "cairn": (("pc Ash +deprived",), "Ash deprived"),
    "cairn-modular": (("pc Ash +deprived",), "Ash deprived"),
    "ose": (("pc Ash +hungry",), "Ash without food"),
    "shadowdark": (("counter set danger deadly",), "Danger level deadly"),
    "basic-fantasy": (("pc Ash hungry=3",), "Days without food at 3+: Ash 3"),
    "exploration": (("pc Ash fatigue=+6",), "Ash 6 fatigue"),
    "exploration-traditional": (("pc Ash fatigue=+6",), "Ash 6 fatigue"),
    "mausritter": (("pc Ash +hungry",), "Ash hungry"),
    "errant": (("pc Ash exhaustion=+1",), "Exhaustion at 1+: Ash 1/10"),
}


def _score(procedure: str, value: int) -> str:
    """A score for a new member: CON where the game has it, else its first ability."""
    abilities = find(procedure).party.abilities
    if not abilities:
        return ""
    return f" {'CON' if 'CON' in abilities else abilities[0]}={value}"


@pytest.mark.parametrize("name", sorted(SHIPPED_DANGERS))
def test_each_shipped_procedure_names_its_dangers(home: Path, name: str) -> None:
    """A shipped procedure's own danger is named once it holds, and not before."""
    commands, words = SHIPPED_DANGERS[name]
    with Expedition.create(home / f"{name}.delve", find(name), seed=3) as expedition:
        score = _score(name, 10)
        expedition.execute(f"pc add Ash hp=6{score}")
        expedition.execute(f"pc add Bryn hp=6{score}")
        assert _texts(expedition) == []
        for command in commands:
            expedition.execute(command)
        assert words in _texts(expedition)


def test_travel_turns_name_who_is_past_resilience(home: Path) -> None:
    """Travel Turns: hours past a member's CON are a danger ('over'), each member with
    their own figures; a rest with a meal sets the hours back."""
    with Expedition.create(home / "t.delve", find("travel-turn"), seed=3) as expedition:
        expedition.execute("pc add Ash hp=6 CON=2")
        expedition.execute("pc add Bryn hp=6 CON=3")
        expedition.execute("pc add Cora hp=6 CON=12")
        expedition.execute("turn cautious hazard=10")
        expedition.execute("turn cautious hazard=10")
        assert not any("over the limit" in text for text in _texts(expedition))
        expedition.execute("turn cautious hazard=10 resilience=20")
        shown = [text for text in _texts(expedition) if "over the limit" in text]
        assert shown == ["Hours without food or rest over the limit: Ash 3/2"]
        expedition.execute("turn cautious hazard=10 resilience=20")
        shown = [text for text in _texts(expedition) if "over the limit" in text]
        assert shown == ["Hours without food or rest over the limit: Ash 4/2, Bryn 4/3"]


PROBLEMS = """
id = "bad"
name = "Bad"
source = "a test"
summary = "Bad danger marks."
default_action = "go"

[party]
fatigue = ["fresh", "tired"]
danger_conditions = ["tried", "tired"]

[counters.noise]
label = "Noise"
max = 6
danger_at = 9

[counters.mood]
label = "Mood"
levels = ["calm", "grim"]
danger_at = "dire"

[tracks.thirst]
label = "Thirst"
danger_at = "over"

[tracks.hunger]
label = "Hunger"
limit = 3
danger_at = "past"

[actions.go]
label = "Go"
"""


def test_the_loader_names_every_bad_danger_mark() -> None:
    """Bad input gets a clear sentence at its key, all at once: a number outside the
    counter, a level it does not have, "over" without a limit, a word that is not "over",
    a condition nothing can give."""
    with pytest.raises(ProcedureError) as raised:
        load_text(PROBLEMS)
    said = {problem.path: problem.message for problem in raised.value.problems}
    assert "at most 6" in said["counters.noise.danger_at"]
    assert "'dire' is not a level" in said["counters.mood.danger_at"]
    assert "no limit" in said["tracks.thirst.danger_at"]
    assert '"over"' in said["tracks.hunger.danger_at"]
    assert "Did you mean 'tired'?" in said["party.danger_conditions[0]"]
    assert "party.danger_conditions[1]" not in said
