"""The words of the expedition's events: its start, the procedure it moves to, its
calendar, its end and reopening, and the campaign it continues."""

from __future__ import annotations

from delvetui.core import calendar
from delvetui.core import events as ev
from delvetui.core.log.words import Said, capital, clock_text, span_text, words
from delvetui.core.state import State
from delvetui.procedure.model import Procedure


@words.register
def _(event: ev.ExpeditionStarted, procedure: Procedure, state: State) -> Said:
    return "info", (
        f"Expedition {event.name} begins ({event.procedure_name}) at {clock_text(event.clock)}."
    )


@words.register
def _(event: ev.CalendarSet, procedure: Procedure, state: State) -> Said:
    return "info", calendar.set_words(event.text)


@words.register
def _(event: ev.ProcedureChanged, procedure: Procedure, state: State) -> Said:
    return "info", f"The expedition now follows {event.procedure_name} ({event.digest})."


@words.register
def _(event: ev.ExpeditionEnded, procedure: Procedure, state: State) -> Said:
    return "info", f"The expedition ends{': ' + event.words if event.words else ''}."


@words.register
def _(event: ev.ExpeditionReopened, procedure: Procedure, state: State) -> Said:
    if any(not light.spent and not light.lit for light in state.lights):
        return "info", (
            "The expedition is taken up again; its lights stay out until lit (`light on`)."
        )
    return "info", "The expedition is taken up again."


@words.register
def _(event: ev.ExpeditionContinued, procedure: Procedure, state: State) -> Said:
    return "info", continued_text(event)


@words.register
def _(event: ev.CampaignNamed, procedure: Procedure, state: State) -> Said:
    return "info", f"The expedition opens the campaign {event.campaign}."


def continued_text(event: ev.ExpeditionContinued) -> str:
    """What a continued expedition's link says: whom it follows, after how long, what stayed."""
    left = "".join(f" {capital(note)}." for note in event.notes)
    return (
        f"The expedition continues {event.predecessor} (campaign {event.campaign}) after "
        f"{span_text(event.downtime_minutes)} of downtime; {event.predecessor} ended "
        f"{clock_text(event.ended_clock)}.{left}"
    )
