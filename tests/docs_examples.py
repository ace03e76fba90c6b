"""What the documentation shows, read out of it: its complete TOML examples, the commands
the text after each one types, the commands of its prose, and which tests play them.

``tests/test_docs_examples.py`` holds the docs to these: every command a page shows is
typed by a test that plays its example (the test's own assertions say what the text says
it gives), every transcript (`$ delvetui ...` and what it prints) runs as shown.
"""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

import attrs

from delvetui.core import commands
from delvetui.errors import DelveError

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
TESTS = ROOT / "tests"

_BLOCK = re.compile(r"```(\w*)\n(.*?)```", re.DOTALL)
_COMPLETE = re.compile(r"<!-- complete -->\s*\Z")
_ID = re.compile(r'^id = "([^"]+)"', re.MULTILINE)
#: A code span, which may wrap onto the next line of the Markdown.
_SPAN = re.compile(r"`([^`]+?)`")
#: A word that stands for what the game master fills in: NAME, ID, N, +CONDITION.
_PLACEHOLDER = re.compile(r"[A-Z][A-Z_]*")


@attrs.frozen
class Example:
    """A complete TOML example of a page: its procedure's id, its line, its text, and the
    paragraph after it that says what it does."""

    id: str
    line: int
    text: str
    paragraph: str


def page(name: str) -> str:
    """A page of docs/ (procedures.md, commands.md)."""
    return (DOCS / name).read_text(encoding="utf-8")


def examples(text: str) -> list[Example]:
    """Every ``<!-- complete -->`` TOML block of a page and the paragraph that follows it."""
    found = []
    for block in _BLOCK.finditer(text):
        if block.group(1) != "toml" or _COMPLETE.search(text[: block.start()]) is None:
            continue
        named = _ID.search(block.group(2))
        assert named is not None, "a complete example names its id"
        after = text[block.end() :].lstrip("\n")
        paragraph = after.split("\n\n", 1)[0]
        if paragraph.startswith(("#", "```", "<!--")):
            paragraph = ""
        line = text.count("\n", 0, block.start()) + 1
        found.append(Example(named.group(1), line, block.group(2), paragraph))
    return found


def prose(text: str) -> str:
    """The Markdown with its fenced blocks taken out: only its running text."""
    return _BLOCK.sub("", text)


def _placeholder(word: str) -> bool:
    """True for a word a reader fills in: a whole word in capitals (ID, NAME, +CONDITION) or
    such a value (hp=N); an ability's name given a value (WIS=12) is not."""
    word = word.lstrip("+-")
    if "=" in word:
        word = word.split("=", 1)[1]
    return bool(_PLACEHOLDER.fullmatch(word))


def command(span: str) -> str | None:
    """The command a code span shows, as the command language says it; None when the span
    is not one (a key, a value) or is a form with words to fill in (`light on ID`)."""
    span = " ".join(span.split())
    if not span or any(mark in span for mark in "[]|…") or "..." in span or " = " in span:
        return None  # a form or a TOML key, not a command typed
    if span.startswith('"') and span.endswith('"'):
        return None  # a word quoted: "turn" is what the game calls a turn
    if any(_placeholder(word) for word in span.split()):
        return None
    try:
        return commands.spoken(commands.parse(span))
    except DelveError:
        return None


#: Words of the procedure format that are also a command's name: in procedures.md a span
#: `end` is a roll rule's moment (``when = "end"``), not the command that ends a trip.
FORMAT_WORDS = frozenset({"end"})


def shown(text: str, *, words: frozenset[str] = FORMAT_WORDS) -> list[str]:
    """The commands a stretch of Markdown shows in its code spans, in order, but for a span
    that is one of ``words`` alone."""
    found = []
    for span in _SPAN.findall(prose(text)):
        if span.strip() in words:
            continue
        said = command(span)
        if said is not None and said not in found:
            found.append(said)
    return found


def cli_shown(text: str) -> list[str]:
    """The `delvetui ...` command lines a stretch of Markdown shows, without the word
    ``delvetui``: only whole examples, not forms with words to fill in."""
    found = []
    for span in _SPAN.findall(prose(text)):
        span = " ".join(span.split())
        if not span.startswith("delvetui ") or any(mark in span for mark in "[]|…"):
            continue
        words = span.split()[1:]
        if len(words) < 2 or any(_placeholder(w) for w in words if not w.startswith("--")):
            continue  # a subcommand's name alone, or a form with words to fill in
        line = " ".join(words)
        if line not in found:
            found.append(line)
    return found


@functools.cache
def _strings(module: Path) -> tuple[str, ...]:
    """Every text a test module writes out, joined where it is split across lines."""
    tree = ast.parse(module.read_text(encoding="utf-8"))
    return tuple(
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    )


@functools.cache
def _typed(module: Path) -> frozenset[str]:
    """The commands a test module types, as the command language says them."""
    found = set()
    for text in _strings(module):
        said = command(text)
        if said is not None:
            found.add(said)
    return frozenset(found)


def players(example_id: str) -> list[Path]:
    """The test modules that play an example: they load it from the page by its id
    (``complete("ID")``, ``doc_example("ID")``, ``start(home, "ID", ...)``, or the page's
    blocks searched for ``id = "ID"``)."""
    loads = (
        f'complete("{example_id}")',
        f'doc_example("{example_id}")',
        f'start(home, "{example_id}"',  # tests/test_docs_examples.py's own helper
    )
    searched = f"'id = \"{example_id}\"' in"
    found = []
    for module in sorted(TESTS.glob("test_*.py")):
        source = module.read_text(encoding="utf-8")
        if any(mark in source for mark in loads) or searched in source:
            found.append(module)
    return found


def typed_by(modules: list[Path]) -> frozenset[str]:
    """Every command the modules type."""
    return frozenset().union(*(_typed(module) for module in modules))


def cli_typed_by(modules: list[Path]) -> frozenset[str]:
    """Every `delvetui` command line the modules run, as one line of words each: a tuple
    of texts passed to the command line, joined, and each text that is a whole line."""
    found: set[str] = set()
    for module in modules:
        tree = ast.parse(module.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call | ast.Tuple | ast.List):
                parts = node.args if isinstance(node, ast.Call) else node.elts
                words = [
                    part.value
                    for part in parts
                    if isinstance(part, ast.Constant) and isinstance(part.value, str)
                ]
                if words:
                    found.add(" ".join(words))
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                found.add(" ".join(node.value.split()))
    return frozenset(found)


@attrs.frozen
class Transcript:
    """A block of `$ delvetui ...` lines and what each prints, as a page shows it."""

    line: int
    steps: tuple[tuple[str, tuple[str, ...]], ...]


def transcripts(text: str) -> list[Transcript]:
    """Every text block of a page that shows `$ delvetui` commands and their output."""
    found = []
    for block in _BLOCK.finditer(text):
        if block.group(1) != "text" or "$ delvetui " not in block.group(2):
            continue
        steps: list[tuple[str, list[str]]] = []
        rows = block.group(2).splitlines()
        indent = len(rows[0]) - len(rows[0].lstrip()) if rows else 0
        for row in (row[indent:] for row in rows):
            if row.startswith("$ delvetui "):
                steps.append((row.removeprefix("$ delvetui "), []))
            elif steps:
                steps[-1][1].append(row)
        line = text.count("\n", 0, block.start()) + 1
        kept = tuple((said, tuple("\n".join(out).rstrip().splitlines())) for said, out in steps)
        found.append(Transcript(line, kept))
    return found


def printed_as_shown(shown: tuple[str, ...], printed: list[str]) -> bool:
    """True when the lines printed are the lines shown, where a line "…" stands for any
    lines (none or more) and a path shown in a home of "/home/you/" for the same file
    anywhere."""
    if not shown:
        return not printed
    first, rest = shown[0], shown[1:]
    if first == "…":
        return any(printed_as_shown(rest, printed[skip:]) for skip in range(len(printed) + 1))
    if not printed:
        return False
    here = printed[0]
    same = here.strip() == first.strip() or (
        first.startswith("/home/you/") and Path(here).name == Path(first).name
    )
    if "…" in first and not same:
        # "use one of: log, roll, …." leaves out the end of a long list.
        pattern = ".*".join(re.escape(part) for part in first.strip().split("…"))
        same = re.fullmatch(pattern, here.strip()) is not None
    return same and printed_as_shown(rest, printed[1:])


def doc_example(example_id: str, name: str = "procedures.md") -> str:
    """The TOML of a page's complete example whose procedure has this id."""
    return next(ex.text for ex in examples(page(name)) if ex.id == example_id)
