"""Snapshots: the state and the undo/redo stacks as JSON-able data, and back.

A snapshot lets a long expedition resume without folding every event again. It is derived
data: the log stays the truth, a snapshot from another version is ignored, and tests check
that resuming from a snapshot gives the same state as a full replay.
"""

from __future__ import annotations

import json
from typing import Any

import attrs

from delvetui.core.state import Hazard, Light, Member, Pending, State

#: Bumped whenever State's shape changes, so an old snapshot is never misread.
FORMAT = 3


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
            }
        )
        for m in data["party"]
    )
    lights = tuple(Light(**light) for light in data["lights"])
    pending = tuple(Pending(**p) for p in data["pending"])
    hazard = Hazard(**data["last_hazard"]) if data["last_hazard"] else None
    return State(
        **{
            **data,
            "party": party,
            "lights": lights,
            "counters": _pairs(data["counters"]),
            "pending": pending,
            "last_hazard": hazard,
            "light_numbers": _pairs(data["light_numbers"]),
        }
    )


def dumps(
    state: State, *, active: list[int], redo: list[int], base: list[int], program: str
) -> str:
    """A snapshot as JSON text."""
    return json.dumps(
        {
            "format": FORMAT,
            "program": program,
            "state": state_to_data(state),
            "active": active,
            "redo": redo,
            "base": base,
        },
        separators=(",", ":"),
        ensure_ascii=False,
    )


def loads(text: str, *, program: str) -> tuple[State, list[int], list[int], list[int]] | None:
    """A snapshot's state and stacks, or None when it is from another version or unreadable."""
    try:
        data = json.loads(text)
        if data.get("format") != FORMAT or data.get("program") != program:
            return None
        state = state_from_data(data["state"])
        stacks = [[int(seq) for seq in data[name]] for name in ("active", "redo", "base")]
    except (ValueError, TypeError, KeyError, AttributeError):
        return None
    return state, stacks[0], stacks[1], stacks[2]
