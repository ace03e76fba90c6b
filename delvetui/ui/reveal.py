"""What the game master can show on the players' screen, or hide again (the P key)."""

from __future__ import annotations

from rich.text import Text

from delvetui.core.commands import PLAYERS_SHOW, ShowPlayers
from delvetui.core.state import State
from delvetui.procedure.model import Procedure

_NAMES = {"sign": "the sign", "encounter": "the encounter", "hp": "the party's hit points"}


def reveal_choices(state: State, procedure: Procedure) -> list[tuple[ShowPlayers, Text]]:
    """(command, words) for each thing: reveal it when hidden, hide it when shown.

    What the procedure already shows the players (``[players]``) is left out: there is
    nothing to reveal.
    """
    always = {
        "sign": procedure.players.sign,
        "encounter": procedure.players.encounter,
        "hp": procedure.players.hp,
    }
    choices: list[tuple[ShowPlayers, Text]] = []
    for what in PLAYERS_SHOW:
        if always[what]:
            continue
        name = _NAMES[what]
        if what in state.shown:
            hide = ShowPlayers(what=what, shown=False)
            choices.append((hide, Text(f"Hide {name} from the players")))
        else:
            now = {"sign": state.sign, "encounter": state.encounter}.get(what)
            extra = f" ({now})" if now else ""
            show = ShowPlayers(what=what, shown=True)
            choices.append((show, Text(f"Show {name} to the players{extra}")))
    return choices
