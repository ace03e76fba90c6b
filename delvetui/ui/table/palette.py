"""The command palette (ctrl+p): every command of the table and every action of the procedure."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial

from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.content import Content
from textual.fuzzy import Matcher

from delvetui.core import commands as cmd
from delvetui.core.commands import GRAMMAR
from delvetui.text import plural
from delvetui.ui.table import messages
from delvetui.ui.table.ending import DEFAULT_WORDS
from delvetui.ui.table.screen import TableScreen

Entry = tuple[str, str, Callable[[], object]]


def entries(screen: TableScreen) -> Iterator[Entry]:
    """What the palette offers on the table: (name, help, what it does)."""
    procedure = screen.procedure
    state = screen.state
    for binding in screen.key_bindings():
        key = binding.key_display or binding.key
        yield (
            binding.description,
            f"{binding.tooltip or binding.description} (key {key})",
            partial(screen.run_action, binding.action),
        )
    for name, action in procedure.actions_in(state.turn_type).items():
        yield (
            f"Turn: {action.label}",
            action.text or f"take a turn with {name}",
            partial(screen.take_turn, name),
        )
    for name, activity in procedure.activities_in(state.turn_type).items():
        yield (
            f"Do: {activity.label}",
            activity.text or f"do {name}",
            partial(screen.action_command_line, f"do {name} "),
        )
    for light in state.lights:
        if light.spent:
            continue
        switch, word = (
            (cmd.LightOff(target=light.id), "Put out")
            if light.lit
            else (cmd.LightOn(target=light.id), "Light")
        )
        yield (f"{word} {light.id}", cmd.spoken(switch), partial(screen.run, switch))
    for turn_type, kind in procedure.turn_types.items():
        if turn_type != state.turn_type:
            enter = cmd.EnterTurnType(turn_type=turn_type)
            yield (f"Enter: {plural(kind.label)}", cmd.spoken(enter), partial(screen.run, enter))
    for name, counter in procedure.counters.items():
        # A counter with named levels: one entry a level it is not at now.
        now = counter.level_of(state.counter(name))
        for level in counter.levels:
            if level != now:
                move = cmd.SetCounter(counter=name, value=level)
                yield (f"{counter.label}: {level}", cmd.spoken(move), partial(screen.run, move))
    if state.adventures:
        key = screen.key_map.key_of("tables")
        yield (
            "Encounter tables…",
            f"add, change or take out a row of the adventure's tables (key {key})",
            partial(screen.run_action, "tables"),
        )
    yield from ending_entries(screen)
    start, end = cmd.Session(start=True), cmd.Session(start=False)
    if state.in_session:
        yield ("End the session", cmd.spoken(end), partial(screen.run, end))
        yield (
            "End the session and start the next",
            f"{cmd.spoken(end)}, then {cmd.spoken(start)} (session {state.session + 1})",
            partial(screen.run, end, then=[start]),
        )
    else:
        yield (
            "Start a session",
            f"{cmd.spoken(start)} (session {state.session + 1})",
            partial(screen.run, start),
        )
    for name, usage, line in grammar_entries():
        yield (name, usage, partial(screen.action_command_line, line))


def ending_entries(screen: TableScreen) -> Iterator[Entry]:
    """End the expedition, or reopen it once it has ended (each asks first), or make the
    next expedition after it (the app opens the form: ``messages.NextExpedition``)."""
    if screen.state.ended:
        yield (
            "Reopen the expedition",
            f"{cmd.spoken(cmd.Reopen())}: take the ended expedition up again (u undoes it)",
            screen.ending.ask_reopen,
        )
        after = messages.NextExpedition(screen.expedition.path)
        yield (
            f"Next expedition after {screen.state.name}…",
            "the form of the next one: the party as it carries, after a downtime",
            partial(screen.post_message, after),
        )
    else:
        yield (
            "End the expedition",
            f"{cmd.spoken(cmd.EndExpedition(words=DEFAULT_WORDS))}: asked first (key E)",
            screen.ending.end_or_reopen,
        )


def grammar_entries() -> Iterator[tuple[str, str, str]]:
    """One entry a verb of the grammar: its name, its usage, and the line it starts."""
    for verb in GRAMMAR:
        yield (f"Command: {verb.name}", verb.usage(), f"{verb.name} ")


def literal(text: str) -> str:
    """Text the palette reads as markup, escaped so that it shows exactly as written."""
    return text.replace("[", "\\[")


def highlight(matcher: Matcher, name: str) -> Content:
    """The name with the matched letters marked; never read as markup."""
    content = Content(name)
    score, offsets = matcher.fuzzy_search.match(matcher.query, name)
    if score:
        for offset in offsets:
            content = content.stylize(matcher.match_style, offset, offset + 1)
    return content


class TableCommands(Provider):
    """Every key's command, the procedure's actions, lights and the command language."""

    def _entries(self) -> list[Entry]:
        screen = self.screen
        if not isinstance(screen, TableScreen):
            return []
        return list(entries(screen))

    async def discover(self) -> Hits:
        """Everything, in order, before anything is typed."""
        for name, help_text, command in self._entries():
            yield DiscoveryHit(Content(name), command, text=name, help=literal(help_text))

    async def search(self, query: str) -> Hits:
        """What matches the typed text."""
        matcher = self.matcher(query)
        for name, help_text, command in self._entries():
            score = matcher.match(name)
            if score > 0:
                yield Hit(
                    score, highlight(matcher, name), command, text=name, help=literal(help_text)
                )
