"""The campaign screen: every campaign in the data folder, its chains in calendar order.

Drawn from the campaign view's records (:mod:`delvetui.export.campaign`, read in the
background by :func:`delvetui.export.campaign_reading.survey`): each expedition with its
dates, sessions, procedure, party, who died or left, the light and supplies used; the
downtime between two expeditions of a chain; the gaps and overlaps pointed out. Enter on an
expedition opens it on the table; ``n`` on an ended one that ends its chain starts the next.
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from rich.console import Group
from rich.padding import Padding
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from delvetui import paths
from delvetui.errors import DelveError
from delvetui.export.campaign import (
    Campaign,
    Chain,
    Refused,
    Voyage,
    downtime_words,
    tally,
)
from delvetui.text import counted, visible
from delvetui.ui.key_footer import KeyFooter

#: The prefix of an option's id that opens an expedition (the rest is its path).
OPEN = "open:"


def campaign_heading(campaign: Campaign) -> Text:
    """'Campaign barrow · 3 expeditions in 1 chain · day 1, 08:00 → day 19, 16:40'; an
    expedition on its own is 'Expedition crypt · on its own · day 1, 08:00 → ...'."""
    count = sum(1 for _ in campaign.voyages)
    text = Text(no_wrap=False)
    if campaign.lone:
        text.append(f"Expedition {visible(campaign.name)}", "bold")
        text.append(f"  on its own · {campaign.dates}", "dim")
        return text
    text.append(f"Campaign {visible(campaign.name)}", "bold")
    text.append(
        f"  {counted(count, 'expedition')} in {counted(len(campaign.chains), 'chain')} · "
        f"{campaign.dates}",
        "dim",
    )
    return text


def chain_heading(number: int, chain: Chain) -> Text:
    """'Chain 1: barrow → barrow-2 → fens' (and where a branch leaves its chain)."""
    text = Text()
    text.append(f"Chain {number}: ", "bold")
    text.append(" → ".join(visible(v.name) for v in chain.voyages))
    if chain.branches_from:
        text.append(f"  (branches off after {visible(chain.branches_from)})", "italic")
    return text


def indented(text: Text, cells: int) -> Padding:
    """A line set in by ``cells``, its wrapped part set in as far (so it reads as one)."""
    return Padding(text, (0, 0, 0, cells))


def voyage_block(voyage: Voyage, *, first: bool) -> Group:
    """One expedition as a few lines: the downtime before it (but the first of its
    chain), its name and dates, then the party's fortunes, one line a kind."""
    lines: list[Padding] = []
    if voyage.link is not None and not first:
        downtime = downtime_words(voyage.link, voyage.calendar)
        lines.append(indented(Text(f"⋯ downtime {downtime}", "dim"), 2))
    heading = Text(visible(voyage.name), "bold")
    heading.append(f"  {visible(voyage.procedure)}", "dim")
    lines.append(indented(heading, 2))
    state = "ended" if voyage.ended else "not ended"
    lines.append(
        indented(
            Text(
                f"{voyage.dates} · {state} · {counted(voyage.sessions, 'session')}, "
                f"{counted(voyage.turns, 'turn')}"
            ),
            4,
        )
    )
    rows = [
        ("party", voyage.party or ("nobody",), ""),
        ("joined", voyage.joined, ""),
        ("died", voyage.died_words(), "bold red"),
        ("left", voyage.left, ""),
        ("light used", voyage.light_used or ("none",), ""),
        ("supplies used", voyage.supplies_used or ("none",), ""),
        ("at its start", voyage.link.notes if voyage.link else (), "dim"),
        ("dungeon", voyage.dungeon, ""),
        ("route", voyage.route_words, ""),
    ]
    line = Text()
    for label, items, style in rows:
        if not items:
            continue
        if label == "supplies used":
            line.append(" · ", "dim")  # the supplies share the light's line
        elif line:
            lines.append(indented(line, 4))
            line = Text()
        line.append(f"{label}: ", "dim")
        line.append("; ".join(visible(item) for item in items), style)
    lines.append(indented(line, 4))
    return Group(*lines)


def note_line(kind: str, sentence: str) -> Padding:
    """A gap, an overlap or a file not read, set in under its campaign."""
    text = Text(f"{kind}: ", "bold yellow")
    text.append(visible(sentence), "yellow")
    return indented(text, 2)


def campaign_options(campaigns: list[Campaign], refused: list[Refused]) -> list[Option | None]:
    """The screen's list: headings (not selectable), each expedition (Enter opens it), the
    gaps and overlaps, and the files that could not be read."""
    options: list[Option | None] = []
    for campaign in campaigns:
        if options:
            options.append(None)
        options.append(Option(campaign_heading(campaign), disabled=True))
        for number, chain in enumerate(campaign.chains, start=1):
            if not campaign.lone:
                options.append(Option(chain_heading(number, chain), disabled=True))
            for index, voyage in enumerate(chain.voyages):
                block = voyage_block(voyage, first=index == 0)
                options.append(Option(block, id=f"{OPEN}{voyage.path}"))
        for gap in campaign.gaps:
            options.append(Option(note_line("Gap", gap.sentence), disabled=True))
        for overlap in campaign.overlaps:
            options.append(Option(note_line("Overlap", overlap.sentence), disabled=True))
    if refused:
        options.append(None)
        options.append(Option(Text("Not read", "bold"), disabled=True))
        for bad in refused:
            options.append(Option(note_line(visible(bad.name), bad.reason), disabled=True))
    return options


class CampaignScreen(Screen[None]):
    """The campaigns of the data folder, read in the background and drawn as a list."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "back", "Back", id="campaigns-back"),
        Binding("n", "next", "Next expedition", id="campaigns-next"),
        Binding("e", "export", "Export chronicle", id="campaigns-export"),
        Binding("q", "app.quit", "Quit", id="campaigns-quit", show=False),
    ]
    """Keys of the campaign screen (Enter opens the highlighted expedition)."""

    class Back(Message):
        """Back to the start screen."""

    class Open(Message):
        """Open this expedition on the table."""

        def __init__(self, path: Path) -> None:
            super().__init__()
            self.path = path

    class Next(Message):
        """Start the expedition after this one (the new-expedition form for it)."""

        def __init__(self, path: Path) -> None:
            super().__init__()
            self.path = path

    def __init__(self) -> None:
        super().__init__()
        #: The expeditions read, by path: which are ended and end their chain.
        self.last_ended: set[str] = set()
        #: The campaigns once read (None until then).
        self.campaigns: list[Campaign] | None = None

    def compose(self) -> ComposeResult:
        """The title, the list (filled once the folder is read) and the keys."""
        with Vertical(id="campaigns"):
            yield Static(Text("Campaigns"), id="campaigns-title")
            yield Static(
                Text("Reading the expeditions in the data folder…"), id="campaigns-summary"
            )
            yield OptionList(id="campaigns-list")
        yield KeyFooter(fit=True)

    def on_mount(self) -> None:
        """Read the folder in the background."""
        self.query_one("#campaigns-list", OptionList).focus()
        self.read_campaigns()

    @work(thread=True, exclusive=True)
    def read_campaigns(self) -> None:
        """Every campaign of the data folder (each file read-only, one at a time)."""
        from delvetui.export import campaign_reading

        try:
            campaigns, refused = campaign_reading.survey(paths.saved_expeditions())
        except DelveError as error:
            self.app.call_from_thread(self._show_problem, error.message)
            return
        self.app.call_from_thread(self._show, campaigns, refused)

    def _show_problem(self, message: str) -> None:
        if not self.is_attached:
            return
        self.query_one("#campaigns-summary", Static).update(Text(message))

    def _show(self, campaigns: list[Campaign], refused: list[Refused]) -> None:
        if not self.is_attached:
            return  # the screen has gone while the folder was read
        self.campaigns = campaigns
        self.last_ended = {
            chain.voyages[-1].path
            for campaign in campaigns
            for chain in campaign.chains
            if chain.voyages[-1].ended
        }
        summary = (
            f"{tally(campaigns)}, each chain in calendar order. "
            "Enter opens an expedition; n starts the next "
            "after one that ended; e exports a chronicle."
            if campaigns
            else "No expeditions in the data folder yet."
        )
        self.query_one("#campaigns-summary", Static).update(Text(summary))
        options = self.query_one("#campaigns-list", OptionList)
        options.clear_options()
        options.add_options(campaign_options(campaigns, refused))
        first = next((n for n, option in enumerate(options.options) if not option.disabled), None)
        options.highlighted = first

    def _highlighted_path(self) -> str | None:
        options = self.query_one("#campaigns-list", OptionList)
        if options.highlighted is None:
            return None
        option_id = options.get_option_at_index(options.highlighted).id or ""
        return option_id[len(OPEN) :] if option_id.startswith(OPEN) else None

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Enter or a click on an expedition opens it."""
        event.stop()
        option_id = event.option.id or ""
        if option_id.startswith(OPEN):
            self.post_message(self.Open(Path(option_id[len(OPEN) :])))

    def action_next(self) -> None:
        """The next expedition after the highlighted one (ended, and the last of its chain)."""
        path = self._highlighted_path()
        if path is None:
            self.notify("Choose an expedition first (arrows), then press n.", markup=False)
            return
        if path not in self.last_ended:
            name = Path(path).stem
            self.notify(
                f"{name} has not ended, or another expedition already continues it: the "
                "next expedition follows the last of a chain once it has ended.",
                severity="warning",
                markup=False,
            )
            return
        self.post_message(self.Next(Path(path)))

    def action_export(self) -> None:
        """The chronicle of the highlighted expedition's campaign, in a format chosen, to
        the exports folder beside the saved expeditions."""
        from delvetui.ui.dialogs.choose import ChooseScreen

        path = self._highlighted_path()
        chosen = next(
            (c for c in self.campaigns or () if any(v.path == path for v in c.voyages)), None
        )
        if chosen is None:
            self.notify("Choose an expedition first (arrows), then press e.", markup=False)
            return

        def export(fmt: str | None) -> None:
            if fmt is not None:
                self.export_chronicle(chosen.name, fmt)

        self.app.push_screen(
            ChooseScreen(
                f"Export the chronicle of {visible(chosen.name)}",
                [
                    ("md", Text("Markdown (.md), its timeline a picture beside it")),
                    ("html", Text("Web page (.html)")),
                    ("json", Text("JSON (.json)")),
                    ("svg", Text("The timeline alone (.svg)")),
                ],
                hint="The file is written in the exports folder beside the saved expeditions.",
            ),
            export,
        )

    @work(thread=True, group="export")
    def export_chronicle(self, name: str, fmt: str) -> None:
        """Read the campaign again and write its chronicle, in the background."""
        from delvetui.application.files import chronicle_path, write_export
        from delvetui.export import campaign, campaign_picture, campaign_reading, chronicle

        target = chronicle_path(name, fmt)
        try:
            campaigns, refused = campaign_reading.survey(paths.saved_expeditions())
            chosen = campaign.choose(campaigns, name, refused)
            picture = ""
            if fmt == "md":
                beside = chronicle.picture_beside(target)
                write_export(beside, campaign_picture.render(chosen))
                picture = beside.name
            write_export(target, "".join(chronicle.chunks(chosen, fmt, picture=picture)))
        except DelveError as error:
            message = f"The chronicle was not exported: {error.message}"
            self.app.call_from_thread(self.notify, message, severity="error", markup=False)
            return
        self.app.call_from_thread(self.notify, f"The chronicle is in {target}", markup=False)

    def action_back(self) -> None:
        """Back to the start screen."""
        self.post_message(self.Back())
