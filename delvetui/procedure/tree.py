"""Pure helpers over a loaded procedure: its effects as a tree, its tables' ranges.

Below the engine and the loader alike: this module reads only the models, never a file,
so ``delvetui.core`` and ``delvetui.procedure.loader`` both build on it without importing
each other.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator, Sequence

from delvetui.procedure.model import Effect, Procedure, Row

#: The most tables one chain of rolls may pass through (a table whose row rolls another,
#: whose row rolls another...). The loader refuses a longer chain (``procedure.fanout``)
#: and the core a command that goes deeper all the same.
MAX_ROLL_DEPTH = 12

#: Every key the program itself reads from a command, whatever the procedure says, and what
#: it gives: the free inputs, and the dice rolled of the program's own accord. A roll, a
#: table, a check or an input of a procedure may not take one of these ids, or one typed
#: value would feed both (``procedures check`` refuses it).
BUILT_IN_KEYS = {
    "by": "the member who acts (by=NAME)",
    "sign": "what a sign is of (sign=TEXT)",
    "creature": "the creature met (creature=TEXT)",
    "distance": "an encounter's distance (distance=N or distance=TEXT)",
    "speed": "the movement speed (speed=SPEED)",
    "encounter": "the adventure's encounter table (encounter=N)",
    "appearing": "how many appear (appearing=N)",
    "reaction": "the adventure's reaction table (reaction=N)",
    "damage": "damage dice (damage.NAME=N)",
    "heal": "healing dice (heal.NAME=N)",
    "supply": "a supply's dice (supply.NAME=N)",
    "usage": "a light's usage die (usage.ID=N)",
}

#: A table may be named ``reaction``: it is the encounter's reaction either way, and with an
#: adventure's reaction table too, ``reaction=N`` given twice types both, in order.
SHARED_TABLE_KEYS = frozenset({"reaction"})

_RANGE = re.compile(r"\s*([0-9]{1,4})\s*(?:(\+)|[-–]\s*([0-9]{1,4}))?\s*")

#: The highest roll of a row written "N+" (N or more): past any total a row can name, so
#: it reaches the top of whatever the dice roll (an exploding d6! rolls up to 66).
OPEN_END = 10_000


def parse_range(text: str) -> tuple[int, int] | None:
    """The lowest and highest roll a row's ``roll`` text covers ('3', '2-10', or '7+': 7
    and every total over it, up to OPEN_END), or None."""
    found = _RANGE.fullmatch(text)
    if found is None:
        return None
    low = int(found.group(1))
    if found.group(2):
        return low, OPEN_END
    high = int(found.group(3)) if found.group(3) else low
    return (low, high) if low <= high else None


def row_range(row: Row) -> tuple[int, int]:
    """The lowest and highest roll a (validated) table row covers."""
    return _span(row.roll)


#: Rows' roll texts whose ranges are kept: far more than the few ('1', '2-5') tables use.
_KEPT_SPANS = 1024


@functools.lru_cache(maxsize=_KEPT_SPANS)
def _span(text: str) -> tuple[int, int]:
    # Every table roll reads its rows' ranges: the same few texts, again and again.
    span = parse_range(text)
    assert span is not None
    return span


def iter_effects(effects: Sequence[Effect]) -> Iterator[Effect]:
    """Every effect in the list, with the effects nested in them (a check's branches)."""
    for effect in effects:
        yield effect
        for _branch, nested in effect.branches():
            yield from iter_effects(nested)


def nested_effects(ref: str, effects: Sequence[Effect]) -> Iterator[tuple[str, Effect]]:
    """Every effect in the list and below it, each with its reference ('…[0].on_failure[1]')."""
    for index, effect in enumerate(effects):
        here = f"{ref}[{index}]"
        yield here, effect
        for branch, nested in effect.branches():
            yield from nested_effects(f"{here}.{branch}", nested)


def effect_lists(procedure: Procedure) -> Iterator[tuple[str, tuple[Effect, ...]]]:
    """Every list of effects at the top of a procedure, with the key path it stands at."""
    for name, table in procedure.tables.items():
        for index, row in enumerate(table.rows):
            yield f"tables.{name}.rows[{index}].effects", row.effects
    for group in ("actions", "activities"):
        for name, action in getattr(procedure, group).items():
            yield f"{group}.{name}.effects", action.effects
    for name, rule in procedure.rolls.items():
        yield f"rolls.{name}.on_hit", rule.on_hit
        yield f"rolls.{name}.on_miss", rule.on_miss
    if procedure.rest is not None:
        yield "rest.on_skip", procedure.rest.on_skip
    for name, track in procedure.tracks.items():
        yield f"tracks.{name}.over", track.over
    for name, counter in procedure.counters.items():
        yield f"counters.{name}.on_change", counter.on_change


def walk_effects(procedure: Procedure) -> Iterator[tuple[str, Effect]]:
    """Every effect in a procedure with the reference deferred effects are stored under."""
    for ref, effects in effect_lists(procedure):
        yield from nested_effects(ref, effects)
