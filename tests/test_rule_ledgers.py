"""Every shipped procedure keeps a rule ledger (docs/rules/ID.md), and the ledger holds.

A ledger lists every rule of its source's exploration, travel, light, rest, encounter and
time sections and what delvetui does with it (docs/rules/README.md). This test reads each:
one for every shipped procedure, every row in the ledger's shape, the header line that
counts the rows by what delvetui does with them (``Counts: …``) true to the rows, and every
test that an *applied* row names found in the file it names, so a rule cannot claim a test
that is not there.
"""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

import pytest

from tests.shipped import SHIPPED

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "rules"
HEADER = "| # | section | rule, in our words | delvetui | how |"
KINDS = ("applied", "asked", "left to the GM")
_TEST = re.compile(r"`(tests/[\w/]+\.py)::([\w:]+)(?:\[[^\]`]*\])?`")
#: The header line that counts the rows: ``Counts: 71 applied · 12 asked (the players'
#: check results, a save's result) · 9 left to the GM``; the parenthesis says what is asked.
_COUNTS = re.compile(
    r"Counts: (?P<applied>\d+) applied · (?P<asked>\d+) asked(?: \((?P<what>[^()]*\S[^()]*)\))?"
    r" · (?P<left>\d+) left to the GM"
)


def rows(ledger: str) -> list[list[str]]:
    """The ledger table's rows, each as its five cells (the header and rule line left out)."""
    lines = ledger.splitlines()
    assert HEADER in lines, f"the ledger has no table headed {HEADER!r}"
    start = lines.index(HEADER) + 2
    table = []
    for line in lines[start:]:
        if not line.startswith("|"):
            break
        cells = [cell.strip() for cell in re.split(r"(?<!\\)\|", line.strip())[1:-1]]
        table.append(cells)
    return table


@cache
def defined(path: str) -> frozenset[str]:
    """The test names a test file defines: ``name`` for a function, ``Class::name`` for a
    method of a test class."""
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            names.add(node.name)
        elif isinstance(node, ast.ClassDef):
            names.update(
                f"{node.name}::{item.name}"
                for item in node.body
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef)
            )
    return frozenset(names)


def counts_problems(ledger: str, table: list[list[str]]) -> list[str]:
    """What is wrong with the ledger's ``Counts:`` line, right after its ``Sections:`` line:
    missing, out of its shape, or counting other numbers of rows than the table has."""
    lines = ledger.splitlines()
    after = next(
        (lines[i + 1] for i, line in enumerate(lines[:-1]) if line.startswith("Sections: ")), None
    )
    if after is None or not after.startswith("Counts: "):
        return ["the ledger has no line 'Counts: …' right after its 'Sections: …' line"]
    shape = _COUNTS.fullmatch(after)
    if shape is None:
        return [
            f"the line {after!r} is not in the shape 'Counts: N applied · N asked (what is "
            "asked) · N left to the GM'"
        ]
    kinds = [cells[3] for cells in table if len(cells) == 5]
    found = []
    for kind, key in (("applied", "applied"), ("asked", "asked"), ("left to the GM", "left")):
        said, really = int(shape[key]), kinds.count(kind)
        if said != really:
            found.append(f"the Counts line says {said} {kind}, but {really} rows say so")
    if kinds.count("asked") and not shape["what"]:
        found.append("the Counts line does not say what is asked, in brackets after 'asked'")
    return found


def problems(ledger: str) -> list[str]:
    """Every way the ledger's text breaks its shape, one sentence each."""
    found = []
    if not re.search(r"^Source: .*\S", ledger, re.MULTILINE):
        found.append("the ledger names no source (a line 'Source: …')")
    if not re.search(r"^Sections: .*\S", ledger, re.MULTILINE):
        found.append("the ledger names no sections (a line 'Sections: …')")
    table = rows(ledger)
    found.extend(counts_problems(ledger, table))
    if not table:
        found.append("the ledger's table has no rows")
    for number, cells in enumerate(table, start=1):
        if len(cells) != 5:
            found.append(f"row {number} has {len(cells)} cells, not 5: {cells}")
            continue
        index, section, rule, kind, how = cells
        if index != str(number):
            found.append(f"row {number} is numbered {index!r}")
        if not section or not rule:
            found.append(f"row {number} has no section or no rule")
        if kind not in KINDS:
            found.append(f"row {number} says {kind!r}, not one of {', '.join(KINDS)}")
        if not how:
            found.append(f"row {number} ({kind}) does not say how")
        if kind == "applied":
            named = _TEST.findall(how)
            if not named:
                found.append(f"row {number} is applied but names no test (tests/FILE.py::name)")
            for path, name in named:
                if not (ROOT / path).is_file():
                    found.append(f"row {number} names {path}, which does not exist")
                elif name not in defined(path):
                    found.append(f"row {number} names {path}::{name}, which is not defined")
    return found


@pytest.mark.parametrize("procedure", SHIPPED)
def test_each_shipped_procedure_has_a_whole_ledger(procedure: str) -> None:
    ledger = RULES / f"{procedure}.md"
    assert ledger.is_file(), f"{procedure} has no rule ledger at docs/rules/{procedure}.md"
    assert problems(ledger.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize("procedure", SHIPPED)
def test_the_readme_and_the_index_link_each_ledger(procedure: str) -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    index = (RULES / "README.md").read_text(encoding="utf-8")
    assert f"(docs/rules/{procedure}.md)" in readme
    assert f"({procedure}.md)" in index


def test_a_ledger_that_names_a_missing_test_is_refused() -> None:
    ledger = "\n".join(
        [
            "# Rule ledger: x",
            "Source: a text.",
            "Sections: all of it.",
            "Counts: 1 applied · 0 asked · 1 left to the GM",
            "",
            HEADER,
            "|---|---|---|---|---|",
            "| 1 | Light | A torch burns an hour. | applied | "
            "`tests/test_rule_ledgers.py::test_no_such_test` |",
            "| 2 | Combat | Roll to hit. | left to the GM | combat |",
            "| 4 | Rest | Rest every hour. | maybe | |",
        ]
    )
    assert problems(ledger) == [
        "row 1 names tests/test_rule_ledgers.py::test_no_such_test, which is not defined",
        "row 3 is numbered '4'",
        "row 3 says 'maybe', not one of applied, asked, left to the GM",
        "row 3 (maybe) does not say how",
    ]


def _ledger(counts: str | None, *kinds: str) -> str:
    lines = ["# Rule ledger: x", "Source: a text.", "Sections: all of it."]
    if counts is not None:
        lines.append(counts)
    lines += ["", HEADER, "|---|---|---|---|---|"]
    how = {"applied": "`tests/test_rule_ledgers.py::test_no_such_test`"}
    lines += [
        f"| {n} | Light | A rule. | {kind} | {how.get(kind, 'the GM')} |"
        for n, kind in enumerate(kinds, start=1)
    ]
    return "\n".join(lines)


def test_the_counts_line_must_follow_the_sections_and_match_the_rows() -> None:
    kinds = ("applied", "asked", "left to the GM", "left to the GM")
    good = "Counts: 1 applied · 1 asked (a save's result) · 2 left to the GM"
    assert counts_problems(_ledger(good, *kinds), rows(_ledger(good, *kinds))) == []
    missing = _ledger(None, *kinds)
    assert counts_problems(missing, rows(missing)) == [
        "the ledger has no line 'Counts: …' right after its 'Sections: …' line"
    ]
    wrong = _ledger("Counts: 2 applied · 1 asked · 1 left to the GM", *kinds)
    assert counts_problems(wrong, rows(wrong)) == [
        "the Counts line says 2 applied, but 1 rows say so",
        "the Counts line says 1 left to the GM, but 2 rows say so",
        "the Counts line does not say what is asked, in brackets after 'asked'",
    ]
    shapeless = _ledger("Counts: one applied", *kinds)
    assert counts_problems(shapeless, rows(shapeless)) == [
        "the line 'Counts: one applied' is not in the shape 'Counts: N applied · N asked "
        "(what is asked) · N left to the GM'"
    ]
    nothing_asked = ("applied", "left to the GM")
    plain = _ledger("Counts: 1 applied · 0 asked · 1 left to the GM", *nothing_asked)
    assert counts_problems(plain, rows(plain)) == []


def test_the_index_describes_the_counts_line() -> None:
    index = (RULES / "README.md").read_text(encoding="utf-8")
    assert "**Counts**" in index
