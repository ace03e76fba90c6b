"""The session log exports: Markdown, HTML and text tell the story of each session."""

from __future__ import annotations

import datetime as dt
import json
import re
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from delvetui.core import events as ev
from delvetui.errors import DelveError
from delvetui.export import export, export_saved, format_for, story_of
from delvetui.export.markdown import escape
from delvetui.session import Expedition, encode
from delvetui.text import visible
from tests.conftest import Factory, reopened, run
from tests.shipped import SHIPPED
from tests.test_procedure_sessions import SCRIPTS

MOMENT = dt.datetime(2026, 11, 22, 20, 0, tzinfo=dt.UTC)
STORY_FORMATS = ("md", "html", "txt")

#: A short first session of each shipped procedure, as a game master would play it.
SESSIONS = {
    "delving": [
        "pc add Ash hp=6",
        "pc add 'Old Tom' hp=5",
        "light add torch count=3 carrier=Ash lit",
        "session start",
        "turn crawl hazard=5",
        "turn hazard=1",
        "note Goblins by the well",
        "turn search hazard=3",
        "light on torch",
        "turn walk hazard=2",
        "turn rest hazard=6",
        "session end",
    ],
    "dungeon-turn": [
        "pc add Ash hp=8 MOD=2",
        "pc add Bo hp=6 MOD=1",
        "light add torch count=2 carrier=Ash",
        "light on torch",
        "session start",
        "turn explore hazard=5",
        "turn hazard=1 disposition=7",
        "note Goblins by the well",
        "turn search hazard=2",
        "turn rest hazard=3",
        "session end",
    ],
    "exploration": [
        "pc add Ash hp=8",
        "pc add Bryn hp=6",
        "light add torch carrier=Ash lit",
        "session start",
        "turn cautious hazard=2",
        "turn search dc=12 by=Ash hazard=5 search=14",
        "turn rest hazard=1",
        "note Goblins by the well",
        "turn cautious hazard=3",
        "session end",
    ],
    "exploration-traditional": [
        "pc add Ash hp=8",
        "light add torch carrier=Ash lit",
        "session start",
        "turn hazard=1",
        "note Goblins by the well",
        "turn hazard=4",
        "session end",
    ],
    "trespasser": [
        "pc add Ash hp=8",
        "pc add Cora hp=5",
        "light add torch carrier=Ash lit",
        "session start",
        "turn advance",
        "turn stay",
        "turn hide stealth=failure sparks=1",
        "note Goblins by the well",
        "turn advance",
        "session end",
    ],
    "travel-turn": [
        "pc add Ash hp=10",
        "light add lantern carrier=Ash",
        "session start",
        "turn cautious",
        "turn careless",
        "note Goblins by the well",
        "turn rest",
        "session end",
    ],
    "basic-fantasy": [
        "pc add Ash hp=7",
        "light add torch count=2 carrier=Ash lit",
        "session start",
        "turn explore",
        "turn search search=1",
        "note Goblins by the well",
        "turn explore hazard=1 surprise=4 reaction=9",
        "session end",
    ],
    "cairn-modular": [
        "pc add Ash hp=4",
        "light add torch count=2 carrier=Ash lit",
        "session start",
        "turn careful",
        "turn quick hazard=2",
        "note Goblins by the well",
        "turn search",
        "session end",
    ],
    "ose": [
        "pc add Ash hp=6 CHA=13",
        "light add torch count=2 carrier=Ash lit",
        "session start",
        "turn explore",
        "turn explore hazard=1 distance=4 surprise-party=5",
        "note Goblins by the well",
        "do parley by=Ash reaction=8",
        "turn search search=1",
        "session end",
    ],
    "shadowdark": [
        "enter crawl",
        "pc add Ash hp=6 CHA=14",
        "light add torch count=2 carrier=Ash lit",
        "session start",
        "turn crawl",
        "turn crawl",
        "turn crawl hazard=1 how-far=3 activity=7 reaction=6",
        "note Goblins by the well",
        "do parley by=Ash reaction=8",
        "session end",
    ],
    "errant": [
        "pc add Ash hp=6 PHYS=12",
        "light add torch count=2 carrier=Ash lit",
        "session start",
        "turn explore hazard=3",
        "turn explore-slowly hazard=1,5",
        "turn explore hazard=1",
        "note Goblins by the well",
        "do react reaction-roll=8",
        "session end",
    ],
    "mausritter": [
        "pc add Ash hp=4 STR=12",
        "light add torch count=2 carrier=Ash lit",
        "session start",
        "turn explore",
        "turn explore",
        "turn explore hazard=1",
        "note Goblins by the well",
        "do reaction reaction=8",
        "session end",
    ],
    "cairn": [
        "pc add Ash hp=4",
        "pc add Bryn hp=3",
        "light add torch count=2 carrier=Ash",
        "session start",
        "turn travel path=trail lost=5 hazard=2 weather-spring=2",
        "turn travel hazard=1 reaction=7",
        "note Goblins by the well",
        "light on torch",
        "turn camp hazard=6",
        "session end",
    ],
}

HOSTILE = {
    "html": "<script>alert(1)</script>",
    "name": "**bold** # heading [link](x)",
    "markdown": "**bold** # heading [link](x) [[wiki]] ==mark== $x$ `code` 1. _em_",
}


def _opening(procedure: str) -> list[str]:
    """The start of the procedure's 40-turn example (``tests/test_procedure_sessions.py``):
    its party and lights before the first session, then a session of its first three turns
    and a note; a procedure with an example needs no session of its own here."""
    commands = [line for line in SCRIPTS[procedure] if not line.startswith("session ")]
    turns = [n for n, line in enumerate(commands) if line.startswith("turn")]
    ash = [] if any(line.startswith("pc add Ash ") for line in commands) else ["pc add Ash hp=6"]
    setup, played = commands[: turns[0]], commands[turns[0] : turns[2] + 1]
    return [*ash, *setup, "session start", *played, "note Goblins by the well", "session end"]


SESSIONS.update({name: _opening(name) for name in SCRIPTS if name not in SESSIONS})


def play(expedition: Expedition, commands: list[str]) -> None:
    for command in commands:
        expedition.execute(command, now=MOMENT)


def short_session(factory: Factory, procedure: str) -> Expedition:
    x = factory(procedure, seed=5)
    play(x, SESSIONS[procedure])
    return x


def rendered_markdown(text: str) -> str:
    """The HTML a Markdown viewer makes of the text (raw HTML allowed, as many do)."""
    html: str = MarkdownIt("commonmark", {"html": True}).enable("strikethrough").render(text)
    return html


# Every format tells every procedure's session -------------------------------------------


def test_every_shipped_procedure_has_a_scripted_session() -> None:
    assert set(SHIPPED) <= set(SESSIONS)


@pytest.mark.parametrize("procedure", SHIPPED)
def test_each_format_tells_a_short_session(expedition: Factory, procedure: str) -> None:
    x = short_session(expedition, procedure)
    unit = x.procedure.turn_name(x.state.turn_type)
    for fmt in STORY_FORMATS:
        text = export(x, fmt, now=MOMENT)
        assert "Session 1" in text and "Sunday 22 November 2026" in text, fmt
        assert f"{unit.capitalize()} 1 · day 1, " in text, fmt
        assert "Goblins by the well" in text, fmt
        assert "Summary of session 1" in text and "Encounters (" in text, fmt
        assert re.search(r" \[\d+(, \d+)*\][^\n]* = \d+", text), f"{fmt} shows no dice faces"
        assert "Before the first session" in text, fmt
        assert "Ash joins the party" in text, fmt
    markdown = export(x, "md", now=MOMENT)
    assert markdown.startswith(f"# {x.state.name}\n")
    assert "\n## Session 1 · Sunday 22 November 2026\n" in markdown
    assert f"\n### {unit.capitalize()} 1 · day 1, " in markdown
    page = export(x, "html", now=MOMENT)
    assert page.startswith("<!DOCTYPE html>") and page.rstrip().endswith("</html>")


def test_markdown_tells_turn_by_turn_with_rolls_results_and_a_summary(
    expedition: Factory,
) -> None:
    x = short_session(expedition, "delving")
    text = export(x, "md", now=MOMENT)
    session = text[text.index("## Session 1") :]
    assert "*Day 1, 08:00 → 08:50 · 5 turns (1–5) · 50 min in the world*" in session
    assert "### Turn 2 · day 1, 08:10 · Crawl, 36 m" in session
    assert "- Dungeon Hazard Die: d6 [1] = 1 (table dice) → **Encounter** — " in session
    assert "- **Encounter with the creature the sign foretold! " in session
    assert "- *Note: Goblins by the well*" in session
    # The second time a result comes up in a session it is told by its label only.
    assert "→ **Burn** — Lit torches burn out." in session
    summary = session[session.index("### Summary of session 1") :]
    for line in (
        "- **Turns:** 5 (turns 1–5)",
        "- **In-world time:** 50 min, day 1, 08:00 → 08:50",
        "- **Light used:**",
        "  - torch2: burnt out (Burn)",
        "- **Encounters (1):** The GM determines whether the party is surprised.",
        "- **Signs (1):** A sign of a nearby creature.",
        "  - Ash: 6/6 HP",
    ):
        assert line in summary, line


def test_the_summary_counts_damage_conditions_and_light(expedition: Factory) -> None:
    x = expedition("dungeon-turn", seed=5)
    play(
        x,
        [
            "pc add Ash hp=8 MOD=2",
            "light add torch carrier=Ash lit",
            "light set torch1 turns=6",  # the text gives no timer; the GM may set one
            "session start",
            "turn explore hazard=2",
            "turn explore hazard=5",
            "pc Ash hp=-3",
            "pc Ash hp=+1",
            "session end",
        ],
    )
    told = story_of(x, session=1)
    facts = {fact.label: fact.items for fact in told.parts[0].summary}
    assert facts["Party"] == ("Ash: 6/8 HP, tired — took 3 damage; regained 1 HP; became tired",)
    assert facts["Light used"] == ("torch1: burned 20 min (2 turns)",)
    assert facts["Light left"] == ("torch1: Torch, lit, 4 turns left, carried by Ash",)
    assert facts["Light level"] == ("bright at the end",)
    assert facts["In-world time"] == ("20 min, day 1, 08:00 → 08:20",)


# Sessions --------------------------------------------------------------------------------


def test_the_log_is_grouped_by_session(expedition: Factory) -> None:
    x = expedition("delving")
    play(
        x,
        [
            "pc add Ash hp=6",
            "session start",
            "turn hazard=6",
            "session end",
            "pc add Bo hp=4",
            "session start",
            "turn hazard=6",
            "turn hazard=6",
            "session end",
        ],
    )
    told = story_of(x)
    assert [(p.kind, p.title) for p in told.parts] == [
        ("before", "Before the first session"),
        ("session", "Session 1"),
        ("between", "After session 1"),
        ("session", "Session 2"),
    ]
    assert [t.number for t in told.parts[3].turns] == [2, 3]
    two = export(x, "md", session=2, now=MOMENT)
    assert "## Session 2 · " in two and "Session 1" not in two and "### Turn 1 " not in two
    assert "*Day 1, 08:10 → 08:30 · 2 turns (2–3) · 20 min in the world*" in two
    before = export(x, "txt", session=0, now=MOMENT)
    assert "Before the first session" in before and "Ash joins the party" in before
    assert "Bo joins" not in before
    with pytest.raises(DelveError, match=r"no session 3 .* it has 0, 1, 2"):
        export(x, "md", session=3)


def test_without_sessions_one_part_tells_everything(expedition: Factory) -> None:
    x = expedition("delving")
    play(x, ["pc add Ash hp=6", "turn hazard=6", "turn hazard=5"])
    told = story_of(x)
    assert [(p.kind, p.title) for p in told.parts] == [("all", "The expedition")]
    assert "Summary" in export(x, "md", now=MOMENT)
    with pytest.raises(DelveError, match="no session was marked"):
        export(x, "md", session=1)


def test_undone_commands_are_left_out_of_the_story(expedition: Factory) -> None:
    x = expedition("delving")
    play(x, ["pc add Ash hp=6", "note kept", "note undone", "undo", "turn hazard=6"])
    play(x, ["note undone then redone", "undo", "redo"])
    text = export(x, "txt", now=MOMENT)
    assert "kept" in text and "undone then redone" in text
    assert "Note: undone\n" not in text and "Undone" not in text and "Redone" not in text


def test_an_empty_session_still_has_its_heading_and_summary(expedition: Factory) -> None:
    x = expedition("delving")
    play(x, ["session start", "session end"])
    text = export(x, "md", now=MOMENT)
    assert "## Session 1 · Sunday 22 November 2026" in text
    assert "- **Turns:** no turns taken" in text


def test_a_session_still_running_is_told_too(expedition: Factory) -> None:
    x = expedition("delving")
    play(x, ["session start", "turn hazard=6"])
    assert "### Turn 1 · " in export(x, "md", session=1, now=MOMENT)


# What the game master wrote comes out literally --------------------------------------------


def hostile_expedition(factory: Factory) -> Expedition:
    """Names and notes with HTML, Markdown and (as a foreign file might hold) escapes."""
    x = factory("delving")
    play(
        x,
        [
            f"pc add '{HOSTILE['html']}' hp=5",
            f"pc add '{HOSTILE['name']}' hp=5",
            "session start",
            f"note {HOSTILE['html']}",
            f"note {HOSTILE['markdown']}",
            "turn hazard=6",
        ],
    )
    # The command language refuses control characters; a crafted file can still hold them.
    crafted = [
        ev.Noted(text="\x1b[31mred\x1b[0m \x9b2J bell\x07 \u202eevil"),
        ev.MemberJoined(name="\x1b]0;title\x07Eve", hp=3, max_hp=3),
    ]
    x.store.append("note", MOMENT.isoformat(), encode(crafted))
    return reopened(x)


def test_html_escapes_everything(expedition: Factory) -> None:
    with hostile_expedition(expedition) as x:
        page = export(x, "html", now=MOMENT)
    assert "<script" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "<a " not in page and "**bold** # heading [link](x)" in page
    assert "Content-Security-Policy" in page and "default-src 'none'" in page
    assert '<meta name="viewport"' in page and "@media print" in page
    assert "\x1b" not in page and "\x07" not in page and "\x9b" not in page
    assert "␛[31mred" in page


def test_markdown_shows_names_and_notes_literally(expedition: Factory) -> None:
    with hostile_expedition(expedition) as x:
        text = export(x, "md", now=MOMENT)
    assert "\x1b" not in text and "\x9b" not in text and "\u202e" not in text
    html = rendered_markdown(text)
    assert "<script" not in html and "<a " not in html and "<code>" not in html
    assert html.count("<h1>") == 1 and "<h1>heading" not in html
    assert "<ol" not in html
    for part in (
        "&lt;script&gt;alert(1)&lt;/script&gt;",
        "**bold** # heading [link](x) [[wiki]] ==mark== $x$ `code` 1. _em_",
        "␛[31mred",
        "\\x9b2J",
        "\\u202eevil",
    ):
        assert part in html, part


def test_text_and_json_hold_no_raw_control_characters(expedition: Factory) -> None:
    with hostile_expedition(expedition) as x:
        text = export(x, "txt", now=MOMENT)
        data = export(x, "json", now=MOMENT)
    assert HOSTILE["html"] in text and HOSTILE["markdown"] in text
    assert f"{HOSTILE['name']} joins the party" in text
    assert "␛[31mred␛[0m" in text and "␛]0;title␇Eve" in text
    for raw in ("\x1b", "\x07", "\x9b", "\u202e"):
        assert raw not in text and raw not in data
    assert "\\u001b[31mred" in data and "\\u009b2J" in data
    assert json.loads(data)["batches"][-1]["events"][0]["payload"]["text"].startswith("\x1b[31m")


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("**bold**", r"\*\*bold\*\*"),
        ("# heading", r"\# heading"),
        ("[link](x)", r"\[link](x)"),
        ("<b>&amp;", r"\<b\>\&amp;"),
        ("1. first", r"1\. first"),
        ("- item", r"\- item"),
        ("==mark== %%hide%%", r"\=\=mark\=\= \%\%hide\%\%"),
        ("d6 [3, 4] = 7 hp=5", "d6 [3, 4] = 7 hp=5"),
        ("[5]: http://x", r"\[5]: http://x"),
        ("a\\b", r"a\\b"),
    ],
)
def test_markdown_escape(text: str, shown: str) -> None:
    assert escape(text) == shown


def test_visible_shows_control_characters_as_symbols() -> None:
    assert visible("\x1b[31mred\x00\t\n\x7f") == "␛[31mred␀␉␊␡"
    assert visible("\x9b \u2028 \u202e") == "\\x9b \\u2028 \\u202e"
    assert visible("Þórr ×3 → ·") == "Þórr ×3 → ·"


# Formats, files and refusals ---------------------------------------------------------------


def test_json_exports_only_whole_expeditions(expedition: Factory) -> None:
    x = expedition("delving")
    with pytest.raises(DelveError, match="whole expedition"):
        export(x, "json", session=1)
    with pytest.raises(DelveError, match="no export format 'pdf'"):
        export(x, "pdf")


def test_a_saved_expedition_exports_while_the_table_has_it_open(expedition: Factory) -> None:
    x = short_session(expedition, "delving")
    assert not x.readonly
    assert export_saved(x.path, "md", now=MOMENT) == export(x, "md", now=MOMENT)
    x.execute("note still writable", now=MOMENT)


def test_format_for_reads_the_suffix() -> None:
    assert [format_for(n) for n in ("a.md", "b.HTML", "c.htm", "d.txt", "e.json", "f")] == [
        "md",
        "html",
        "html",
        "txt",
        "json",
        None,
    ]


def test_docs_describe_every_field_of_the_json_format(expedition: Factory) -> None:
    doc = (Path(__file__).resolve().parent.parent / "docs" / "export.md").read_text("utf-8")
    documented = set(re.findall(r"^\| `([\w.\[\]]+)` \|", doc, re.MULTILINE))
    data = json.loads(export(short_session(expedition, "delving"), "json"))
    fields = set(data) - {"procedure"} | {f"procedure.{key}" for key in data["procedure"]}
    fields |= {f"batches[].{key}" for key in data["batches"][0]}
    fields |= {f"events[].{key}" for key in data["batches"][0]["events"][0]}
    assert fields == documented


def test_a_torch_in_a_watch_burns_its_hour_not_the_watch(expedition: Factory) -> None:
    """Basic Fantasy's torch lasts an hour; a four-hour watch does not burn it four hours."""
    made = expedition("basic-fantasy")
    run(made, "pc add Ash hp=6", "light add torch lit carrier=Ash", "light add lantern")
    run(made, "enter wilderness", "turn travel outdoors=6", "turn travel outdoors=6")
    text = export(made, "txt")
    assert "2 (watches 1–2)" in text or "2 watches" in text
    assert "watchs" not in text
    torch = next(line for line in text.splitlines() if "torch1" in line and "burned" in line)
    assert "burned 1 h" in torch and "4 h" not in torch
