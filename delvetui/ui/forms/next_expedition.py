"""The next expedition's form: continue from an ended one, after a downtime.

Prefilled from :func:`delvetui.application.campaign.next_plan`: the expedition it continues,
the downtime, the party as it will carry (HP after the downtime; a member can be left out,
an HP overridden, new members added), the lights carried home (unlit, with rows for the
ones bought in town) and what does not carry. The plan is worked out again, with the same
seed, whenever what it depends on changes, so what the form shows is what Create makes
(:func:`delvetui.application.campaign.create_next`, all or nothing).
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.widgets import Button, Checkbox, Input, Label, Select, Static

from delvetui import paths
from delvetui.core import commands
from delvetui.core.calendar import moment_for
from delvetui.core.decide import new_seed
from delvetui.core.log import span_text
from delvetui.core.state import MINUTES_PER_DAY
from delvetui.errors import CommandError, DelveError, StoreError
from delvetui.procedure import registry
from delvetui.procedure.model import Procedure
from delvetui.text import counted, visible
from delvetui.ui.forms.expedition_form import ExpeditionForm, name_problem
from delvetui.ui.forms.form_rows import (
    FormProblem,
    light_rows,
    light_values,
    member_heading,
    member_rows,
    member_values,
    supply_commands,
    supply_rows,
    supply_values,
    typed,
)
from delvetui.ui.forms.next_rows import (
    carried_row,
    light_words,
    lights_commands,
    member_about,
    rebuild_rows,
    typed_hp,
)
from delvetui.ui.key_footer import KeyFooter

if TYPE_CHECKING:
    from delvetui.application.campaign import NextPlan, Predecessor

#: The downtime the form starts with: a week in town.
DEFAULT_DOWNTIME = "7d"
#: The hour the form starts with: the party sets out in the morning after its downtime,
#: not at the hour the last expedition happened to end (the form says the day and hour).
DEFAULT_START = "08:00"
_NUMBERED = re.compile(r"^(.*?)-([0-9]{1,4})$")
_DAY = re.compile(r"day\s*([0-9]{1,5})")


def suggested_name(predecessor: str) -> str:
    """A free name for the next expedition: barrow → barrow-2, barrow-2 → barrow-3."""
    found = _NUMBERED.match(predecessor)
    stem, number = (found.group(1), int(found.group(2)) + 1) if found else (predecessor, 2)
    for tried in range(number, number + 1000):
        name = f"{stem}-{tried}"
        try:
            if not paths.new_expedition_path(name).exists():
                return name
        except StoreError:
            break
    return ""


def summary_text(plan: NextPlan | None, problem: str) -> Text:
    """When the next expedition starts and how long the rest was (or what is wrong)."""
    if plan is None:
        return Text(problem)
    rest = counted(plan.downtime // MINUTES_PER_DAY, "whole day")
    return Text(
        f"Starts {moment_for(plan.state, plan.procedure)}, after {span_text(plan.downtime)} "
        f"of downtime ({rest} of rest heal)."
    )


def lights_text(plan: NextPlan | None) -> Text:
    """The lights carried home, one a line."""
    if plan is None:
        return Text("")
    procedure = plan.procedure
    lights = [light_words(x, procedure) for x in plan.state.lights if not x.spent]
    return Text("\n".join(lights) or "none")


def notes_text(plan: NextPlan | None) -> Text:
    """The plan's notes, one a line: what does not carry, who comes along at 0 HP."""
    if plan is None:
        return Text("")
    return Text("\n".join(f"· {note}" for note in plan.notes) or "Everything carries.")


class NextExpeditionScreen(ExpeditionForm):
    """The form of the expedition after an ended one; nothing is written until Create."""

    AUTO_FOCUS = "#next-name"
    KEEP = "downtime-message"
    """The plan's summary stays when the messages are cleared."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="next-cancel"),
        Binding("ctrl+s", "create", "Create", id="next-create"),
        Binding("ctrl+n", "add_member", "Add member", id="next-add-member"),
        Binding("ctrl+l", "add_light", "Add light", id="next-add-light"),
        Binding("ctrl+o", "add_supply", "Add supplies", id="next-add-supply"),
    ]
    """Keys of the form (Tab moves between fields)."""

    class Create(Message):
        """Make this plan's expedition, then run these commands in it."""

        def __init__(self, plan: NextPlan, made: list[commands.Command]) -> None:
            super().__init__()
            self.plan = plan
            self.commands = made

    class Cancelled(Message):
        """The game master left the form; nothing was created."""

    def __init__(self, predecessor: Path) -> None:
        # One row for a member joining in town; a row for each light bought (Add light:
        # none made unasked).
        super().__init__(members=1, lights=0, supplies=0)
        self.predecessor = predecessor
        #: One seed for every plan, so healing dice come out as shown each time.
        self.seed = new_seed()
        self.entries = [e for e in registry.entries() if e.procedure is not None]
        self.plan: NextPlan | None = None
        #: The predecessor's surviving members, in order (those left out stay listed).
        self.members: list[str] = []
        #: Each member's HP as the last plan gave it: a field that differs is overridden.
        self.planned_hp: dict[str, str] = {}
        #: What the plan was made from: (from, downtime, start, procedure, left out).
        self.planned_with: tuple[str, str, str, str, tuple[str, ...]] | None = None
        self.problem = ""
        #: The section the problem is shown beside: 'from' (the predecessor) or 'downtime'.
        self.problem_section = "from"
        self._read: dict[Path, Predecessor] = {}
        self._make_plan(predecessor.stem, DEFAULT_DOWNTIME, "", "", ())

    # The plan ----------------------------------------------------------------------------

    def _make_plan(
        self,
        source: str,
        downtime: str,
        start: str,
        procedure: str,
        leave: tuple[str, ...],
        *,
        name: str = "next",
    ) -> NextPlan | None:
        """The plan from these fields ('' procedure: the one the predecessor ended with)."""
        from delvetui.application.campaign import next_plan, read_predecessor

        chosen = next((e.procedure for e in self.entries if e.id == procedure), None)
        # "day 12" names the date it starts on instead of a downtime.
        dated = _DAY.fullmatch(downtime.strip().lower())
        day = int(dated.group(1)) if dated else None
        try:
            path = paths.find_expedition(source) if source else self.predecessor
            # Each predecessor is read (and checked) once; every plan after is worked out
            # from what was read.
            if path not in self._read:
                self._read[path] = read_predecessor(path)
            plan = next_plan(
                self._read[path],
                name,
                downtime=None if day else downtime or None,
                day=day,
                procedure=chosen,
                start=start or None,
                leave=leave,
                seed=self.seed,
            )
        except DelveError as error:
            self.problem = error.message
            self.plan = None
            return None
        self.problem = ""
        if self.plan is None or path != self.plan.predecessor:
            self.members = [member.name for member in plan.state.party]
            self.members += [name for name in leave if name not in self.members]
        self.plan = plan
        self.planned_hp.update({m.name: str(m.hp) for m in plan.state.party})
        self.planned_with = (source, downtime, start, procedure, leave)
        return plan

    @property
    def procedure(self) -> Procedure | None:
        """The procedure the next expedition follows (the predecessor's unless chosen)."""
        return self.plan.procedure if self.plan is not None else None

    # Layout ------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        """The form's sections, filled from the plan (``layout``)."""
        yield from layout(self)

    def carried_rows(self) -> list[Horizontal]:
        """A row for each member of the predecessor's party (carried, or left behind)."""
        plan = self.plan
        party = {m.name: m for m in plan.state.party} if plan else {}
        return [
            carried_row(number, name, party.get(name), self.planned_hp.get(name, ""))
            for number, name in enumerate(self.members)
        ]

    def on_mount(self) -> None:
        """Focus the name; say at once when the predecessor cannot be continued; note the
        form as it opened (Escape asks once something changed)."""
        self.query_one("#next-name", Input).focus()
        if self.plan is None:
            self.failed("from", self.problem, "next-from")
        self.call_after_refresh(self.remember)

    # Reading the form --------------------------------------------------------------------

    def _inputs(self) -> tuple[str, str, str, str, tuple[str, ...]]:
        select = self.query_one("#next-procedure", Select)
        procedure = "" if select.value is Select.NULL else str(select.value)
        leave = tuple(
            name
            for number, name in enumerate(self.members)
            if not self.query_one(f"#c{number}-carry", Checkbox).value
        )
        return (
            typed(self, "next-from"),
            typed(self, "next-downtime"),
            typed(self, "next-start"),
            procedure,
            leave,
        )

    async def replan(self) -> None:
        """Work the plan out again from the fields, and show it (the GM's HP kept)."""
        inputs = self._inputs()
        if self.planned_with is not None and inputs == self.planned_with:
            return
        hp_typed = typed_hp(self, self.members, self.planned_hp)
        before = self.plan
        old_members = list(self.members)
        plan = self._make_plan(*inputs)
        if plan is None:
            source = self.planned_with[0] if self.planned_with else self.predecessor.stem
            self.problem_section = "downtime" if inputs[0] == source else "from"
            self.failed(self.problem_section, self.problem)
            return
        self.clear()
        self.query_one("#downtime-message", Static).update(summary_text(self.plan, self.problem))
        if before is None or plan.predecessor != before.predecessor or old_members != self.members:
            hp_typed = {}
            box = self.query_one("#next-party", Vertical)
            await box.remove_children()
            await box.mount_all(self.carried_rows())
        else:
            party = {m.name: m for m in plan.state.party}
            for number, name in enumerate(self.members):
                hp = self.query_one(f"#c{number}-hp", Input)
                hp.value = hp_typed.get(name) or self.planned_hp.get(name, "")
                about = self.query_one(f"#c{number}-about", Static)
                about.update(member_about(party.get(name)))
        if before is not None and plan.procedure.id != before.procedure.id:
            await rebuild_rows(
                self, self.procedure, self.member_rows, self.light_rows, self.supply_rows
            )
        self.query_one("#next-lights", Static).update(lights_text(self.plan))
        self.query_one("#next-notes", Static).update(notes_text(self.plan))

    def read(self) -> NextExpeditionScreen.Create:
        """The expedition the form describes; raises FormProblem for the first problem."""
        name = typed(self, "next-name")
        wrong = name_problem(name, "next-name")
        if wrong is not None:
            raise wrong
        plan = self.plan
        if plan is None or self._inputs() != self.planned_with:
            raise FormProblem(
                self.problem_section,
                self.problem or "The plan is being worked out again: look at it, then Create.",
                f"next-{self.problem_section}",
            )
        # The same seed and fields: the plan shown, made for this name.
        plan = self._make_plan(*self.planned_with, name=name)
        if plan is None:
            raise FormProblem("from", self.problem, "next-from")
        made: list[commands.Command] = []
        carried = [m.name for m in plan.state.party]
        hp_typed = typed_hp(self, self.members, self.planned_hp)
        for number, member in enumerate(self.members):
            if member in hp_typed and member in carried:
                value = hp_typed[member]
                if not value.isdigit():
                    raise FormProblem(
                        "party", f"{member}'s HP must be a whole number.", f"c{number}-hp"
                    )
                made.append(_parsed("party", shlex.join(["pc", member, f"hp={value}"])))
        assert plan.procedure is not None
        joining = member_values(self, plan.procedure, self.member_rows)
        made += lights_commands(
            plan.procedure, joining, carried, light_values(self, self.light_rows)
        )
        names = [*carried, *(row["name"] for row in joining if row["name"])]
        supplies = supply_values(self, self.supply_rows)
        made += supply_commands(plan.procedure, supplies, names)
        return self.Create(plan, made)

    async def on_input_blurred(self, event: Input.Blurred) -> None:
        """Leaving the 'continue from', the downtime or the start works the plan out again."""
        if event.input.id in ("next-from", "next-downtime", "next-start"):
            await self.replan()

    async def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter works the plan out again (from those fields) and moves on."""
        event.stop()
        await self.replan()
        self.focus_next()

    async def on_select_changed(self, event: Select.Changed) -> None:
        """Another procedure: the plan again, and the rows for its abilities and lights."""
        if event.select.id == "next-procedure":
            await self.replan()

    async def on_checkbox_changed(self, event: Checkbox.Changed) -> None:
        """A member ticked or unticked: the plan again (their lights stay or go with them)."""
        if (event.checkbox.id or "").endswith("-carry"):
            await self.replan()


def layout(screen: NextExpeditionScreen) -> ComposeResult:
    """The form's sections, filled from the plan."""
    plan = screen.plan
    name = visible(screen.predecessor.stem)
    with VerticalScroll(id="form", classes="next-form"):
        yield Static(Text(f"Next expedition after {name}"), id="form-title")
        yield Label("Name")
        yield Input(suggested_name(screen.predecessor.stem), id="next-name", compact=True)
        yield Static("", classes="form-message", id="name-message")
        yield Label("Continue from (an ended expedition: the party, lights and date carry)")
        yield Input(screen.predecessor.stem, id="next-from", compact=True)
        yield Static("", classes="form-message", id="from-message")
        yield Label("Downtime (7d, 36h) or the day (day 12); start (HH:MM: the first after it)")
        with Horizontal(classes="form-row"):
            yield Input(DEFAULT_DOWNTIME, id="next-downtime", classes="short", compact=True)
            yield Input(
                DEFAULT_START, placeholder="HH:MM", id="next-start", classes="short", compact=True
            )
        summary = summary_text(screen.plan, screen.problem)
        yield Static(summary, classes="form-message", id="downtime-message")
        yield Label("Procedure")
        ended = f"{plan.procedure.name}, as {name} ended" if plan else "as it ended"
        choices = [(Text(ended), "")]
        choices += [(Text(e.procedure.name), e.id) for e in screen.entries if e.procedure]
        yield Select(choices, value="", allow_blank=False, id="next-procedure", compact=True)
        yield Label("Party as it carries (untick to leave behind; HP after the downtime)")
        yield Vertical(*screen.carried_rows(), id="next-party")
        yield Label("New members", classes="form-section")
        yield Vertical(*member_heading(screen.procedure), id="form-heading")
        yield Vertical(*member_rows(screen.procedure, screen.member_rows), id="form-members")
        yield Button("Add member (ctrl+n)", id="form-add-member", compact=True)
        yield Static("", classes="form-message", id="party-message")
        yield Label("Lights carried home (unlit)", classes="form-section")
        yield Static(lights_text(screen.plan), id="next-lights")
        yield Label("Lights bought in town (Add light for each kind bought)")
        yield Vertical(*light_rows(screen.procedure, screen.light_rows, first=0), id="form-lights")
        yield Button("Add light (ctrl+l)", id="form-add-light", compact=True)
        yield Static("", classes="form-message", id="lights-message")
        yield Label(
            "Supplies bought in town (oil, rations…: for a member, or blank for each)",
            classes="form-section",
        )
        yield Vertical(*supply_rows(screen.procedure, screen.supply_rows), id="form-supplies")
        yield Button("Add supplies (ctrl+o)", id="form-add-supply", compact=True)
        yield Static("", classes="form-message", id="supplies-message")
        yield Label("Notes: what does not carry, who comes along at 0 HP", classes="form-section")
        yield Static(notes_text(screen.plan), id="next-notes")
        with Horizontal(classes="dialog-buttons"):
            yield Button("Create (ctrl+s)", id="form-create", variant="primary")
            yield Button("Cancel (esc)", id="form-cancel")
    yield KeyFooter(fit=True)


def _parsed(section: str, text: str) -> commands.Command:
    try:
        return commands.parse(text, usage=False)
    except CommandError as error:
        raise FormProblem(section, error.message) from None
