"""The rows of the next expedition's form, and the commands they add up to.

A carried member is a row of its own (carried or left behind, the HP after the downtime,
what else carries); the members joining in town and the lights bought there are the
new-expedition form's rows (:mod:`delvetui.ui.forms.form_rows`), read here into commands.
"""

from __future__ import annotations

from rich.text import Text
from textual.containers import Horizontal, Vertical
from textual.dom import DOMNode
from textual.widgets import Input, Static

from delvetui.core import commands
from delvetui.core.state import Light, Member
from delvetui.procedure.model import Procedure
from delvetui.text import time_left, visible
from delvetui.ui.forms.form_rows import (
    HP_CELLS,
    NAME_CELLS,
    FormProblem,
    TickBox,
    light_commands,
    light_values,
    member_values,
    party_commands,
    remake_rows,
    supply_rows,
    supply_values,
)


def member_about(member: Member | None) -> Text:
    """What else carries with a member: '/ 6 HP · fatigue 1 · wounded'; or left behind."""
    if member is None:
        return Text("stays behind", "italic")
    parts = [f"/ {member.max_hp} HP"]
    if member.fatigue:
        parts.append(f"fatigue {member.fatigue}")
    parts += [visible(condition) for condition in member.conditions]
    parts += [f"{visible(name)} {value}" for name, value in member.resources if value]
    return Text(" · ".join(parts), "dim")


def carried_row(number: int, name: str, member: Member | None, hp: str) -> Horizontal:
    """One member of the predecessor's party: carried (ticked) or not, HP, the rest."""
    label = Static(Text(visible(name), "bold"), classes="carried-name")
    label.styles.width = NAME_CELLS
    field = Input(hp, id=f"c{number}-hp", classes="tiny", compact=True, tooltip=Text("HP"))
    field.styles.width = HP_CELLS
    return Horizontal(
        TickBox("", member is not None, id=f"c{number}-carry"),
        label,
        field,
        Static(member_about(member), id=f"c{number}-about", classes="carried-about"),
        classes="member-line carried",
    )


def light_words(light: Light, procedure: Procedure) -> str:
    """A light carried home and what is left of it: 'torch1: Torch ×5, carried by Ash',
    'lantern1: Lantern, 46 turns left', 'torch2: Torch, dim'."""
    count = f" ×{light.count}" if light.count > 1 else ""
    carrier = f", carried by {visible(light.carrier)}" if light.carrier else ""
    kind = procedure.lights.get(light.kind)
    label = kind.label if kind is not None else light.kind
    left = ""
    if light.minutes is not None:
        turn_type = procedure.default_turn_type
        per_turn = procedure.turn_minutes(turn_type)
        left = f", {time_left(light.minutes, per_turn, procedure.turn_name(turn_type))} left"
    dim = ", dim" if light.dimmed else ""
    return f"{visible(light.id)}: {visible(label)}{count}{dim}{left}{carrier}"


def lights_commands(
    procedure: Procedure,
    joining: list[dict[str, str]],
    carried: list[str],
    bought: list[dict[str, str]],
) -> list[commands.Command]:
    """The commands adding the members who join and the lights bought, each checked.

    A bought light may be carried by anyone in the party: a carried member or one joining.
    Raises FormProblem for the first problem, with its field.
    """
    for number, row in enumerate(joining):
        if row["name"].casefold() in (name.casefold() for name in carried):
            raise FormProblem("party", f"{row['name']} is in the party already.", f"m{number}-name")
    made = party_commands(procedure, joining, [])
    names = [*carried, *(row["name"] for row in joining if row["name"])]
    return [*made, *light_commands(bought, names)]


async def rebuild_rows(
    screen: DOMNode, procedure: Procedure | None, added: int, bought: int, supplies: int = 0
) -> None:
    """The rows of the members joining, the lights and the supplies bought, made again for
    another procedure (its abilities, its kinds of light, its resources), keeping what was
    typed (a supply the procedure does not count loses its kind)."""
    members = member_values(screen, procedure, added)
    await remake_rows(screen, procedure, members, light_values(screen, bought))
    values = supply_values(screen, supplies)
    for row in values:
        if procedure is None or row["resource"] not in procedure.resources:
            row["resource"] = ""
    box = screen.query_one("#form-supplies", Vertical)
    await box.remove_children()
    await box.mount_all(supply_rows(procedure, supplies, values))


def typed_hp(screen: DOMNode, members: list[str], planned: dict[str, str]) -> dict[str, str]:
    """The HP the game master typed over the plan's, by member (row by row, in order)."""
    typed = {}
    for number, name in enumerate(members):
        for field in screen.query(f"#c{number}-hp").results(Input):
            if field.value.strip() != planned.get(name, ""):
                typed[name] = field.value.strip()
    return typed
