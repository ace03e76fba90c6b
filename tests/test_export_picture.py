"""The timeline picture: `export --format svg`, and inside the HTML and Markdown exports."""

from __future__ import annotations

import base64
import re
import xml.etree.ElementTree as ET
from pathlib import Path

from delvetui.core import events as ev
from delvetui.core.decide import start_events
from delvetui.core.timeline import Batch
from delvetui.export import export, picture
from delvetui.procedure.registry import find
from delvetui.session import Expedition
from tests import cli_support
from tests.cli_support import delvetui
from tests.conftest import Factory, run

SVG = "{http://www.w3.org/2000/svg}"
HOSTILE = "<script>alert(1)</script>]]>&amp;\x1b[31m\u202e"


def played(expedition: Factory) -> Expedition:
    """Two sessions, a rest, encounters and signs, two lights in turn, and an undone turn."""
    made = expedition("delving")
    run(
        made,
        "pc add Ash hp=6",
        "light add torch count=3 carrier=Ash lit",
        "light add candle",
        "session start",
        "turn hazard=6",
        "turn hazard=1",
        "turn hazard=5",
        "turn rest hazard=6",
        "turn rest hazard=6",
        "turn crawl hazard=3",
        "light on torch",
        "session end",
        "session start",
        "turn hazard=6",
        "turn hazard=1",
        "undo",
        "turn hazard=3",
        "light on candle",
        "turn hazard=4",
    )
    return made


def titles(root: ET.Element, tag: str) -> list[str]:
    return [(node.findtext(f"{SVG}title") or "") for node in root.iter(f"{SVG}{tag}")]


def test_the_svg_draws_turns_light_bars_marks_rests_and_sessions(expedition: Factory) -> None:
    made = played(expedition)
    svg = export(made, "svg")
    root = ET.fromstring(svg)  # well-formed XML, or this raises
    assert root.tag == f"{SVG}svg"
    assert made.state.turn == 9
    heading = [t.text for t in root.iter(f"{SVG}text")]
    assert "test — 9 turns" in heading
    # The turns along the bottom: 1 to 9.
    assert {str(n) for n in range(1, 10)} <= set(heading)
    rects = titles(root, "rect")
    # The light level of each turn as a band: a torch, another torch, then the candle.
    levels = [t for t in rects if t.startswith("Turn ")]
    assert levels == [f"Turn {n}: bright" for n in range(1, 9)] + ["Turn 9: dim"]
    # Each light's life as a bar.
    assert "torch2 (torch) lit, turns 1–6" in rects
    assert "torch3 (torch) lit, turns 7–8" in rects
    assert "candle1 (candle) lit, turns 9–9" in rects
    # Rests and sessions as spans.
    assert "rest, turns 4–5" in rects
    assert "Session 1, turns 1–6" in rects
    assert "Session 2, turns 7–9" in rects
    # Encounters and signs as marks; the undone encounter on turn 8 is not there.
    marks = titles(root, "polygon") + titles(root, "circle")
    encounters = [m for m in marks if "encounter" in m and m.startswith("Turn")]
    assert [m.split(":")[0] for m in encounters] == ["Turn 2"]
    assert any(m.startswith("Turn 3: sign") for m in marks)
    # Self-contained: nothing to run, nothing to fetch.
    assert "<script" not in svg and "href" not in svg
    assert re.findall(r"https?://[^\"]+", svg) == ["http://www.w3.org/2000/svg"]


def test_every_text_from_the_file_is_escaped() -> None:
    # What a hand-made file could hold, beyond what the command language lets one type.
    batches = [
        Batch(1, "start", tuple(start_events(HOSTILE, find("delving"), seed=1))),
        Batch(
            2,
            "light",
            (
                ev.LightAdded(
                    id=HOSTILE,
                    kind=HOSTILE,
                    count=1,
                    carrier=None,
                    minutes=None,
                    brightness="bright",
                    usage_die=None,
                ),
                ev.LightLit(id=HOSTILE, source=HOSTILE, carrier=None),
            ),
        ),
        Batch(
            3,
            "turn",
            (
                ev.TurnStarted(number=1, action="crawl", turn_type="turn", resting=False),
                ev.SignFound(text=HOSTILE),
                ev.EncounterBegan(text=HOSTILE, creature=HOSTILE),
                ev.TurnEnded(number=1, minutes=10),
            ),
        ),
    ]
    svg = picture.render(picture.build(batches, HOSTILE))
    ET.fromstring(svg)
    assert "<script" not in svg
    assert svg.count("&lt;script&gt;") >= 4  # the title, the light, the sign, the encounter
    assert "\x1b" not in svg and "\u202e" not in svg and "]]>" not in svg


def test_a_picture_of_nothing_yet(expedition: Factory) -> None:
    svg = export(expedition("delving"), "svg")
    root = ET.fromstring(svg)
    assert "test — 0 turns" in [t.text for t in root.iter(f"{SVG}text")]


def test_text_outside_xml_is_replaced() -> None:
    # A lone surrogate is shown as its code (delvetui.text); U+FFFE, which XML cannot hold,
    # becomes the replacement character.
    assert picture.text("a\ud800b\ufffe") == "a\\ud800b\ufffd"
    assert len(picture.text("x" * 500)) == picture.MAX_TEXT


def test_html_draws_it_and_markdown_embeds_it(expedition: Factory) -> None:
    made = played(expedition)
    svg = export(made, "svg")
    page = export(made, "html")
    assert '<figure class="timeline">' in page
    assert svg.strip() in page
    assert "<script" not in page
    notes = export(made, "md")
    found = re.search(
        r"!\[Timeline of the expedition\]\(data:image/svg\+xml;base64,([^)]+)\)", notes
    )
    assert found is not None
    assert base64.b64decode(found.group(1)).decode("utf-8") == svg


def test_cli_export_svg_by_format_or_suffix_and_refuses_a_session(home: Path) -> None:
    cli_support.made(home, "crypt", "delving", ["pc add Ash hp=6", "turn hazard=1"])
    printed = delvetui(home, "export", "crypt", "--format", "svg")
    assert printed.returncode == 0, printed.stderr
    ET.fromstring(printed.stdout)
    target = home / "crypt-timeline.svg"
    written = delvetui(home, "export", "crypt", "-o", str(target))
    assert written.returncode == 0, written.stderr
    assert target.read_text(encoding="utf-8") == printed.stdout
    refused = delvetui(home, "export", "crypt", "--format", "svg", "--session", "1")
    assert refused.returncode == 2
    assert "whole expedition" in refused.stderr and "--session" in refused.stderr
