"""What the repository derives is as the command writes it (``python -m tests.regenerate``).

The README's table of shipped procedures and the ledgers' index are written from each
procedure's TOML and its ledger; one that no longer matches fails here, naming the command
that writes it again. (The fixtures the command writes are checked by the tests that keep
them: ``test_procedure_sessions`` and ``test_scripted_exports``.)
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.regenerate import COMMAND, README, TABLES, actions_text, between, ledger_counts
from tests.shipped import SHIPPED


@pytest.mark.parametrize("path", list(TABLES), ids=lambda path: path.name)
def test_a_derived_table_is_as_the_command_writes_it(path: Path) -> None:
    name, table = TABLES[path]
    text = path.read_text(encoding="utf-8")
    assert between(text, name, table()) == text, f"{path.name} is stale: run `{COMMAND} docs`"


def test_the_readme_table_has_a_row_for_each_shipped_procedure() -> None:
    readme = README.read_text(encoding="utf-8")
    for procedure_id in SHIPPED:
        counts = ledger_counts(procedure_id)
        tally = f"{counts['applied']} · {counts['asked']} · {counts['left to the GM']}"
        assert f"[{procedure_id}](docs/rules/{procedure_id}.md): {tally} |" in readme


def test_only_what_stands_between_the_markers_is_written() -> None:
    begin = f"<!-- x:begin: written by `{COMMAND}` -->"
    text = f"before\n{begin}\nold\n<!-- x:end -->\nafter\n"
    assert between(text, "x", "new") == f"before\n{begin}\nnew\n<!-- x:end -->\nafter\n"


def test_actions_are_said_by_kind_of_turn_where_a_game_has_kinds() -> None:
    from delvetui.procedure.registry import find

    assert actions_text(find("delving")) == "crawl, walk, run, search, rest"
    said = actions_text(find("cairn"))
    assert said.startswith("wilderness: travel") and "; dungeon: move" in said
