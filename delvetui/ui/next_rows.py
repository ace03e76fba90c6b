"""The rows of the next expedition's form, and the commands they add up to.

A carried member is a row of its own (carried or left behind, the HP after the downtime,
what else carries); the members joining in town and the lights bought there are the
new-expedition form's rows (:mod:`delvetui.ui.form_rows`), read here into commands.
"""

from __future__ import annotations

import shlex

from rich.text import Text
from textual.containers import Horizontal, Vertical
from textual.dom import DOMNode
from textual.widgets import Checkbox, Input, Select, Static

from delvetui.core import commands
from delvetui.core.state import Light, Member
from delvetui.errors import CommandError
from delvetui.procedure.model import Procedure
from delvetui.text import time_left, visible
from delvetui.ui.form_rows import (
    HP_CELLS,
    NAME_CELLS,
    FormProblem,
    TickBox,
    light_rows,
    member_heading,
    member_rows,
    party_commands,
    safe_id,
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


def new_members(screen: DOMNode, procedure: Procedure | None, count: int) -> list[dict[str, str]]:
    """The rows of the members joining (name, HP, abilities), as the form holds them."""

    def text(field: str) -> str:
        for widget in screen.query(f"#{field}").results(Input):
            return widget.value.strip()
        return ""

    abilities = list(procedure.party.abilities) if procedure else []
    rows = []
    for number in range(count):
        row = {"name": text(f"m{number}-name"), "hp": text(f"m{number}-hp")}
        for ability in abilities:
            row[ability] = text(f"m{number}-ab-{safe_id(ability)}")
        rows.append(row)
    return rows


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
    for number, light in enumerate(bought):
        if not light["kind"]:
            if light["carrier"]:
                raise FormProblem("lights", f"Light {number + 1} needs a kind.", f"l{number}-kind")
            continue
        words = ["light", "add", light["kind"], f"count={light['count'] or '1'}"]
        carrier = light["carrier"]
        if carrier:
            match = next((n for n in names if n.casefold() == carrier.casefold()), None)
            if match is None:
                known = ", ".join(names) or "no one"
                raise FormProblem(
                    "lights",
                    f"{carrier} is not in the party (the party: {known}).",
                    f"l{number}-carrier",
                )
            words.append(f"carrier={match}")
        if light["lit"]:
            words.append("lit")
        try:
            made.append(commands.parse(shlex.join(words), usage=False))
        except CommandError as error:
            raise FormProblem("lights", error.message, f"l{number}-count") from None
    return made


def bought_lights(screen: DOMNode, count: int) -> list[dict[str, str]]:
    """The rows of the lights bought (kind, how many, who carries it, lit), as typed."""

    def text(field: str) -> str:
        for widget in screen.query(f"#{field}").results(Input):
            return widget.value.strip()
        return ""

    rows = []
    for number in range(count):
        kind = ""
        for select in screen.query(f"#l{number}-kind").results(Select):
            kind = "" if select.value is Select.NULL else str(select.value)
        lit = any(box.value for box in screen.query(f"#l{number}-lit").results(Checkbox))
        rows.append(
            {
                "kind": kind,
                "count": text(f"l{number}-count"),
                "carrier": text(f"l{number}-carrier"),
                "lit": "1" if lit else "",
            }
        )
    return rows


async def rebuild_rows(
    screen: DOMNode, procedure: Procedure | None, added: int, bought: int
) -> None:
    """The rows of the members joining and the lights bought, made again for another
    procedure (its abilities, its kinds of light), keeping what was typed."""
    members = new_members(screen, procedure, added)
    lights = bought_lights(screen, bought)
    heading = screen.query_one("#form-heading", Vertical)
    await heading.remove_children()
    await heading.mount_all(member_heading(procedure))
    box = screen.query_one("#form-members", Vertical)
    await box.remove_children()
    await box.mount_all(member_rows(procedure, added, members))
    kinds = procedure.lights if procedure else {}
    for light in lights:
        if light["kind"] not in kinds:
            light["kind"] = ""
    lights_box = screen.query_one("#form-lights", Vertical)
    await lights_box.remove_children()
    await lights_box.mount_all(light_rows(procedure, bought, lights))


def typed_hp(screen: DOMNode, members: list[str], planned: dict[str, str]) -> dict[str, str]:
    """The HP the game master typed over the plan's, by member (row by row, in order)."""
    typed = {}
    for number, name in enumerate(members):
        for field in screen.query(f"#c{number}-hp").results(Input):
            if field.value.strip() != planned.get(name, ""):
                typed[name] = field.value.strip()
    return typed
