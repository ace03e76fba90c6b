"""When in a turn the rules run, against the lights burning down (docs/procedures.md 3.17)."""

from __future__ import annotations

from pathlib import Path

from delvetui.core import events as ev
from delvetui.procedure.loader import load_text
from delvetui.session import Expedition
from tests.test_docs_procedures import COMPLETE


def _complete(doc_id: str) -> str:
    return next(text for _, text in COMPLETE if f'id = "{doc_id}"' in text)


def _logged(expedition: Expedition) -> list[str]:
    return [
        event.text
        for batch in expedition.batches()
        for event in batch.events
        if isinstance(event, ev.Logged)
    ]


def test_an_end_rule_sees_the_lights_before_they_burn(home: Path) -> None:
    """3.17: lights burn in step 9, after the end rules; the torch's last turn is lit."""
    procedure = load_text(_complete("last-flicker"))
    with Expedition.create(home / "flicker.delve", procedure, seed=3) as expedition:
        expedition.execute("light add torch lit")
        expedition.execute("turn")
        expedition.execute("turn")
        assert expedition.state.light_level == "dark"  # burnt out at the end of turn 2
        assert "The dark closes in." not in _logged(expedition)
        expedition.execute("turn")
        assert _logged(expedition).count("The dark closes in.") == 1


def test_the_gloom_takes_a_candle_bearer_the_turn_after_it_burns_out(home: Path) -> None:
    """Step 9 as written: the gloom runs before the candle burns, so groping comes a
    turn later."""
    procedure = load_text(_complete("gloamdeep"))
    with Expedition.create(home / "gloam.delve", procedure, seed=7) as expedition:
        for command in ("pc add Ash hp=8", "light add candle carrier=Ash lit"):
            expedition.execute(command)
        for _ in range(6):
            expedition.execute("turn creep hazard=5 lurk=6")
            assert "groping" not in expedition.state.party[0].conditions
        assert expedition.state.light_level == "dark"  # the sixth turn burnt it out
        expedition.execute("turn creep hazard=5 lurk=6")
        assert "groping" in expedition.state.party[0].conditions
