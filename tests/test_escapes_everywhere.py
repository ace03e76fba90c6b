"""Every text that came from a file or a name goes through one rule in every output: the
terminal's (``text.visible``). Control characters, a terminal's escape sequences and the
bidirectional marks are shown as symbols in the Markdown, HTML, text, SVG and JSON exports,
the campaign view (its lines, its JSON and its screen) and the chronicle in each of its
formats (docs/export.md, "Control characters").

The finding: a member's name holding ESC, an OSC title, BEL, U+009B and U+202E, in a handed
predecessor, reached the chronicle's Markdown and HTML "Fortunes" raw (``cat chronicle.md``
retitled the terminal), and ``new --campaign $'c\\e]0;pwn\\a'`` put its name in the
chronicle's heading, title and h1 raw. Here such names come in the way a stranger's file
brings them: in a JSON export, imported (the campaign's name among them, in its first
batch), then continued with ``new --after``.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from pathlib import Path
from typing import Any

from delvetui import paths
from delvetui.application.campaign import new_in_campaign
from delvetui.export import FORMATS, chronicle, export
from delvetui.export.campaign import document, report
from delvetui.export.campaign_reading import survey
from delvetui.export.importing import import_file
from delvetui.procedure.registry import find
from delvetui.session import Expedition
from delvetui.text import dumps
from delvetui.ui.app import DelveApp
from delvetui.ui.campaign.screen import CampaignScreen
from delvetui.ui.start_screen import StartScreen
from tests.cli_support import delvetui
from tests.ui_support import screen_text, settled

#: What a hostile name may hold: an OSC retitling the terminal ended by BEL, a CSI, the
#: one-character CSI U+009B, DEL, a right-to-left override, an isolate, a line separator.
HOSTILE = "\x1b]0;pwn\x07\x1b[2J\x9b31m\x7f\u202e\u2066\u2028"
MEMBER = f"Ash{HOSTILE}x"
CAMPAIGN = f"c{HOSTILE}x"
NOTE = f"loot{HOSTILE}x"
#: Any character that acts on a terminal instead of showing (a line feed is an output's own).
RAW = re.compile(r"[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
NOW = dt.datetime(2026, 1, 2, 3, 4, tzinfo=dt.UTC)


def clean(where: str, text: str) -> None:
    found = RAW.search(text)
    assert found is None, (
        f"{where}: {found.group()!r} raw at {text[max(0, found.start() - 30) : found.end() + 10]!r}"
    )


def handed(home: Path, tmp_path: Path) -> tuple[Path, Path]:
    """An ended expedition with a hostile member, note and campaign, brought in by import,
    and the next expedition of its chain; their paths."""
    with Expedition.create(home / "plain.delve", find("delving"), seed=3) as made:
        for line in ("pc add Ash hp=6", "light add torch lit carrier=Ash", "note loot",
                     "turn crawl hazard=4", "end"):  # fmt: skip
            made.execute(line)
        data: dict[str, Any] = json.loads(export(made, "json"))
    (home / "plain.delve").unlink()
    text = json.dumps(data).replace('"Ash"', json.dumps(MEMBER)).replace('"loot"', json.dumps(NOTE))
    data = json.loads(text)
    data["batches"][0]["events"].insert(  # right after the start, as `new --campaign` puts it
        1, {"type": "CampaignNamed", "version": 1, "payload": {"campaign": CAMPAIGN}}
    )
    data["counts"]["events"] += 1
    source = tmp_path / "handed.json"
    source.write_text(json.dumps(data), encoding="utf-8")
    first = import_file(source, "barrow")
    second, _ = new_in_campaign(
        "barrow-2", home / "barrow-2.delve", None, (), after="barrow", downtime="3d",
        start=None, leave=(), campaign=None, day=None, seed=5,
    )  # fmt: skip
    return first, second


async def test_hostile_names_show_as_symbols_in_every_export_view_and_chronicle(
    home: Path, tmp_path: Path
) -> None:
    first, second = handed(home, tmp_path)
    with Expedition.open(first, write=False) as opened:
        assert opened.state.party[0].name == MEMBER  # the names came in whole
        assert opened.state.campaign == CAMPAIGN
        for fmt in FORMATS:
            clean(f"barrow as {fmt}", export(opened, fmt, now=NOW))
    with Expedition.open(second, write=False) as opened:
        for fmt in FORMATS:
            clean(f"barrow-2 as {fmt}", export(opened, fmt, now=NOW))
    campaigns, refused = survey(paths.saved_expeditions())
    (campaign,) = campaigns
    assert campaign.name == CAMPAIGN
    clean("the campaign view", "\n".join(report(campaigns, refused)))
    clean("the campaign view's JSON", dumps(document(campaigns, refused)))
    for fmt in chronicle.FORMATS:
        written = "".join(chronicle.chunks(campaign, fmt, now=NOW))
        clean(f"the chronicle as {fmt}", written)
        if fmt in ("md", "html"):
            # Shown, not dropped: the fortunes and the heading name them as symbols.
            assert "Ash␛]0;pwn␇" in written and "c␛]0;pwn␇" in written
    # The command line prints the same (its own output is made visible too).
    for args in (("campaign",), ("export", "--campaign", "barrow", "--format", "md")):
        shown = delvetui(home, *args)
        assert shown.returncode == 0, shown.stderr
        clean(" ".join(args), shown.stdout)
    app = DelveApp(None)
    async with app.run_test(size=(120, 40)) as pilot:
        await settled(pilot, lambda: isinstance(app.screen, StartScreen))
        await pilot.press("c")
        await settled(pilot, lambda: isinstance(app.screen, CampaignScreen))
        screen = app.screen
        assert isinstance(screen, CampaignScreen)
        await settled(pilot, lambda: bool(screen.campaigns) and "barrow-2" in screen_text(app))
        on_screen = screen_text(app)
        assert "Campaign c␛]0;pwn␇" in on_screen
        clean("the campaign screen", on_screen)


def test_a_campaign_is_named_as_an_expedition_is(home: Path) -> None:
    """The command line refuses a campaign name an expedition could not have, and makes
    nothing."""
    for name, why in (
        (CAMPAIGN, "it holds the control character '␛'"),
        ("a/b", "it holds a /, and a name is not a path"),
        (" spaced", "it starts or ends with a space"),
        ("", "it is empty"),
    ):
        done = delvetui(home, "new", "q", "--procedure", "delving", "--campaign", name)
        assert done.returncode == 2 and why in done.stderr, done.stderr
        assert "cannot name a campaign" in done.stderr
        clean("the refusal", done.stderr)
        assert not (home / "q.delve").exists()
