"""The rows of the expedition forms (the new and the next), and the commands they add up to.

Each member and each light is a row of fields; ``party_commands`` reads the rows into the
commands that make the party and its lights, each checked by the command language.
"""

from __future__ import annotations

import re
import shlex

from rich.text import Text
from textual.containers import Horizontal, Vertical
from textual.dom import DOMNode
from textual.widget import Widget
from textual.widgets import Checkbox, Input, Label, Select, Static

from delvetui.core import commands
from delvetui.errors import CommandError
from delvetui.procedure.model import Procedure

_NUMBER = re.compile(r"^[+-]?[0-9]{1,6}$")
#: What a number field lets be typed: digits only, or with a sign in front (an ability).
DIGITS, SIGNED = r"[0-9]*", r"[+-]?[0-9]*"
#: The number fields of the forms, by the end of their id: the section that says what is
#: wrong, what the number is, and its least and most (the command language's).
NUMBERS: dict[str, tuple[str, str, int, int]] = {
    "-hp": ("party", "Hit points", 1, 9999),
    "-count": ("lights", "How many", 1, 999),
    "-amount": ("supplies", "How many", 1, 999),
    "form-dice": ("start", "Time dice", 1, 4),
}


def number_problem(field: str, value: str) -> tuple[str, str | None] | None:
    """What is wrong with a number as it is typed in the form's ``field`` (its section, and
    the sentence or None when it will do); None when the field holds no number."""
    if "-ab-" in field:
        ability = field.split("-ab-", 1)[1].upper()
        if value in ("+", "-"):
            return "party", f"{ability}: a sign, then digits."
        if value and not _NUMBER.match(value):
            return "party", f"{ability} is a whole number, e.g. 14."
        return "party", None
    found = next((rule for end, rule in NUMBERS.items() if field.endswith(end)), None)
    if found is None:
        return None
    section, what, least, most = found
    if not value:
        return section, None
    if not value.isdigit():
        return section, f"{what}: digits only, {least} to {most}."
    if not least <= int(value) <= most:
        return section, f"{what}: {int(value)} is out of range; {least} to {most}."
    return section, None


class FormProblem(Exception):
    """A problem with one field: which section shows it, and the sentence."""

    def __init__(self, section: str, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.section = section
        self.message = message
        self.field = field


def typed(form: DOMNode, field: str) -> str:
    """What is typed in the form's input ``field`` ('' when it has none)."""
    for widget in form.query(f"#{field}").results(Input):
        return widget.value.strip()
    return ""


def member_values(form: DOMNode, procedure: Procedure | None, count: int) -> list[dict[str, str]]:
    """The member rows as typed: name, HP and each of the procedure's abilities."""
    abilities = list(procedure.party.abilities) if procedure else []
    rows = []
    for number in range(count):
        row = {"name": typed(form, f"m{number}-name"), "hp": typed(form, f"m{number}-hp")}
        for ability in abilities:
            row[ability] = typed(form, f"m{number}-ab-{safe_id(ability)}")
        rows.append(row)
    return rows


def light_values(form: DOMNode, count: int) -> list[dict[str, str]]:
    """The light rows as typed: kind, how many, who carries it, lit."""
    rows = []
    for number in range(count):
        kind = ""
        for select in form.query(f"#l{number}-kind").results(Select):
            kind = "" if select.value is Select.NULL else str(select.value)
        lit = any(box.value for box in form.query(f"#l{number}-lit").results(Checkbox))
        rows.append(
            {
                "kind": kind,
                "count": typed(form, f"l{number}-count"),
                "carrier": typed(form, f"l{number}-carrier"),
                "lit": "1" if lit else "",
            }
        )
    return rows


async def remake_rows(
    form: DOMNode,
    procedure: Procedure | None,
    members: list[dict[str, str]],
    lights: list[dict[str, str]],
) -> None:
    """The member heading and rows and the light rows made again for ``procedure`` (its
    abilities, its kinds of light) with these values; a light of a kind it lacks loses it."""
    kinds = procedure.lights if procedure else {}
    for light in lights:
        if light["kind"] not in kinds:
            light["kind"] = ""
    heading = form.query_one("#form-heading", Vertical)
    await heading.remove_children()
    await heading.mount_all(member_heading(procedure))
    box = form.query_one("#form-members", Vertical)
    await box.remove_children()
    await box.mount_all(member_rows(procedure, len(members), members))
    lights_box = form.query_one("#form-lights", Vertical)
    await lights_box.remove_children()
    await lights_box.mount_all(light_rows(procedure, len(lights), lights))


class TickBox(Checkbox):
    """A checkbox whose state shows without colour: a tick when on, blank when off."""

    BUTTON_INNER = " "

    def __init__(self, label: str, value: bool = False, *, id: str | None = None) -> None:
        super().__init__(label, value, id=id, compact=True)
        self.BUTTON_INNER = "✔" if value else " "

    def watch_value(self) -> None:
        """Draw the tick (or take it away), then tell the form as a checkbox does."""
        self.BUTTON_INNER = "✔" if self.value else " "
        super().watch_value()
        self.refresh()


def safe_id(text: str) -> str:
    """The text as a widget id: letters, digits, _ and - only."""
    return re.sub(r"[^A-Za-z0-9_-]", "_", text)


#: The cells a line of the party's fields may take: the form at 80 columns, less its padding.
LINE_CELLS = 74
#: The name's and the hit points' cells in a member's line.
NAME_CELLS = 16
HP_CELLS = 5


def ability_cells(ability: str) -> int:
    """The cells an ability's field takes: its name (the column's heading) or three digits,
    and room for the cursor."""
    return max(len(ability), 3) + 2


def ability_lines(abilities: list[str]) -> list[list[str]]:
    """The abilities split into lines that fit the form at 80 columns: the first after the
    name and hit points, the next under the first (every ability reachable at every width)."""
    lines: list[list[str]] = [[]]
    used = NAME_CELLS + HP_CELLS + 2
    for ability in abilities:
        cells = ability_cells(ability) + 1
        if lines[-1] and used + cells > LINE_CELLS:
            lines.append([])
            used = NAME_CELLS + HP_CELLS + 2
        lines[-1].append(ability)
        used += cells
    return lines


def _sized(widget: Widget, cells: int) -> Widget:
    widget.styles.width = cells
    return widget


def _indent() -> Widget:
    return _sized(Static("", classes="indent"), NAME_CELLS + HP_CELLS + 1)


def member_heading(procedure: Procedure | None) -> list[Widget]:
    """The headings over the members' fields: name, HP and each ability, in columns."""
    abilities = list(procedure.party.abilities) if procedure else []
    rows: list[Widget] = []
    for number, line in enumerate(ability_lines(abilities)):
        cells: list[Widget] = (
            [
                _sized(Label("Name"), NAME_CELLS),
                _sized(Label("HP"), HP_CELLS),
            ]
            if number == 0
            else [_indent()]
        )
        cells += [_sized(Label(ability.upper()), ability_cells(ability)) for ability in line]
        rows.append(Horizontal(*cells, classes="member-line member-head"))
    return rows


def member_rows(
    procedure: Procedure | None,
    count: int,
    values: list[dict[str, str]] | None = None,
    *,
    first: int = 0,
) -> list[Widget]:
    """The fields of each member of the party: name, hit points, abilities, in columns
    under ``member_heading`` (the abilities on more lines where they do not fit in one).

    Rows ``first`` to ``count - 1`` (a row added to the form is mounted alone).
    """
    abilities = list(procedure.party.abilities) if procedure else []
    hp = str(procedure.party.default_hp) if procedure else "6"
    rows: list[Widget] = []
    for number in range(first, count):
        given = values[number] if values and number < len(values) else {}
        for line_number, line in enumerate(ability_lines(abilities)):
            fields: list[Widget] = []
            if line_number == 0:
                fields += [
                    _sized(
                        Input(
                            given.get("name", ""),
                            placeholder=f"member {number + 1}",
                            id=f"m{number}-name",
                            classes="name",
                            max_length=40,
                            compact=True,
                        ),
                        NAME_CELLS,
                    ),
                    _sized(
                        Input(
                            given.get("hp", hp),
                            placeholder="HP",
                            id=f"m{number}-hp",
                            classes="tiny",
                            compact=True,
                            restrict=DIGITS,
                            max_length=4,
                        ),
                        HP_CELLS,
                    ),
                ]
            else:
                fields.append(_indent())
            for ability in line:
                fields.append(
                    _sized(
                        Input(
                            given.get(ability, ""),
                            placeholder=ability.upper()[: ability_cells(ability) - 1],
                            id=f"m{number}-ab-{safe_id(ability)}",
                            classes="tiny",
                            tooltip=Text(ability.upper()),
                            compact=True,
                            restrict=SIGNED,
                            max_length=4,
                        ),
                        ability_cells(ability),
                    )
                )
            rows.append(Horizontal(*fields, classes="member-line"))
    return rows


def chosen_row(
    choices: list[tuple[Text, str]],
    chosen: str,
    ids: tuple[str, str, str],
    *,
    prompt: str,
    amount: str,
    whom: str,
    placeholder: str,
) -> list[Widget]:
    """What a light's row and a supply's row share: the kind picked, how many (digits
    only), and who it is for."""
    known = {value for _, value in choices}
    select: Select[str] = Select(
        choices,
        prompt=prompt,
        id=ids[0],
        classes="kind",
        value=chosen if chosen in known else Select.NULL,
        compact=True,
    )
    count = Input(
        amount,
        id=ids[1],
        classes="tiny",
        compact=True,
        tooltip=Text("how many"),
        restrict=DIGITS,
        max_length=3,
    )
    who = Input(whom, placeholder=placeholder, id=ids[2], classes="name", compact=True)
    return [select, count, who]


def light_rows(
    procedure: Procedure | None,
    count: int,
    values: list[dict[str, str]] | None = None,
    *,
    first: int = 0,
) -> list[Widget]:
    """The fields of each light: kind, how many, who carries it, lit or not.

    Rows ``first`` to ``count - 1`` (a row added to the form is mounted alone).
    """
    kinds = list(procedure.lights.items()) if procedure else []
    rows: list[Widget] = []
    for number in range(first, count):
        given = values[number] if values and number < len(values) else {}
        default = given.get("kind") or (kinds[number][0] if number < len(kinds) else "")
        choices = [(Text(kind.label), kind_id) for kind_id, kind in kinds]
        rows.append(
            Horizontal(
                *chosen_row(
                    choices,
                    default,
                    (f"l{number}-kind", f"l{number}-count", f"l{number}-carrier"),
                    prompt="kind",
                    amount=given.get("count", "1"),
                    whom=given.get("carrier", ""),
                    placeholder="carried by",
                ),
                TickBox("lit", given.get("lit") == "1", id=f"l{number}-lit"),
                classes="form-row",
            )
        )
    return rows


def party_commands(
    procedure: Procedure, members: list[dict[str, str]], lights: list[dict[str, str]]
) -> list[commands.Command]:
    """The commands that make the party and its lights the form's rows describe.

    What was typed in a row is read by the command language's parser; raises FormProblem
    for the first problem, with the field it is about.
    """
    made: list[commands.Command] = []
    names: list[str] = []
    for number, member in enumerate(members):
        given = {key: value for key, value in member.items() if value and key != "hp"}
        if not member["name"]:
            if given:
                raise FormProblem("party", f"Member {number + 1} needs a name.", f"m{number}-name")
            continue
        if member["name"].casefold() in (n.casefold() for n in names):
            raise FormProblem(
                "party", f"Two members are called {member['name']}.", f"m{number}-name"
            )
        words = ["pc", "add", member["name"], f"hp={member['hp']}"]
        for ability in procedure.party.abilities:
            value = member.get(ability, "")
            if not value:
                continue
            if not _NUMBER.match(value):
                raise FormProblem(
                    "party",
                    f"{member['name']}'s {ability.upper()} must be a whole number.",
                    f"m{number}-ab-{safe_id(ability)}",
                )
            words.append(f"{ability.lower()}={value}")
        made.append(_checked("party", shlex.join(words), f"m{number}-hp"))
        names.append(member["name"])
    made.extend(light_commands(lights, names))
    return made


def light_commands(lights: list[dict[str, str]], names: list[str]) -> list[commands.Command]:
    """The commands adding the lights the form's light rows describe, each carried by one
    of ``names`` (or by no one); raises FormProblem for the first problem, with its field."""
    made: list[commands.Command] = []
    for number, light in enumerate(lights):
        if not light["kind"]:
            if light["carrier"]:
                raise FormProblem("lights", f"Light {number + 1} needs a kind.", f"l{number}-kind")
            continue
        words = ["light", "add", light["kind"], f"count={light['count'] or '1'}"]
        carrier = light["carrier"]
        if carrier:
            match = next((n for n in names if n.casefold() == carrier.casefold()), None)
            if match is None:
                known = ", ".join(names) or "no one yet"
                raise FormProblem(
                    "lights",
                    f"{carrier} is not in the party (the party: {known}).",
                    f"l{number}-carrier",
                )
            words.append(f"carrier={match}")
        if light["lit"]:
            words.append("lit")
        made.append(_checked("lights", shlex.join(words), f"l{number}-count"))
    return made


def _checked(section: str, text: str, field: str) -> commands.Command:
    """The command of what was typed in a row of the form, read by the parser."""
    try:
        return commands.parse(text, usage=False)
    except CommandError as error:
        raise FormProblem(section, error.message, field) from None


def supply_rows(
    procedure: Procedure | None,
    count: int,
    values: list[dict[str, str]] | None = None,
    *,
    first: int = 0,
) -> list[Widget]:
    """The fields of each supply bought (oil, rations, arrows: the procedure's resources):
    which, how many, and for whom (blank: each member, or the party's stock).

    Rows ``first`` to ``count - 1`` (a row added to the form is mounted alone).
    """
    resources = list(procedure.resources.items()) if procedure else []
    rows: list[Widget] = []
    for number in range(first, count):
        given = values[number] if values and number < len(values) else {}
        choices = [(Text(resource.label), resource_id) for resource_id, resource in resources]
        rows.append(
            Horizontal(
                *chosen_row(
                    choices,
                    given.get("resource", ""),
                    (f"s{number}-resource", f"s{number}-amount", f"s{number}-for"),
                    prompt="supply",
                    amount=given.get("amount", "1"),
                    whom=given.get("for", ""),
                    placeholder="for (blank: each)",
                ),
                classes="form-row",
            )
        )
    return rows


def supply_values(form: DOMNode, count: int) -> list[dict[str, str]]:
    """The supply rows as typed: which resource, how many, for whom."""
    rows = []
    for number in range(count):
        resource = ""
        for select in form.query(f"#s{number}-resource").results(Select):
            resource = "" if select.value is Select.NULL else str(select.value)
        rows.append(
            {
                "resource": resource,
                "amount": typed(form, f"s{number}-amount"),
                "for": typed(form, f"s{number}-for"),
            }
        )
    return rows


def supply_commands(
    procedure: Procedure, supplies: list[dict[str, str]], names: list[str]
) -> list[commands.Command]:
    """The commands giving the supplies bought: to the member named, to each member where
    none is, or to the party's stock for a resource the party keeps as one. Raises
    FormProblem for the first problem, with its field."""
    made: list[commands.Command] = []
    for number, row in enumerate(supplies):
        resource_id = row["resource"]
        if not resource_id:
            if row["for"]:
                raise FormProblem(
                    "supplies", f"Supply {number + 1} needs a kind.", f"s{number}-resource"
                )
            continue
        amount = row["amount"] or "1"
        resource = procedure.resources[resource_id]
        if resource.per == "party":
            made.append(_checked("supplies", f"party +{amount} {resource_id}", f"s{number}-amount"))
            continue
        given = row["for"]
        if given:
            match = next((n for n in names if n.casefold() == given.casefold()), None)
            if match is None:
                known = ", ".join(names) or "no one yet"
                raise FormProblem(
                    "supplies",
                    f"{given} is not in the party (the party: {known}).",
                    f"s{number}-for",
                )
            whom = [match]
        else:
            whom = names
        for name in whom:
            words = shlex.join(["pc", name, f"+{amount}", resource_id])
            made.append(_checked("supplies", words, f"s{number}-amount"))
    return made
