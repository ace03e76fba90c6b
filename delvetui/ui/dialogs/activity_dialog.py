"""Choose a character's activity within the turn (``do ACTIVITY by=NAME``): who, then what.

Where each member takes their own share of the turn (``party.activities_each``), the
member is chosen first, then one of the activities of this kind of turn; elsewhere the
activity is chosen, and the core asks who does it when the activity needs a member. What
the activity needs from the table (an input, a die with table dice on) is asked as for any
command. Each choice is checked first, through the core (``application.dry_run``): a
member or an activity the core would refuse now is shown greyed, with the reason, and
when nothing can be done the key says why before asking anything.
"""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual.app import App, ComposeResult
from textual.containers import Vertical
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from delvetui.application.dry_run import refusal
from delvetui.core import commands as cmd
from delvetui.core.state import State
from delvetui.procedure.model import Action, Procedure
from delvetui.procedure.tree import iter_effects
from delvetui.text import visible
from delvetui.ui.dialogs.list_dialog import Choices, PickDialog, numbered

#: The hint under both pickers.
HINT = "a digit, the first letters, or ↑↓ and enter · esc close (nothing is saved)"


def activity_command(activity: str, member: str | None) -> cmd.DoActivity:
    """The command of the activity done by the member (the core asks who when none)."""
    values = (("by", member),) if member else ()
    return cmd.DoActivity(activity=activity, values=values)


def inputs_text(activity: Action) -> str:
    """What the activity asks for, in words ('' when nothing)."""
    asked = [
        f"{wanted.label or key} ({'/'.join(wanted.values)})" if wanted.values else wanted.label
        for key, wanted in activity.inputs.items()
        if key != "by"
    ]
    return f"asks {'; '.join(asked)}" if asked else ""


#: The answer of the member picker for "each member" (an activity done by everyone).
EACH = "+each"


def names_member(activity: Action) -> tuple[bool, bool]:
    """Whether the activity is about one member (a check by them, a test of their
    ability), and whether it may be done by each member instead (``by-or-each``)."""
    effects = list(iter_effects(activity.effects))
    one = any(
        effect.target == "by" or (effect.when is not None and effect.when.about_member)
        for effect in effects
    )
    each = any(effect.target == "by-or-each" for effect in effects)
    return one or each, each and not one


class ActivityFlow:
    """The activity key's questions for one state: who can do what now, and why not."""

    def __init__(self, state: State, procedure: Procedure) -> None:
        self.state = state
        self.procedure = procedure
        self.activities = procedure.activities_in(state.turn_type)
        #: Who first: each member has their own share of the turn.
        self.member_first = procedure.party.activities_each is not None and bool(state.party)
        members = [m.name for m in state.party] if self.member_first else [""]
        #: Why the core refuses each (member, activity) now; None where it may be done.
        self.why: dict[tuple[str, str], str | None] = {
            (member, name): refusal(state, procedure, activity_command(name, member or None))
            for member in members
            for name in self.activities
        }

    def refusal(self) -> str | None:
        """Why no one can do any activity now (the core's sentence), or None."""
        reasons = list(self.why.values())
        if any(reason is None for reason in reasons):
            return None
        return next((reason for reason in reasons if reason), None)

    def member_refusal(self, member: str) -> str | None:
        """Why the member can do no activity now, or None."""
        reasons = [self.why[member, name] for name in self.activities]
        if any(reason is None for reason in reasons):
            return None
        return next((reason for reason in reasons if reason), None)

    def reasons(self, activity: str | None) -> dict[str, str | None]:
        """Why each member cannot act now: any activity (who first), or this one."""
        if activity is None:
            return {m.name: self.member_refusal(m.name) for m in self.state.party}
        return {
            m.name: refusal(self.state, self.procedure, activity_command(activity, m.name))
            for m in self.state.party
        }

    def start(self, app: App[object], run: Callable[[cmd.Command], None]) -> None:
        """Ask who (where each has a share), then what; run the activity chosen."""

        def what(member: str) -> None:
            def chosen(name: str | None) -> None:
                if name is None:
                    return
                if member or not self._asks_who(name):
                    run(activity_command(name, member or None))
                    return
                _, each = names_member(self.activities[name])

                def then_who(who: str | None) -> None:
                    if who is not None:
                        run(activity_command(name, None if who == EACH else who))

                app.push_screen(MemberPick(self, name, each=each), then_who)

            app.push_screen(ActivityDialog(self, member), chosen)

        if not self.member_first:
            what("")
            return

        def who(member: str | None) -> None:
            if member is not None:
                what(member)

        app.push_screen(MemberPick(self), who)

    def _asks_who(self, activity: str) -> bool:
        """The activity chosen first is about one member, and there is more than one."""
        return names_member(self.activities[activity])[0] and len(self.state.party) > 1


class MemberPick(PickDialog):
    """Who does an activity: the party, each member's hit points; one who cannot act now
    is greyed with the reason."""

    LIST_ID = "activity-member-list"

    def __init__(self, flow: ActivityFlow, activity: str | None = None, *, each: bool = False):
        super().__init__()
        self.flow = flow
        #: The activity already chosen (None: who acts comes first).
        self.activity = activity
        #: Offer "each member" too (an activity done by one member or by everyone).
        self.each = each
        self.why = flow.reasons(activity)

    def compose(self) -> ComposeResult:
        """One option per member (and "each member" where the activity allows it)."""
        options: list[Option] = []
        for member in self.flow.state.party:
            row = Text()
            row.append(visible(member.name), "bold")
            row.append(f"  {member.hp}/{member.max_hp} HP", "dim")
            why = self.why[member.name]
            if why:
                row.append(f"\n    {visible(why)}", "italic")
            options.append(
                Option(numbered(len(options), row), id=member.name, disabled=why is not None)
            )
        if self.each:
            options.append(Option(numbered(len(options), Text("Each member")), id=EACH))
        turn = self.flow.procedure.turn_name(self.flow.state.turn_type)
        if self.activity is None:
            title = f"Who acts this {turn}?"
        else:
            title = f"{self.flow.activities[self.activity].label}: who does it?"
        yield from self.framed(title, options, HINT, wide=True)

    def on_mount(self) -> None:
        """Focus the list on the first member who can act."""
        names = [m.name for m in self.flow.state.party]
        free = [name for name in names if self.why[name] is None]
        self.focus_list(names, free[0] if free else None)


class ActivityDialog(PickDialog):
    """The activities of this kind of turn, one a line with what each asks, and what the
    highlighted one does under the list; Enter does it."""

    LIST_ID = "activity-list"

    def __init__(self, flow: ActivityFlow, member: str = "") -> None:
        super().__init__()
        self.flow = flow
        self.member = member

    def compose(self) -> ComposeResult:
        """One option per activity (greyed, with the reason, where it is refused now)."""
        activities = self.flow.activities
        width = max((len(activity.label) for activity in activities.values()), default=0)
        options: list[Option] = []
        for name, activity in activities.items():
            row = Text()
            row.append(visible(activity.label).ljust(width), "bold")
            asked = inputs_text(activity)
            if asked:
                row.append(f"  {visible(asked)}", "dim")
            why = self.flow.why[self.member, name]
            if why:
                row.append(f"\n    {visible(why)}", "italic")
            options.append(Option(numbered(len(options), row), id=name, disabled=why is not None))
        title = f"What does {self.member} do?" if self.member else "Which activity?"
        with Vertical(classes="dialog -wide"):
            yield Static(Text(visible(title)), classes="dialog-title")
            yield Choices(*options, id=self.LIST_ID)
            yield Static("", id="activity-text", classes="dialog-prompt")
            yield Static(Text(HINT), classes="dialog-hint")

    def on_mount(self) -> None:
        """Focus the list on the first activity that can be done."""
        names = list(self.flow.activities)
        free = [name for name in names if self.flow.why[self.member, name] is None]
        self.focus_list(names, free[0] if free else None)

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        """Under the list, what the highlighted activity does (one line each above)."""
        activity = self.flow.activities.get(event.option.id or "")
        text = activity.text if activity is not None else ""
        self.query_one("#activity-text", Static).update(Text(visible(text), "dim"))
