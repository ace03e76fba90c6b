"""Write again every file the repository derives from the code, the procedures and the ledgers.

    python -m tests.regenerate            # all of it
    python -m tests.regenerate docs       # the procedures tables only (seconds)

``docs`` writes the README's table of shipped procedures (between its ``procedures``
markers) and the ledgers' index in docs/rules/README.md (between its ``ledgers`` markers),
each row read from a procedure's TOML and its ledger: the game and what it is, its actions
by kind of turn, its 40-turn example when there is one, and its ledger's rows counted by
what delvetui does with them. ``fixtures`` (in ``all``) writes the files the tests keep
byte for byte: the 40-turn examples in docs/examples/ and the scripted expeditions'
transcripts, status and exports under tests/fixtures/scripted/, through the tests that
check them (``DELVETUI_WRITE_EXAMPLES``, ``DELVETUI_WRITE_FIXTURES``).

Fixtures written again are a change to look at: run it after a deliberate change (a new
event field, a new shipped procedure, new words in the log) and read the difference
before committing it. ``tests/test_regenerated.py`` fails when a table is stale.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

from delvetui.procedure.model import Procedure
from delvetui.procedure.registry import find
from tests.shipped import SHIPPED
from tests.test_rule_ledgers import KINDS, rows

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
LEDGERS = ROOT / "docs" / "rules"
EXAMPLES = ROOT / "docs" / "examples"
#: The command, as the stale tables' test and the markers name it.
COMMAND = "python -m tests.regenerate"
#: The test modules that write the fixtures they keep, and the variable that asks them to.
FIXTURES = {
    "tests/test_procedure_sessions.py": "DELVETUI_WRITE_EXAMPLES",
    "tests/test_scripted_exports.py": "DELVETUI_WRITE_FIXTURES",
}


def actions_text(procedure: Procedure) -> str:
    """The procedure's actions (and activities) by the kind of turn they are taken in."""
    kinds = list(procedure.turn_types) or [""]
    said = []
    for kind in kinds:
        doing = list(procedure.actions_in(kind))
        within = list(procedure.activities_in(kind))
        words = ", ".join(doing)
        if within:
            words += f"; {'activity' if len(within) == 1 else 'activities'}: {', '.join(within)}"
        said.append(f"{kind}: {words}" if len(kinds) > 1 else words)
    return "; ".join(said)


def ledger_counts(procedure_id: str) -> Counter[str]:
    """The ledger's rows counted by what delvetui does with each rule."""
    ledger = (LEDGERS / f"{procedure_id}.md").read_text(encoding="utf-8")
    return Counter(cells[3] for cells in rows(ledger) if len(cells) == 5)


def _cell(text: str) -> str:
    return text.replace("|", "\\|").strip()


def procedures_table() -> str:
    """The README's table of shipped procedures, one row each, in the folder's order."""
    lines = [
        "| id | game | actions | 40-turn example | rule ledger: applied · asked · left to the GM |",
        "|---|---|---|---|---|",
    ]
    for procedure_id in SHIPPED:
        procedure = find(procedure_id)
        counts = ledger_counts(procedure_id)
        tally = " · ".join(str(counts[kind]) for kind in KINDS)
        example = EXAMPLES / f"{procedure_id}.txt"
        shown = (
            f"[{procedure_id}.txt](docs/examples/{procedure_id}.txt)" if example.exists() else "—"
        )
        lines.append(
            f"| `{procedure_id}` | {_cell(procedure.name)}: {_cell(procedure.summary)} "
            f"| {_cell(actions_text(procedure))} | {shown} "
            f"| [{procedure_id}](docs/rules/{procedure_id}.md): {tally} |"
        )
    return "\n".join(lines)


def ledgers_table() -> str:
    """The index of docs/rules/README.md: each shipped procedure's ledger and its counts."""
    lines = [
        "| procedure | ledger | applied · asked · left to the GM |",
        "|---|---|---|",
    ]
    for procedure_id in SHIPPED:
        counts = ledger_counts(procedure_id)
        tally = " · ".join(str(counts[kind]) for kind in KINDS)
        lines.append(f"| `{procedure_id}` | [{procedure_id}.md]({procedure_id}.md) | {tally} |")
    return "\n".join(lines)


def between(text: str, name: str, table: str) -> str:
    """The text with what stands between its ``name`` markers replaced by ``table``."""
    begin = f"<!-- {name}:begin: written by `{COMMAND}` -->"
    end = f"<!-- {name}:end -->"
    found = re.search(rf"{re.escape(begin)}\n.*?{re.escape(end)}", text, re.S)
    if found is None:
        raise SystemExit(f"no {begin} … {end} markers to write between")
    return text[: found.start()] + f"{begin}\n{table}\n{end}" + text[found.end() :]


#: Each file a table is written into, its markers' name and the table.
TABLES = {
    README: ("procedures", procedures_table),
    LEDGERS / "README.md": ("ledgers", ledgers_table),
}


def write_docs() -> list[Path]:
    """Write the tables; the files that changed."""
    changed = []
    for path, (name, table) in TABLES.items():
        text = path.read_text(encoding="utf-8")
        new = between(text, name, table())
        if new != text:
            path.write_text(new, encoding="utf-8")
            changed.append(path)
    return changed


def write_fixtures() -> int:
    """Write the examples and the scripted fixtures through the tests that keep them."""
    for test, variable in FIXTURES.items():
        env = {**os.environ, variable: "1"}
        run = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", test],
            cwd=ROOT,
            env=env,
        )
        if run.returncode:
            return run.returncode
    return 0


def main(argv: list[str]) -> int:
    what = argv[0] if argv else "all"
    if what not in ("all", "docs", "fixtures"):
        print(f"usage: {COMMAND} [all|docs|fixtures]", file=sys.stderr)
        return 2
    if what in ("all", "fixtures"):
        failed = write_fixtures()
        if failed:
            return failed
    if what in ("all", "docs"):  # after the examples, which the README's table links
        for path in write_docs():
            print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
