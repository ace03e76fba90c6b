"""The lights in their one order, numbered: the order they were added, which lighting,
putting out or handing one over never changes, so the game master's hands and eyes find a
light where it was. Number N is the Nth light not yet spent; a digit picks it in every
light picker, and the lights pane shows the same number beside it."""

from __future__ import annotations

from delvetui.core.state import Light, State


def in_order(state: State) -> list[Light]:
    """The lights not spent, in the order they were added (a light lit from a stack is
    added when it is lit)."""
    return [light for light in state.lights if not light.spent]


def numbered(state: State) -> dict[str, int]:
    """Each light's number (from 1), by its id."""
    return {light.id: number for number, light in enumerate(in_order(state), start=1)}
