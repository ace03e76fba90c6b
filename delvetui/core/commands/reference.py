"""The reference part of docs/commands.md, written from the grammar.

``python -m delvetui.core.commands docs/commands.md`` writes it again; tests/test_grammar.py
checks the document holds what this writes.
"""

from __future__ import annotations

import sys
from pathlib import Path

from delvetui.core.commands.grammar import GRAMMAR

BEGIN = "<!-- The reference below is written from the grammar; do not edit it by hand. -->"
END = "<!-- End of the written reference. -->"
#: The command that writes the reference again.
REWRITE = "python -m delvetui.core.commands docs/commands.md"


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def reference() -> str:
    """The reference part of docs/commands.md: every form, what it does and an example."""
    lines = [BEGIN, "", "## Reference", "", f"Written from the grammar by `{REWRITE}`.", ""]
    for verb in GRAMMAR:
        lines.append(f"### {verb.name}")
        lines.append("")
        lines.append(verb.help)
        lines.append("")
        lines.append("| form | what it does | example |")
        lines.append("|---|---|---|")
        for form in verb.forms:
            usage = _cell(form.usage(verb.name))
            lines.append(f"| `{usage}` | {_cell(form.help)} | `{_cell(form.example)}` |")
        lines.append("")
    lines.append(END)
    return "\n".join(lines) + "\n"


def with_reference(document: str) -> str:
    """The document with its reference part written anew (added at the end if missing)."""
    start = document.find(BEGIN)
    stop = document.find(END)
    if start < 0 or stop < start:
        return document.rstrip("\n") + "\n\n" + reference()
    return document[:start] + reference() + document[stop + len(END) :].lstrip("\n")


def main(argv: list[str]) -> int:
    """Write the reference into the documents named."""
    if not argv:
        print(f"usage: {REWRITE}", file=sys.stderr)
        return 2
    for name in argv:
        path = Path(name)
        path.write_text(with_reference(path.read_text(encoding="utf-8")), encoding="utf-8")
    return 0
