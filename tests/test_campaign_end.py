"""Ending an expedition and taking it up again (issue #32): `end [WORDS]` and `reopen`.

The rule (docs/commands.md, "end"): an ended expedition still opens, reads and exports,
and takes no command but `reopen`, `undo` and `redo`; ending closes a running session and
puts the lit lights out, and both are undoable like every command.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from delvetui.core import events as ev
from delvetui.core import log
from delvetui.errors import CommandError
from delvetui.export import export
from delvetui.session import Expedition
from tests.cli_support import delvetui, status
from tests.conftest import Factory, of, reopened, run

REFUSAL = "The expedition has ended (the party is back in town). Type `reopen` to take it up again."


def test_end_records_the_end_and_refuses_every_command_but_reopen_undo_redo(
    expedition: Factory,
) -> None:
    """While ended, a command is refused with the sentence and appends nothing."""
    x = expedition("delving", name="barrow")
    run(x, "pc add Ash hp=6", "light add torch count=2 carrier=Ash lit", "session start", "turn")
    batch = x.execute("end the party is back in town")
    assert [type(e) for e in batch.events] == [ev.SessionEnded, ev.LightPutOut, ev.ExpeditionEnded]
    assert of(batch, ev.ExpeditionEnded)[0].words == "the party is back in town"
    assert x.state.ended and not x.state.in_session and not x.state.lit_lights
    events = x.event_count
    for refused in ("turn", "pc Ash hp=-1", "note still here", "end", "session start"):
        with pytest.raises(CommandError) as error:
            x.execute(refused)
        assert str(error.value) == REFUSAL
    assert x.event_count == events
    x = reopened(x)
    try:
        assert x.state.ended and x.state.end_words == "the party is back in town"
        with pytest.raises(CommandError, match="has ended"):
            x.execute("turn")
        x.execute("reopen")
        assert not x.state.ended
        x.execute("turn")
        assert x.state.turn == 2
    finally:
        x.close()


def test_end_and_reopen_are_undone_and_redone_like_any_command(expedition: Factory) -> None:
    x = expedition("delving", name="barrow")
    run(x, "pc add Ash hp=6", "end")
    assert x.state.ended and x.state.end_words == ""
    x.execute("undo")
    assert not x.state.ended
    x.execute("redo")
    assert x.state.ended
    x.execute("reopen")
    x.execute("undo")
    assert x.state.ended
    with pytest.raises(CommandError, match="has not ended"):
        run(x, "redo", "reopen")


def test_the_log_and_the_export_say_the_end(expedition: Factory) -> None:
    x = expedition("delving", name="barrow")
    run(x, "pc add Ash hp=6", "end the party is back in town", "reopen")
    words = [line.text for line in log.lines(x.batches(), x.procedure)]
    assert "The expedition ends: the party is back in town." in words
    assert "The expedition is taken up again." in words
    assert "The expedition ends: the party is back in town." in export(x, "md")


def test_taking_it_up_again_says_the_lights_stay_out(expedition: Factory) -> None:
    """docs/commands.md, "end": ending puts the lit lights out, and `reopen` does not light
    them again; the log says so, so the party is not left in the dark without a word."""
    x = expedition("ose", name="barrow")
    run(x, "pc add Ash hp=6", "light add torch carrier=Ash lit", "turn", "end", "reopen")
    words = [line.text for line in log.lines(x.batches(), x.procedure)]
    assert "The expedition is taken up again; its lights stay out until lit (`light on`)." in words
    assert x.state.lit_lights == ()


def test_an_expedition_has_an_id_and_a_digest_of_its_log(expedition: Factory) -> None:
    """The id is written at creation and kept; the digest changes with every command."""
    x = expedition("delving", name="barrow")
    assert re.fullmatch("[0-9a-f]{32}", x.expedition_id)
    first = x.digest()
    assert re.fullmatch("[0-9a-f]{64}", first)
    x.execute("pc add Ash hp=6")
    assert x.digest() != first
    expedition_id, digest = x.expedition_id, x.digest()
    x = reopened(x)
    try:
        assert (x.expedition_id, x.digest()) == (expedition_id, digest)
    finally:
        x.close()
    again = Expedition.open(x.path, write=False)
    try:
        assert again.digest() == digest
    finally:
        again.close()


def test_end_from_the_shell_and_status_says_so(home: Path) -> None:
    delvetui(home, "new", "barrow", "--procedure", "delving", "--seed", "3")
    script = "pc add Ash hp=6\nsession start\nturn\nend the party is back in town\nturn\n"
    result = delvetui(home, "act", "barrow", "-", stdin=script)
    assert result.returncode == 2
    assert "line 5" in result.stderr and "Type `reopen` to take it up again." in result.stderr
    data = status(home, "barrow")
    assert data["ended"] is True and data["in_session"] is False
    assert data["campaign"] == "barrow" and data["predecessor"] is None
    assert data["turn"] == 1
    said = delvetui(home, "status", "barrow").stdout
    assert "The expedition has ended (the party is back in town); `reopen` takes it up" in said


def test_an_ended_expedition_is_not_moved_to_another_procedure(expedition: Factory) -> None:
    """`upgrade` is refused like a command while the expedition has ended."""
    from delvetui.procedure.registry import find

    x = expedition("delving", name="barrow")
    run(x, "end")
    with pytest.raises(CommandError, match="Type `reopen`"):
        x.change_procedure(find("cairn"))
    assert x.state.procedure_id == "delving"
