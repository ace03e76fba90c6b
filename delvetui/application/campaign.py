"""The next expedition of a campaign, and the first one named in a campaign.

``next_plan`` reads the predecessor (read-only, checked as an import checks a file from
outside) and works out everything the new expedition will start with: who carries, their
HP after the downtime, the lights and supplies, what stays behind. The form shows it and
``delvetui new --after`` prints its notes; ``create_next`` makes the file from the plan,
so what was shown is what is made. The predecessor is never written.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from pathlib import Path

import attrs

from delvetui import fileio, paths
from delvetui.core import commands as cmd
from delvetui.core import events as ev
from delvetui.core.campaign import Link, carry
from delvetui.core.decide import MAX_SEED, batch_dice, new_seed, start_events
from delvetui.core.evolve import fold
from delvetui.core.state import MINUTES_PER_DAY, State
from delvetui.errors import CommandError, DelveError, ExpeditionExists
from delvetui.procedure.model import Procedure
from delvetui.session import Expedition, check_pages
from delvetui.text import clock as read_clock
from delvetui.text import quoted

_SPAN = re.compile(r"(?:(\d{1,9})d)?(?:(\d{1,9})h)?(?:(\d{1,9})m)?")
#: The longest downtime taken (about 27 years), so a typo cannot push the calendar to the end
#: of time.
MAX_DOWNTIME_DAYS = 10_000


def check_day(day: int) -> None:
    """Refuse a day an expedition cannot start on: 1 to ``MAX_DOWNTIME_DAYS``."""
    if not 1 <= day <= MAX_DOWNTIME_DAYS:
        raise CommandError(
            f"The day {day} is out of range; give a day from 1 to {MAX_DOWNTIME_DAYS}."
        )


def check_campaign(name: str) -> None:
    """Refuse a campaign name an expedition could not have (``paths.name_problem``): a
    campaign's name is shown and exported as an expedition's is."""
    wrong = paths.name_problem(name)
    if wrong:
        raise CommandError(f"{quoted(name)} cannot name a campaign: {wrong}.")


def check_restock(text: str) -> None:
    """Refuse a restocking chance that is not X-in-N (``--restock 1-in-6``)."""
    from delvetui.procedure.adventure import restock_chance_problem

    wrong = restock_chance_problem(text)
    if wrong is not None:
        raise CommandError(f"--restock: {wrong}")


def downtime_minutes(text: str) -> int:
    """A downtime typed as days, hours and minutes (7d, 36h, 2d6h, 90m) in minutes."""
    found = _SPAN.fullmatch(text.strip().lower())
    if not text.strip() or found is None or not any(found.groups()):
        why = ", which cannot be less than none" if text.strip().startswith("-") else ""
        raise CommandError(
            f"'{quoted(text)}' is not a downtime{why}; write days and hours, e.g. 7d, 36h "
            "or 2d6h (0d for none)."
        )
    days, hours, minutes = (int(part or 0) for part in found.groups())
    total = days * MINUTES_PER_DAY + hours * 60 + minutes
    if total > MAX_DOWNTIME_DAYS * MINUTES_PER_DAY:
        raise CommandError(f"A downtime may be up to {MAX_DOWNTIME_DAYS} days.")
    return total


@attrs.frozen
class NextPlan:
    """What the next expedition will start with, worked out before anything is made."""

    name: str
    predecessor: Path
    procedure: Procedure
    #: Batch 1 of the new expedition, as ``create_next`` will write it.
    first: tuple[ev.Event, ...]
    #: The state batch 1 gives: the party after the downtime, the lights, the supplies.
    state: State
    #: What did not carry, one sentence each.
    notes: tuple[str, ...]
    #: Minutes from the predecessor's end to the new start.
    downtime: int


@attrs.frozen
class Predecessor:
    """An ended expedition read to be continued: its final state, its procedure then (as
    its file has it, without the kinds of light declared at the table, which the state
    holds), and what the next one names it by. Read once (``read_predecessor``), planned
    from often."""

    path: Path
    state: State
    procedure: Procedure
    link: Link


def read_predecessor(path: Path, campaign: str | None = None) -> Predecessor:
    """The expedition at ``path``, read-only and checked as an import checks a file from
    outside. Raises DelveError with a sentence when it cannot be read or trusted, has not
    ended, or is in another campaign than ``campaign`` (when given)."""
    state, procedure, link = _read_predecessor(path, campaign)
    return Predecessor(path=path, state=state, procedure=procedure, link=link)


def _next_start(
    before: State, name: str, downtime: str | None, day: int | None, start: str | None
) -> int:
    """The clock the next expedition starts at: the first ``start`` (HH:MM) once the
    downtime has passed, so every day of it is a day of rest; or, with ``day``, that day at
    ``start`` (at the hour the predecessor ended, without one). Never before the end."""
    hour = before.clock % MINUTES_PER_DAY
    if start is not None:
        found = read_clock(start)
        if found is None:
            raise CommandError(f"'{quoted(start)}' is not a start time; write HH:MM, e.g. 08:00.")
        hour = found[0] * 60 + found[1]
    if day is not None:
        check_day(day)
        if downtime is not None:
            raise CommandError(
                "Give the downtime (--downtime 7d) or the day the next expedition starts "
                "(--day N), not both."
            )
        clock = (day - 1) * MINUTES_PER_DAY + hour
    else:
        rest = 0 if downtime is None else downtime_minutes(downtime)
        clock = earliest = before.clock + rest
        if start is not None:
            clock = earliest - earliest % MINUTES_PER_DAY + hour
            if clock < earliest:
                clock += MINUTES_PER_DAY
    if clock < before.clock:
        minute = clock % MINUTES_PER_DAY
        when = f"day {clock // MINUTES_PER_DAY + 1} at {minute // 60:02d}:{minute % 60:02d}"
        raise CommandError(
            f"{name} ended on day {before.day} at {before.clock_text}; the next expedition "
            f"cannot start before that (it would start on {when}). Give a later --day or "
            "--start."
        )
    return clock


def next_plan(
    predecessor: Path | Predecessor,
    name: str,
    *,
    downtime: str | None = None,
    procedure: Procedure | None = None,
    start: str | None = None,
    day: int | None = None,
    leave: Sequence[str] = (),
    campaign: str | None = None,
    seed: int | None = None,
    calendar: str | None = None,
    restock: str | None = None,
) -> NextPlan:
    """The plan of the expedition NAME continuing the one in ``predecessor``.

    Without ``procedure``, the predecessor's (the one it ended with). It starts at the
    first ``start`` (HH:MM) once the downtime has passed, or on ``day`` at ``start``.
    ``calendar`` is the text of a calendar file named for the new one (checked); without
    it, the predecessor's carries. ``restock`` ("1-in-6") is the chance each cleared room
    restocks in the downtime, over the tables file's and the procedure's. Raises
    DelveError with a sentence when the predecessor cannot be read or trusted, has not
    ended, or the new one would start before it ended.
    """
    if isinstance(predecessor, Path):
        predecessor = read_predecessor(predecessor, campaign)
    elif campaign is not None and campaign != predecessor.link.campaign:
        raise CommandError(_other_campaign(predecessor.link))
    before, old, link = predecessor.state, predecessor.procedure, predecessor.link
    new = procedure or old
    clock = _next_start(before, link.name, downtime, day, start)
    seed = new_seed() if seed is None else seed
    if not 0 <= seed <= MAX_SEED:
        raise CommandError(f"The seed {seed} is out of range; give a seed from 0 to {MAX_SEED}.")
    if restock:
        check_restock(restock)
    rng = batch_dice(seed, 1)  # the dice of batch 1, as ``Expedition.run`` rolls a batch's
    if calendar:
        from delvetui.procedure import calendar as calendar_file

        calendar_file.load_text(calendar)  # ProcedureError, every problem, when it is bad
    first = carry(
        name, seed, before, old, new, link, downtime=clock - before.clock, rng=rng, leave=leave,
        restock=restock or None,
    )  # fmt: skip
    named = before.calendar if calendar is None else calendar
    if named:
        first.append(ev.CalendarSet(text=named))
    continued = first[1]
    assert isinstance(continued, ev.ExpeditionContinued)
    return NextPlan(
        name=name,
        predecessor=predecessor.path,
        procedure=new,
        first=tuple(first),
        state=fold(State(), first),
        notes=continued.notes,
        downtime=clock - before.clock,
    )


def _read_predecessor(path: Path, campaign: str | None) -> tuple[State, Procedure, Link]:
    """The predecessor's final state, procedure and link, read-only and audited."""
    name = path.stem
    try:
        # Resumed from its snapshot, then checked as an import checks a file from outside:
        # every page, every row, every event (and the snapshot against the full replay).
        with Expedition.open(path, write=False, snapshot=True) as found:
            check_pages(path)
            found.verify()
            state = found.state
            # The procedure as its file has it: the kinds of light declared at the table
            # come with the state, and the next expedition declares them again.
            procedure = found.procedure_at(attrs.evolve(state, table_lights=()))
            link = Link(
                name=state.name or name,
                id=found.expedition_id,
                digest=found.digest(),
                campaign=state.campaign or state.name or name,
            )
    except DelveError as error:
        raise DelveError(f"{name} cannot be continued: {error}") from None
    if not state.ended:
        raise CommandError(f"{name} has not ended; end it first with `delvetui act {name} end`.")
    if campaign is not None and campaign != link.campaign:
        raise CommandError(_other_campaign(link))
    return state, procedure, link


def _other_campaign(link: Link) -> str:
    return (
        f"{link.name} is in the campaign {link.campaign!r}; the expedition after it is too "
        "(leave --campaign out, or give that name)."
    )


def create_next(
    plan: NextPlan, commands: Sequence[cmd.Command] = (), *, path: Path | None = None
) -> Path:
    """Make the expedition of the plan (and run ``commands`` in it); return its path.

    All or nothing, as ``creation.create``: a failure leaves no file behind. ``path`` is
    where (default: the plan's name in the data folder).
    """
    final = path or paths.new_expedition_path(plan.name)
    return _create(final, plan.name, plan.procedure, plan.first, commands)


def first_in_campaign(
    name: str,
    procedure: Procedure,
    *,
    campaign: str | None = None,
    day: int = 1,
    start: str | None = None,
    seed: int | None = None,
    commands: Sequence[cmd.Command] = (),
    path: Path | None = None,
    calendar: str = "",
) -> Path:
    """Make the first expedition of a chain, in the campaign named ``campaign`` (when given)
    and starting on ``day``; return its path (``path``, or NAME in the data folder)."""
    check_day(day)
    seed = new_seed() if seed is None else seed
    first = start_events(name, procedure, seed=seed, start=start, calendar=calendar)
    started = first[0]
    assert isinstance(started, ev.ExpeditionStarted)
    opening: list[ev.Event] = [
        attrs.evolve(started, clock=started.clock + (day - 1) * MINUTES_PER_DAY)
    ]
    if campaign is not None:
        check_campaign(campaign)
        opening.append(ev.CampaignNamed(campaign=campaign))
    final = path or paths.new_expedition_path(name)
    return _create(final, name, procedure, (*opening, *first[1:]), commands)


def _create(
    final: Path,
    name: str,
    procedure: Procedure,
    first: Sequence[ev.Event],
    commands: Sequence[cmd.Command],
) -> Path:
    taken = f"An expedition called '{name}' already exists; pick another name."
    if os.path.lexists(final):
        raise ExpeditionExists(taken)

    def build(temp: Path) -> None:
        with Expedition.create(temp, procedure, first=first) as expedition:
            for command in commands:
                expedition.run(command)

    fileio.create_expedition(final, build, taken=taken)
    return final


def new_in_campaign(
    name: str,
    path: Path,
    procedure: Procedure | None,
    commands: Sequence[cmd.Command],
    *,
    after: str | None,
    downtime: str | None,
    start: str | None,
    leave: Sequence[str],
    campaign: str | None,
    day: int | None,
    seed: int | None,
    calendar: str = "",
    restock: str | None = None,
) -> tuple[Path, tuple[str, ...]]:
    """``delvetui new`` with --after, --campaign or --day: the path made and the notes."""
    if campaign is not None:
        check_campaign(campaign)
    if after is None:
        if downtime is not None or leave or restock is not None:
            raise CommandError(
                "--downtime, --leave and --restock go with --after PRED (the one continued)."
            )
        assert procedure is not None
        made = first_in_campaign(
            name, procedure, campaign=campaign, day=1 if day is None else day, start=start,
            seed=seed,
            commands=commands, path=path, calendar=calendar,
        )  # fmt: skip
        return made, ()
    plan = next_plan(
        paths.find_expedition(after), name, downtime=downtime, procedure=procedure,
        start=start, day=day, leave=leave, campaign=campaign, seed=seed, calendar=calendar or None,
        restock=restock,
    )  # fmt: skip
    # Tables the dungeon carried already are not added again (``--tables`` of the same file).
    carried = plan.state.adventures
    commands = [
        c
        for c in commands
        if not (isinstance(c, cmd.AddTables) and any(text == c.contents for _, text in carried))
    ]
    return create_next(plan, commands, path=path), plan.notes
