"""Snapshots: the state and the undo/redo stacks as JSON-able data, and back.

A snapshot lets a long expedition resume without folding every event again. It is derived
data: the log stays the truth, a snapshot from another version is ignored, and tests check
that resuming from a snapshot gives the same state as a full replay.
"""

from __future__ import annotations

import json
import types
import typing
from collections.abc import Callable
from typing import Any

import attrs

from delvetui.core.state import (
    Encounter,
    Fight,
    Foe,
    Hazard,
    Light,
    Member,
    Pending,
    Room,
    State,
    TableLight,
    Timer,
)

#: Bumped whenever State's (or the snapshot's) shape changes, so an old snapshot is never
#: misread. A snapshot is also a verified mark: it is saved only by a delvetui that had
#: checked every row up to it (replayed it, or written it), so ``act`` may resume from it
#: without reading those rows again (docs/reliability.md).
FORMAT = 16


def state_to_data(state: State) -> dict[str, Any]:
    """The state as plain data."""
    return attrs.asdict(state)


def _pairs(items: Any) -> tuple[tuple[str, int], ...]:
    return tuple((str(key), int(value)) for key, value in items)


def state_from_data(data: dict[str, Any]) -> State:
    """A state rebuilt from ``state_to_data``'s output (after a JSON round trip)."""
    party = tuple(
        Member(
            **{
                **m,
                "abilities": _pairs(m["abilities"]),
                "conditions": tuple(m["conditions"]),
                "tracks": _pairs(m["tracks"]),
                "timers": _pairs(m["timers"]),
                "until_rest": _pairs(m["until_rest"]),
                "resources": _pairs(m.get("resources", ())),
                "died_at": tuple(m["died_at"]) if m.get("died_at") else None,
            }
        )
        for m in data["party"]
    )
    lights = tuple(Light(**light) for light in data["lights"])
    pending = tuple(Pending(**p) for p in data["pending"])
    hazard = Hazard(**data["last_hazard"]) if data["last_hazard"] else None
    met = data.get("last_encounter")
    return State(
        **{
            **data,
            "party": party,
            "lights": lights,
            "counters": _pairs(data["counters"]),
            "pending": pending,
            "last_hazard": hazard,
            "last_encounter": Encounter(**met) if met else None,
            "light_numbers": _pairs(data["light_numbers"]),
            "shown": tuple(str(what) for what in data.get("shown", ())),
            "intervals": tuple(
                (str(rule), int(choice), int(since))
                for rule, choice, since in data.get("intervals", ())
            ),
            "resources": _pairs(data.get("resources", ())),
            "adventures": tuple((str(i), str(t)) for i, t in data.get("adventures", ())),
            "acted": tuple(str(name) for name in data.get("acted", ())),
            "timers": tuple(Timer(**timer) for timer in data.get("timers", ())),
            "ran_out": tuple(str(name) for name in data.get("ran_out", ())),
            "table_lights": tuple(TableLight(**kind) for kind in data.get("table_lights", ())),
            "rooms": tuple(_room(room) for room in data.get("rooms", ())),
            "tables_brief": tuple(
                (str(i), str(name), tuple((str(a), str(label)) for a, label in found))
                for i, name, found in data.get("tables_brief", ())
            ),
            "foes": tuple(Foe(**foe) for foe in data.get("foes", ())),
            "fight": _fight(data.get("fight")),
            "surprised": tuple(str(side) for side in data.get("surprised", ())),
        }
    )


def _room(data: dict[str, Any]) -> Room:
    return Room(
        **{
            **data,
            "exits": tuple(data["exits"]),
            "marks": tuple(data["marks"]),
            "notes": tuple(data["notes"]),
            "visits": tuple(int(turn) for turn in data["visits"]),
            "tried": tuple((str(key), int(turn)) for key, turn in data.get("tried", ())),
        }
    )


def _fight(data: dict[str, Any] | None) -> Fight | None:
    if not data:
        return None
    listed = ("before", "after", "idle", "fired")
    return Fight(**{**data, **{key: tuple(data.get(key, ())) for key in listed}})


def runs(seqs: list[int]) -> list[list[int]]:
    """Batch numbers as runs ``[first, count]`` of consecutive numbers, in order.

    The counting batches of a long expedition are nearly all consecutive, so a snapshot
    stays small (and quick to read) however long the expedition grows.
    """
    found: list[list[int]] = []
    for seq in seqs:
        if found and found[-1][0] + found[-1][1] == seq:
            found[-1][1] += 1
        else:
            found.append([seq, 1])
    return found


def unruns(data: Any, *, upto: int) -> list[int]:
    """The batch numbers ``runs`` stands for, none above ``upto``.

    Raises TypeError or ValueError when the data is not runs of batch numbers 1..upto.
    """
    seqs: list[int] = []
    for first, count in data:
        if not isinstance(first, int) or not isinstance(count, int):
            raise TypeError(f"not a run of batch numbers: {first!r}, {count!r}")
        if first < 1 or count < 1 or first + count - 1 > upto:
            raise ValueError(f"not a run of batch numbers up to {upto}: {first}, {count}")
        seqs.extend(range(first, first + count))
    return seqs


def dumps(
    state: State, *, active: list[int], redo: list[int], base: list[int], program: str
) -> str:
    """A snapshot as JSON text."""
    return json.dumps(
        {
            "format": FORMAT,
            "program": program,
            "state": state_to_data(state),
            "active": runs(active),
            "redo": runs(redo),
            "base": runs(base),
        },
        separators=(",", ":"),
        ensure_ascii=False,
    )


def loads(
    text: str, *, program: str, batch: int
) -> tuple[State, list[int], list[int], list[int]] | None:
    """A snapshot's state and stacks, or None when it is from another version or unreadable.

    ``batch`` is the batch the snapshot was taken after: no stack can name a later one.
    """
    try:
        data = json.loads(text, parse_constant=_no_constant)
        if data.get("format") != FORMAT or data.get("program") != program:
            return None
        state = state_from_data(data["state"])
        stacks = [unruns(data[name], upto=batch) for name in ("active", "redo", "base")]
    except (ValueError, TypeError, KeyError, AttributeError):
        return None
    if not fits(State, state):
        return None  # a value of the wrong type (a float for a count): not one we wrote
    return state, stacks[0], stacks[1], stacks[2]


def _no_constant(name: str) -> object:
    """``NaN`` and the infinities, which JSON itself does not have: not a snapshot's."""
    raise ValueError(f"{name} is not a number a snapshot holds")


def fits(hint: Any, value: object) -> bool:
    """True when the value is of the declared type: an attrs value field by field, a
    whole number that is one (not a bool, not a float), a tuple item by item. A snapshot
    is checked so before it stands for the state: its checksum finds damage, not a file
    made by hand, and a wrong type would break the table far away."""
    return _checker(hint)(value)


Check = Callable[[object], bool]
_CHECKERS: dict[Any, Check] = {}


def _checker(hint: Any) -> Check:
    """The check of one declared type, worked out once (a snapshot is checked at every
    open, and a state holds a few kinds of value many times)."""
    found = _CHECKERS.get(hint)
    if found is None:
        found = _CHECKERS[hint] = _made(hint)
    return found


def _made(hint: Any) -> Check:
    if isinstance(hint, type) and attrs.has(hint):
        cls = hint
        hints = _hints(cls)
        fields = [(f.name, hints[f.name]) for f in attrs.fields(cls)]
        return lambda value: (
            isinstance(value, cls)
            and all(_checker(kind)(getattr(value, name)) for name, kind in fields)
        )
    simple: dict[Any, Check] = {
        type(None): lambda value: value is None,
        bool: lambda value: isinstance(value, bool),
        int: lambda value: isinstance(value, int) and not isinstance(value, bool),
        str: lambda value: isinstance(value, str),
    }
    if hint in simple:
        return simple[hint]
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (types.UnionType, typing.Union):
        return lambda value: any(_checker(arg)(value) for arg in args)
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        return lambda value: isinstance(value, tuple) and all(map(_checker(args[0]), value))
    if origin is tuple:
        return lambda value: (
            isinstance(value, tuple)
            and len(value) == len(args)
            and all(_checker(arg)(item) for arg, item in zip(args, value, strict=True))
        )
    return lambda value: True  # a kind this check does not know is the class's own to hold


_HINTS: dict[type, dict[str, Any]] = {}


def _hints(cls: type) -> dict[str, Any]:
    if cls not in _HINTS:
        from delvetui.core import state

        _HINTS[cls] = typing.get_type_hints(cls, vars(state))
    return _HINTS[cls]
