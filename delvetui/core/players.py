"""What the players see: the light as the characters see it, the time, and what was revealed.

The players' screen (``delvetui players``) shows this and nothing else: never the hazard
table, a roll, a counter the procedure keeps for the game master, or the game master's
notes. What it shows beyond the light is declared by the procedure's ``[players]`` section,
by the counters it marks ``players = true`` (the countdown clock, the alarm) and by what the
game master reveals at the table (``reveal sign``, ``reveal encounter``, ``reveal hp``,
``reveal foes``, ``reveal room``). Only words meant for players reach it: an encounter is
told by the creature the table named, or by the procedure's ``players`` words, never by
the game master's text. Pure: state in, words out.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from delvetui.core.calendar import date_for
from delvetui.core.fight_view import FightView, fight_view
from delvetui.core.fights import tally
from delvetui.core.member_light import member_levels, party_level, per_member
from delvetui.core.rooms import shown_label
from delvetui.core.state import Light, State
from delvetui.procedure.model import Procedure
from delvetui.text import away, counted, time_left, visible

if TYPE_CHECKING:
    from delvetui.core.commands import ShowPlayers

_LEVEL_WORDS = {"bright": "Bright light", "dim": "Dim light", "dark": "Darkness"}


@attrs.frozen
class LightLeft:
    """A lit light as the players' screen counts it down across a room."""

    #: The light in words, without its time: "Ash's torch burns bright."
    words: str
    #: Its time left: "4 turns", "42 min", "d6"; '' for a light that burns on.
    left: str
    #: The same in fewer letters, where a row is short of room: "4t", "42m", "d6".
    short: str


@attrs.frozen
class PlayersView:
    """The players' screen, as lines of plain words."""

    title: str
    level: str
    light: tuple[str, ...]
    clock: str | None
    party: tuple[str, ...] | None
    sign: str | None
    encounter: str | None
    #: How far away the last encounter began, when the players may know it.
    distance: str | None = None
    #: The party's light level as a key: ``bright``, ``dim`` or ``dark``.
    shade: str = "bright"
    #: The clock's parts, where the procedure shows the clock: the day, HH:MM, the quarter.
    day: int | None = None
    time: str | None = None
    quarter: str | None = None
    #: The party's hit points as (name, hit points, most), once the players may see them.
    hit_points: tuple[tuple[str, int, int], ...] = ()
    #: The date in the expedition's calendar, capitalised ("Day 3" without one).
    date: str | None = None
    #: The counters the players see (``players = true``): (label, value or level).
    counters: tuple[tuple[str, str], ...] = ()
    #: Each lit light and its time left, where players know it (``[players] light_turns``).
    left: tuple[LightLeft, ...] = ()
    #: The dead among the party whose hit points are shown, by name.
    dead: tuple[str, ...] = ()
    #: The label of the room the party is in, once the game master reveals it.
    room: str | None = None
    #: The fight under way and the foes revealed (``core.fight_view``), or None.
    fight: FightView | None = None

    def lines(self) -> list[str]:
        """Everything on the screen, one line each (for a test or a plain terminal)."""
        found = [self.title, self.level, *self.light]
        if self.clock is not None:
            found.append(self.clock)
        if self.room is not None:
            found.append(f"Where: {self.room}")
        if self.party is not None:
            found += self.party
        if self.sign is not None:
            found.append(f"A sign: {self.sign}")
        if self.encounter is not None:
            found.append(f"Encounter: {self.encounter}" if self.encounter else "An encounter!")
            if self.distance:
                found.append(f"Distance: {self.distance}")
        elif self.distance is not None:
            found.append(f"Something approaches, {away(self.distance)}.")
        found += [f"{label}: {value}" for label, value in self.counters]
        if self.fight is not None:
            found += self.fight.lines()
        return found


def view(state: State, procedure: Procedure) -> PlayersView:
    """What the players may see of this state under this procedure."""
    rules = procedure.players
    turn_minutes = procedure.turn_minutes(state.turn_type)
    lit = state.lit_lights
    light = tuple(_light_words(one, state, procedure, turn_minutes) for one in lit)
    left: tuple[LightLeft, ...] = ()
    if rules.light_turns:
        left = tuple(
            LightLeft(
                _light_words(one, state, procedure, turn_minutes, timed=False),
                time_left_words(one, state, procedure),
                time_left_words(one, state, procedure, short=True),
            )
            for one in lit
        )
    if not lit:
        light = ("No light burns.",)
    light += standing(state, procedure)
    clock = quarter = date = None
    if rules.clock:
        quarter = procedure.time.quarters[state.hour // 6]
        date = visible(date_for(state, procedure))
        date = date[:1].upper() + date[1:]
        clock = f"{date}, {state.clock_text} ({quarter})"
    party = None
    hit_points: tuple[tuple[str, int, int], ...] = ()
    dead: tuple[str, ...] = ()
    if shown_to_players(state, procedure, "hp"):
        dead = tuple(visible(m.name) for m in state.party if m.dead)
        party = tuple(
            f"{visible(m.name)}: dead"
            if m.dead
            else f"{visible(m.name)}: {m.hp} of {m.max_hp} hit points"
            for m in state.party
        )
        hit_points = tuple((visible(m.name), m.hp, m.max_hp) for m in state.living)
    sign = None
    found = state.sign or state.sign_found
    if found and shown_to_players(state, procedure, "sign"):
        sign = visible(found)
    encounter = None
    if state.encounter and shown_to_players(state, procedure, "encounter"):
        encounter = visible(encounter_words(state))
    distance = None
    if state.encounter and state.encounter_distance and (encounter or rules.distance):
        distance = visible(state.encounter_distance)
    level = party_level(state, procedure)
    room = shown_label(state)
    return PlayersView(
        title=visible(state.name),
        level=_LEVEL_WORDS.get(level, level),
        light=light,
        clock=clock,
        party=party,
        sign=sign,
        encounter=encounter,
        distance=distance,
        shade=level,
        day=state.day if clock else None,
        time=state.clock_text if clock else None,
        quarter=visible(quarter) if quarter else None,
        hit_points=hit_points,
        date=date,
        counters=seen_counters(state, procedure),
        left=left,
        dead=dead,
        room=visible(room) if room is not None else None,
        fight=fight_view(state, procedure, foes_shown=shown_to_players(state, procedure, "foes")),
    )


def seen_counters(state: State, procedure: Procedure) -> tuple[tuple[str, str], ...]:
    """The counters the players see (``players = true``), each as its label and its value:
    the level's name, or the number with its top ("3 of 10") where it has one."""
    found: list[tuple[str, str]] = []
    for name, counter in procedure.counters.items():
        if not counter.players:
            continue
        value = state.counter(name)
        top = counter.top()
        shown = counter.level_of(value) or (str(value) if top is None else f"{value} of {top}")
        found.append((visible(counter.label), visible(shown)))
    return tuple(found)


def encounter_words(state: State) -> str:
    """This turn's encounter in the players' words: the creature the table named (how many,
    their reaction), else what the procedure says for players; '' for neither."""
    met = state.last_encounter
    if met is None:
        return ""
    if met.creature:
        return state.encounter or ""
    return met.players


def _whose(light: Light, procedure: Procedure) -> str:
    """'Ash's torch', 'The campfire': a light as the players know it."""
    kind = procedure.lights.get(light.kind)
    name = visible(kind.label if kind is not None else light.kind).lower()
    whose = f"{visible(light.carrier)}'s {name}" if light.carrier else f"the {name}"
    return whose[:1].upper() + whose[1:]


def time_left_words(
    light: Light, state: State, procedure: Procedure, *, short: bool = False
) -> str:
    """What a lit light has left, as the table reads it across a room: '4 turns', '3 h 10
    min', '42 min' (of real time; 'paused' with the table's clock), 'd6' (its usage die), '2
    strikes'; '' for a light that burns on until put out. ``short``: in fewer letters
    ('4t', '3h10m', '42m', 'd6', '2s')."""
    if light.real_seconds is not None:
        minutes = light.real_seconds // 60
        if short:
            return f"{minutes}m"
        words = f"{minutes} min" if minutes else "under a minute"
        return f"{words}, paused" if state.realtime_paused else words
    if light.minutes is not None:
        unit = procedure.turn_name(state.turn_type).split()[-1]
        per_turn = max(1, procedure.turn_minutes(state.turn_type))
        return time_left(light.minutes, per_turn, unit, short=short)
    if light.usage_die is not None:
        return f"d{light.usage_die}"
    kind = procedure.lights.get(light.kind)
    if kind is not None and kind.strikes is not None:
        left = max(0, kind.strikes - light.strikes)
        return f"{left}s" if short else counted(left, "strike")
    return ""


#: What the game master may reveal (``reveal sign|encounter|hp|foes``), in words.
_REVEALED = {
    "sign": "the sign",
    "encounter": "the encounter",
    "hp": "the party's hit points",
    "foes": "the foes",
}


def always_shown(procedure: Procedure, what: str) -> bool:
    """True when the procedure's ``[players]`` shows this (sign, encounter, hp) always."""
    rules = procedure.players
    return {"sign": rules.sign, "encounter": rules.encounter, "hp": rules.hp}.get(what, False)


def shown_to_players(state: State, procedure: Procedure, what: str) -> bool:
    """True when the players' screen shows this now: always, or revealed at the table."""
    return always_shown(procedure, what) or what in state.shown


def reveal_choices(state: State, procedure: Procedure) -> list[tuple[ShowPlayers, str]]:
    """(command, words) for each thing the game master may show: reveal it when hidden,
    hide it when shown.

    What the procedure already shows the players (``[players]``) is left out: there is
    nothing to reveal.
    """
    from delvetui.core.commands import PLAYERS_SHOW, ShowPlayers

    choices: list[tuple[ShowPlayers, str]] = []
    for what in PLAYERS_SHOW:
        if always_shown(procedure, what):
            continue
        if what == "foes" and not state.foes and what not in state.shown:
            continue  # no foes to show: nothing to offer
        name = _REVEALED[what]
        if what in state.shown:
            choices.append((ShowPlayers(what=what, shown=False), f"Hide {name} from the players"))
        else:
            now = {"sign": state.sign or state.sign_found, "encounter": state.encounter}.get(what)
            if what == "foes" and state.foes:
                now = tally(state.foes, spelt=True)
            extra = f" ({now})" if now else ""
            show = ShowPlayers(what=what, shown=True)
            choices.append((show, f"Show {name} to the players{extra}"))
    room = state.current_room
    if room is not None:
        # The room the party is in: its label, revealed room by room.
        label = visible(room.label or f"Room {room.id}")
        if room.revealed:
            choices.append((ShowPlayers(what="room", shown=False), f"Hide the room ({label})"))
        else:
            choices.append((ShowPlayers(what="room", shown=True), f"Show the room ({label})"))
    return choices


def _light_words(
    light: Light, state: State, procedure: Procedure, turn_minutes: int, *, timed: bool = True
) -> str:
    kind = procedure.lights.get(light.kind)
    whose = _whose(light, procedure)
    if light.real_seconds is not None:
        return _real_time_words(light, whose, state, procedure, timed=timed)
    per_turn = max(1, turn_minutes)
    # Its last turn, or its last hour in a turn longer than that (a watch, a day).
    failing = (
        (light.minutes is not None and light.minutes <= min(per_turn, 60))
        or light.usage_die == 4
        or (kind is not None and kind.strikes is not None and light.strikes + 1 >= kind.strikes)
    )
    if failing:
        words = f"{whose} gutters"
    elif light.state == "dim":
        words = f"{whose} gives a dim light"
    else:
        words = f"{whose} burns bright"
    if timed and procedure.players.light_turns and light.minutes is not None:
        unit = procedure.turn_name(state.turn_type)
        words += f" ({time_left(light.minutes, per_turn, unit)} left)"
    elif timed and procedure.players.light_turns and light.usage_die is not None:
        words += f" (usage die d{light.usage_die})"
    elif timed and procedure.players.light_turns and time_left_words(light, state, procedure):
        words += f" ({time_left_words(light, state, procedure)} left)"
    return words + "."


#: A real-time light gutters in its last this many real minutes.
REAL_GUTTERS = 5


def _real_time_words(
    light: Light, whose: str, state: State, procedure: Procedure, *, timed: bool = True
) -> str:
    """A light that burns in real time, in words; its minutes left where players know them."""
    seconds = light.real_seconds or 0
    if seconds <= REAL_GUTTERS * 60:
        words = f"{whose} gutters"
    elif light.state == "dim":
        words = f"{whose} gives a dim light"
    else:
        words = f"{whose} burns bright"
    if timed and procedure.players.light_turns:
        minutes = seconds // 60
        if minutes < 1:
            left = "under a minute left"
        else:
            left = f"{minutes} minute{'' if minutes == 1 else 's'} of real time left"
        if state.realtime_paused:
            left += ", the clock paused"
        words += f" ({left})"
    return words + "."


#: Where a member stands, as the players read it.
_STANDS = {"dim": "stands in dim light", "dark": "is in darkness"}


def standing(state: State, procedure: Procedure) -> tuple[str, ...]:
    """Who stands outside the bright light, where a light lights only some members."""
    if not per_member(procedure):
        return ()
    levels = member_levels(state, procedure)
    return tuple(
        f"{visible(name)} {_STANDS[level]}." for name, level in levels.items() if level in _STANDS
    )
