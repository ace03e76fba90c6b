"""`delvetui campaign` and `delvetui export --campaign`, run as real subprocesses.

Issue #32: the campaign view lists each chain in calendar order with its dates, sessions,
party, deaths, light and supplies (deliverable 5); the chronicle tells the whole chain in
each format (deliverable 6); a chain whose predecessor is missing shows the gap, and a
damaged file is refused by name and never written (deliverable 7).
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli_support import delvetui, made

#: The first expedition: Bryn dies in it, a torch burns out.
BARROW = [
    "pc add Ash hp=6",
    "pc add Bryn hp=4",
    "light add torch count=3 carrier=Ash",
    "light on torch",
    "session start",
    "turn hazard=5",
    "turn hazard=3",
    "pc Bryn hp=0 +dead",
    "session end",
    "end the party is back in town",
]
#: The second: Cal joins, and the party goes home again.
BARROW_2 = ["pc add Cal hp=5", "session start", "turn hazard=6", "session end", "end"]


def chain(home: Path) -> None:
    """barrow, then barrow-2 a week later, then barrow-3 two days after that."""
    made(home, "barrow", "delving", BARROW, seed=7)
    for name, after, downtime, commands in (
        ("barrow-2", "barrow", "7d", BARROW_2),
        ("barrow-3", "barrow-2", "2d", ["session start", "turn hazard=6"]),
    ):
        started = delvetui(home, "new", name, "--after", after, "--downtime", downtime)
        assert started.returncode == 0, started.stderr
        played = delvetui(home, "act", name, "-", stdin="\n".join(commands) + "\n")
        assert played.returncode == 0, played.stderr


def test_the_campaign_view_lists_the_chain_in_calendar_order(home: Path) -> None:
    """Deliverable 5: each expedition with its dates, sessions, party, who died, the light
    used and the downtime between them; --json says the same for scripts."""
    chain(home)
    shown = delvetui(home, "campaign")
    assert shown.returncode == 0, shown.stderr
    text = shown.stdout
    assert "Campaign barrow: 3 expeditions in 1 chain" in text
    assert "Chain 1: barrow → barrow-2 → barrow-3" in text
    assert "barrow (Delving): day 1, 08:00 → day 1, 08:20, ended; 1 session, 2 turns" in text
    assert "died: Bryn" in text and "light used: Torch: 1 burnt out" in text
    assert "downtime: 7 days (day 1, 08:20 → day 8, 08:20)" in text
    assert "joined: Cal" in text and "Gaps" not in text
    assert "    Bryn: 1 expedition (barrow); died in barrow (day 1, 08:20)\n" in text
    assert "    Ash: 3 expeditions (barrow, barrow-2, barrow-3); so far in barrow-3: " in text
    listed = delvetui(home, "campaign", "barrow-3", "--json")
    assert listed.returncode == 0, listed.stderr
    found = json.loads(listed.stdout)
    assert found["refused"] == []
    [campaign] = found["campaigns"]
    [only] = campaign["chains"]
    names = [(e["name"], e["predecessor"], e["start_date"]) for e in only["expeditions"]]
    assert names == [
        ("barrow", None, "day 1, 08:00"),
        ("barrow-2", "barrow", "day 8, 08:20"),
        ("barrow-3", "barrow-2", "day 10, 08:30"),
    ]
    second = only["expeditions"][1]
    assert second["link"]["downtime_minutes"] == 7 * 24 * 60 and second["sessions"] == 1
    assert second["members"] == ["Ash", "Cal"] and second["ended"] is True


def test_the_chronicle_in_each_format(home: Path, tmp_path: Path) -> None:
    """Deliverable 6: the whole chain as one document, expeditions and sessions in calendar
    order with the downtime between them, in md, html, json and svg."""
    chain(home)
    out = {}
    for fmt in ("md", "html", "json", "svg"):
        target = tmp_path / f"chronicle.{fmt}"
        written = delvetui(home, "export", "--campaign", "barrow", "-o", str(target))
        assert written.returncode == 0, written.stderr
        assert written.stdout.strip() == str(target)
        out[fmt] = target.read_text(encoding="utf-8")
    md = out["md"]
    assert md.startswith("# Chronicle of barrow\n")
    order = [
        "## Chain 1: barrow → barrow-2 → barrow-3",
        "### barrow · day 1, 08:00 → day 1, 08:20",
        "#### Session 1",
        "### Downtime · 7 days (day 1, 08:20 → day 8, 08:20)",
        "### barrow-2 · day 8, 08:20",
        "### barrow-3 · day 10, 08:30",
    ]
    assert all(heading in md for heading in order), md[:2000]
    assert [md.index(h) for h in order] == sorted(md.index(h) for h in order)
    assert "- **Died:** Bryn" in md and "data:image" not in md
    # Its picture is a file beside it, linked by name, the same as the SVG chronicle.
    assert "![Timeline of the campaign](chronicle-timeline.svg)" in md
    beside = (tmp_path / "chronicle-timeline.svg").read_text(encoding="utf-8")
    assert beside.startswith("<svg")
    assert "## The party's fortunes\n\n- Ash: 3 expeditions (barrow, barrow-2, barrow-3)" in md
    page = out["html"]
    assert page.startswith("<!DOCTYPE html>")
    assert "<h2>Chain 1: barrow → barrow-2 → barrow-3</h2>" in page
    assert "<h4>Session 1 · " in page and "<script" not in page
    document = json.loads(out["json"])
    assert document["format"] == "delvetui-chronicle" and document["campaign"] == "barrow"
    told = document["chains"][0]["expeditions"]
    assert [e["name"] for e in told] == ["barrow", "barrow-2", "barrow-3"]
    assert "Session 1" in [p["title"] for p in told[0]["story"]["parts"]]
    svg = out["svg"]
    assert svg.startswith("<svg") and svg.count("<title>barrow") >= 1 and "Bryn died in" in svg


def test_a_missing_predecessor_is_a_gap(home: Path, tmp_path: Path) -> None:
    """Deliverable 7: an expedition whose predecessor is not in the folder starts a chain
    of its own, and the view and the chronicle say what is missing."""
    chain(home)
    (home / "barrow-2.delve").rename(tmp_path / "barrow-2.delve")
    listed = delvetui(home, "campaign", "barrow", "--json")
    assert listed.returncode == 0, listed.stderr
    [campaign] = json.loads(listed.stdout)["campaigns"]
    chains = [[e["name"] for e in c["expeditions"]] for c in campaign["chains"]]
    assert chains == [["barrow"], ["barrow-3"]]
    [gap] = campaign["gaps"]
    assert (gap["expedition"], gap["predecessor"], gap["kind"]) == (
        "barrow-3",
        "barrow-2",
        "missing",
    )
    shown = delvetui(home, "campaign", "barrow")
    assert "barrow-3 continues barrow-2, which is not in the data folder" in shown.stdout
    md = delvetui(home, "export", "--campaign", "barrow", "--format", "md").stdout
    assert "## Gaps" in md and "### After barrow-2 (not in this chronicle)" in md
    told = json.loads(delvetui(home, "export", "--campaign", "barrow", "--format", "json").stdout)
    assert [[e["name"] for e in c["expeditions"]] for c in told["chains"]] == chains
    assert [g["kind"] for g in told["gaps"]] == ["missing"]


def test_a_damaged_file_is_refused_by_name_and_never_written(home: Path, tmp_path: Path) -> None:
    """Deliverable 7: a file that is no expedition is listed as not read, with its sentence;
    nothing in the folder is written, not even a snapshot; bad requests exit 2."""
    made(home, "barrow", "delving", BARROW, seed=7)
    broken = home / "broken.delve"
    broken.write_bytes(b"SQLite format 3\x00" + b"\x00" * 200)
    before = {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in home.iterdir()}
    shown = delvetui(home, "campaign")
    assert shown.returncode == 0, shown.stderr
    assert "Not read:\n  broken: " in shown.stdout and str(broken) in shown.stdout
    listed = json.loads(delvetui(home, "campaign", "--json").stdout)
    [refused] = listed["refused"]
    assert refused["name"] == "broken" and refused["reason"]
    named = delvetui(home, "campaign", "broken")
    assert named.returncode == 2 and "broken cannot be read" in named.stderr
    target = tmp_path / "out.md"
    wrote = delvetui(home, "export", "--campaign", "barrow", "-o", str(target))
    assert wrote.returncode == 0 and "cannot be read: broken" in wrote.stderr
    for args in (
        ("export", "--campaign", "nowhere", "-o", str(tmp_path / "a.md")),
        ("export", "--campaign", "barrow", "--format", "txt", "-o", str(tmp_path / "b.txt")),
        ("export", "--campaign", "barrow", "--session", "1", "-o", str(tmp_path / "c.md")),
        ("export", "barrow", "--campaign", "barrow", "-o", str(tmp_path / "d.md")),
    ):
        refused_run = delvetui(home, *args)
        assert refused_run.returncode == 2 and refused_run.stderr.startswith("delvetui: ")
    assert not any(tmp_path.glob("[abcd].*"))
    after = {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in home.iterdir()}
    assert after == before


def test_two_parties_of_one_campaign_and_a_character_in_both(home: Path) -> None:
    """Deliverable 5: a West Marches campaign's two parties each have their chain on the
    one calendar, and Ash, in both at overlapping dates, is pointed out."""
    for name, start in (("north", "08:00"), ("south", "08:20")):
        new = ("new", name, "--procedure", "delving", "--campaign", "marches", "--start", start)
        started = delvetui(home, *new)
        assert started.returncode == 0, started.stderr
        commands = "pc add Ash hp=6\nturn hazard=6\nturn hazard=6\nturn hazard=6\n"
        played = delvetui(home, "act", name, "-", stdin=commands)
        assert played.returncode == 0, played.stderr
    shown = delvetui(home, "campaign", "marches")
    assert shown.returncode == 0, shown.stderr
    assert "Campaign marches: 2 expeditions in 2 chains" in shown.stdout
    assert "Chain 1: north\n" in shown.stdout and "Chain 2: south\n" in shown.stdout
    assert (
        "Overlaps:\n    Ash is in north (day 1, 08:00 → day 1, 08:30) and in south "
        "(day 1, 08:20 → day 1, 08:50) at overlapping dates." in shown.stdout
    )


def test_dates_read_in_the_campaign_calendar(home: Path, tmp_path: Path) -> None:
    """Deliverables 4 and 5: an expedition that names a calendar has its dates, and the
    downtime after it, told in that calendar in the view and the chronicle."""
    calendar = tmp_path / "vale.toml"
    calendar.write_text('[calendar]\nmonths = ["Thaw", "Bloom"]\ndays = 10\n', encoding="utf-8")
    new = ("new", "vale", "--procedure", "delving", "--calendar", str(calendar))
    assert delvetui(home, *new).returncode == 0
    played = delvetui(home, "act", "vale", "-", stdin="pc add Ash hp=6\nturn hazard=6\nend\n")
    assert played.returncode == 0, played.stderr
    assert delvetui(home, "new", "vale-2", "--after", "vale", "--downtime", "12d").returncode == 0
    shown = delvetui(home, "campaign", "vale").stdout
    assert "vale (Delving): 1st of Thaw, day 1, 08:00 → 1st of Thaw, day 1, 08:10" in shown
    assert "downtime: 12 days (1st of Thaw, day 1, 08:10 → 3rd of Bloom, day 13, 08:10)" in shown
    md = delvetui(home, "export", "--campaign", "vale", "--format", "md").stdout
    assert "### vale-2 · 3rd of Bloom, day 13, 08:10" in md


def test_what_players_named_stays_text_in_the_chronicle(home: Path) -> None:
    """A name written to become markup (HTML, a Markdown link, emphasis) shows as written
    in the chronicle, as in an expedition's own export."""
    made(home, "den", "delving", ["pc add <b>Ash</b>_[x](y) hp=6", "turn hazard=6", "end"])
    assert delvetui(home, "new", "den-2", "--after", "den", "--downtime", "1d").returncode == 0
    md = delvetui(home, "export", "--campaign", "den", "--format", "md").stdout
    assert "- **Party at the end:** \\<b\\>Ash\\</b\\>\\_\\[x](y) 6/6 HP" in md
    assert "<b>" not in md
    page = delvetui(home, "export", "--campaign", "den", "--format", "html").stdout
    assert "<dd>&lt;b&gt;Ash&lt;/b&gt;_[x](y) 6/6 HP</dd>" in page and "<b>" not in page


def test_a_markdown_chronicle_links_its_picture_and_replaces_nothing_unasked(
    home: Path, tmp_path: Path
) -> None:
    """Issue #43, item 12: the Markdown chronicle's timeline is a picture beside it, linked
    (a wiki or a repository shows it), never a base64 data address; a picture already there
    is not replaced without --force, and then nothing is written; on standard output the
    chronicle says how to make the picture."""
    chain(home)
    target = tmp_path / "barrow.md"
    (tmp_path / "barrow-timeline.svg").write_text("mine", encoding="utf-8")
    refused = delvetui(home, "export", "--campaign", "barrow", "-o", str(target))
    assert refused.returncode == 2 and "barrow-timeline.svg already exists" in refused.stderr
    assert not target.exists()
    assert (tmp_path / "barrow-timeline.svg").read_text(encoding="utf-8") == "mine"
    forced = delvetui(home, "export", "--campaign", "barrow", "-o", str(target), "--force")
    assert forced.returncode == 0, forced.stderr
    assert "![Timeline of the campaign](barrow-timeline.svg)" in target.read_text("utf-8")
    assert (tmp_path / "barrow-timeline.svg").read_text(encoding="utf-8").startswith("<svg")
    shown = delvetui(home, "export", "--campaign", "barrow", "--format", "md")
    assert shown.returncode == 0 and "data:image" not in shown.stdout
    made = "The timeline is a picture of its own: delvetui export --campaign barrow --format svg"
    assert made in shown.stdout
