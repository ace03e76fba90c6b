"""One grammar: the parser, the usage lines, completion, the palette and the docs agree."""

from __future__ import annotations

from pathlib import Path

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from delvetui.core import commands as cmd
from delvetui.core.commands import grammar, kinds
from delvetui.core.commands import reference as written
from delvetui.core.commands.completion import completions, options
from delvetui.core.state import Light, Member, State
from delvetui.errors import CommandError
from delvetui.procedure.registry import find
from delvetui.ui.table.palette import grammar_entries

DOCS = Path(__file__).parent.parent / "docs" / "commands.md"
FORMS = list(grammar.forms())
IDS = [form.example for _, form in FORMS]


def test_the_reference_in_the_docs_is_the_grammars() -> None:
    text = DOCS.read_text(encoding="utf-8")
    assert written.BEGIN in text and written.END in text
    assert text == written.with_reference(text), (
        f"docs/commands.md disagrees with the grammar; write it again: {written.REWRITE}"
    )


def test_the_reference_lists_every_form_with_its_example() -> None:
    reference = written.reference()
    for verb, form in FORMS:
        assert form.usage(verb.name).replace("|", "\\|") in reference
        assert f"`{form.example}`" in reference


def test_the_rewrite_command_puts_a_lost_reference_back(tmp_path: Path) -> None:
    page = tmp_path / "commands.md"
    page.write_text("# The command language\n", encoding="utf-8")
    assert written.main([str(page)]) == 0
    assert page.read_text(encoding="utf-8").endswith(written.reference())
    assert written.main([]) == 2


@pytest.mark.parametrize(("verb", "form"), FORMS, ids=IDS)
def test_each_example_parses_to_its_forms_command(verb: cmd.Verb, form: cmd.Form) -> None:
    parsed = cmd.parse(form.example)
    assert type(parsed) is form.command
    assert parsed.text == form.example
    # A command built by the table is logged as the line a game master would type.
    built = attrs.evolve(parsed, text="")
    assert cmd.parse(cmd.spoken(built)) == parsed


def test_the_usage_lines_are_drawn_from_the_forms() -> None:
    assert list(cmd.USAGE) == [verb.name for verb in cmd.GRAMMAR]
    for verb in cmd.GRAMMAR:
        assert cmd.USAGE[verb.name] == " | ".join(
            form.usage(verb.name, brief=True) for form in verb.forms
        )
    # A mistake names the verb's usage, from the same table.
    with pytest.raises(CommandError) as refused:
        cmd.parse("light frobnicate torch1")
    assert refused.value.message.endswith(f"Usage: {cmd.USAGE['light']}")


def commands_declared() -> set[type[cmd.Command]]:
    """Every command class of the package: in ``types``, or beside its forms in a verb's
    module (``light_forms``)."""
    found: set[type[cmd.Command]] = set()
    waiting = [cmd.Command]
    while waiting:
        for sub in waiting.pop().__subclasses__():
            waiting.append(sub)
            if sub.__module__.startswith(cmd.__name__):
                found.add(sub)
    return found


def test_every_command_has_a_form() -> None:
    made = {form.command for _, form in FORMS}
    kinds = list(vars(cmd.types).values())
    classes = {c for c in kinds if isinstance(c, type) and issubclass(c, cmd.Command)}
    assert classes - {cmd.Command} <= made
    assert commands_declared() == made


def test_the_package_gives_every_command_by_its_name() -> None:
    """A command declared in a verb's module is ``commands.NAME`` as one of ``types`` is,
    so the handler in ``decide`` names it the same way."""
    for command in commands_declared():
        assert getattr(cmd, command.__name__) is command, command
    assert cmd.DouseLights.__module__ == "delvetui.core.commands.light_forms"


def test_the_palette_lists_every_verb_with_its_usage() -> None:
    assert list(grammar_entries()) == [
        (f"Command: {verb.name}", cmd.USAGE[verb.name], f"{verb.name} ") for verb in cmd.GRAMMAR
    ]


@pytest.mark.parametrize(("verb", "form"), FORMS, ids=IDS)
def test_completion_offers_every_word_of_each_form(verb: cmd.Verb, form: cmd.Form) -> None:
    procedure = find("trespasser")
    state = State(
        party=(Member("Ash", 6, 6, conditions=("poisoned",)),),
        lights=(
            Light("torch1", "torch", "Ash", "bright", count=5),
            Light("torch2", "torch", "Ash", "bright", lit=True),
        ),
    )
    assert verb.name in options([], state, procedure)
    words = form.example.split()
    fixed = [word for word in form.words if word.is_fixed]
    if fixed and fixed[0].kind == "word":
        assert fixed[0].shown in options([verb.name], state, procedure)
    typed = [words[0], *words[1 : 1 + len(fixed)]]
    offered = options(typed, state, procedure)
    for word in form.words:
        if word.is_key and word.keys:
            assert {f"{key}=" for key in word.keys} <= set(offered), word
        if word.kind == "flag":
            assert word.shown in offered


def test_a_usage_die_is_set_by_its_size_and_completed_from_the_sizes() -> None:
    """A usage die is corrected with ``light set ID die=dN``: read as a size, spoken back
    as typed, its sizes offered by completion, and anything else refused with the sizes."""
    assert cmd.parse("light set torch1 die=d6") == cmd.SetLight(target="torch1", die=6)
    assert cmd.spoken(cmd.SetLight(target="torch1", die=8)) == "light set torch1 die=d8"
    with pytest.raises(CommandError, match="die=d7 is not a usage die; give one of d4, d6"):
        cmd.parse("light set torch1 die=d7")
    with pytest.raises(CommandError, match="Give one of turns=N, minutes=N or die=dN"):
        cmd.parse("light set torch1 turns=2 die=d6")
    procedure = find("trespasser")
    state = State(lights=(Light("torch1", "torch", None, "bright", lit=True, usage_die=4),))
    assert completions("light set torch1 die=", state, procedure) == [
        f"light set torch1 die=d{n}" for n in (4, 6, 8, 10, 12, 20)
    ]


def test_every_kind_of_word_is_declared_once_and_named_by_the_grammar() -> None:
    """A word's kind is declared in one place (``kinds.KINDS``: its type and what completes
    it); a word naming a kind not there fails as the grammar loads, and no kind is left that
    no word names."""
    named = {word.kind for _, form in FORMS for word in form.words}
    named |= {word.value for _, form in FORMS for word in form.words if word.is_key}
    assert sorted(set(kinds.KINDS) - named) == []
    with pytest.raises(ValueError, match="no kind of word is called 'membre'"):
        cmd.Word("NAME", "membre")


def test_a_value_is_added_to_a_command_as_if_typed() -> None:
    turn = cmd.parse("turn hide stealth=success")
    more = cmd.with_value(turn, "sparks", "1")
    assert more == cmd.parse("turn hide stealth=success sparks=1")
    assert more.text == "turn hide stealth=success sparks=1"
    roll = cmd.with_value(cmd.parse("roll 2d6 reaction"), "result", "3,4")
    assert roll == cmd.parse("roll 2d6 reaction result=3,4")
    with pytest.raises(CommandError, match="does not belong here"):
        cmd.with_value(cmd.parse("light on torch1"), "usage.torch1", "2")
    with pytest.raises(CommandError, match="needs a value"):
        cmd.with_value(turn, "sparks", "")
    with pytest.raises(CommandError, match="characters long"):
        cmd.with_value(turn, "sign", "x" * cmd.MAX_COMMAND_LENGTH)


@pytest.mark.parametrize(
    ("line", "key", "value", "fixed"),
    [
        ("turn search hazard=3 stealth=success", "hazard", "5", "turn search stealth=success"),
        ("do batter-door by=Ash batter=4", "batter", "9", "do batter-door by=Ash"),
        ("light on torch1 burn=3", "burn", "5", "light on torch1"),
        ("light add torch lit burn=2", "burn", "6", "light add torch count=1 lit"),
        ("roll 2d6 reaction result=3,4", "result", "6,6", "roll 2d6 reaction"),
        ("time roll 2 time=1,2", "time", "3,4", "time roll 2"),
    ],
)
def test_a_value_the_form_lets_the_table_type_is_taken_out_and_typed_again(
    line: str, key: str, value: str, fixed: str
) -> None:
    """Fixing a mistaken roll takes the old value out and types the right one, for every
    command whose form lets the table type a value: a lit torch's burn too, which once kept
    both (``light on torch1 burn=3 burn=5``)."""
    without = cmd.without_keys(cmd.parse(line), {key})
    assert cmd.spoken(without) == fixed
    again = cmd.with_value(without, key, value)
    assert again == cmd.parse(f"{fixed} {key}={value}")


def test_only_what_a_form_lets_the_table_type_is_added_to_a_built_command() -> None:
    """A key the form takes but the table does not type (a light's carrier) is refused as
    a key it does not take is; the inputs ``decide`` reads are the typed ones alone."""
    with pytest.raises(CommandError, match="'carrier=' does not belong here"):
        cmd.with_value(cmd.parse("light on torch1"), "carrier", "Ash")
    with pytest.raises(CommandError, match="'result=' does not belong here"):
        cmd.with_value(cmd.parse("time roll 2"), "result", "3")
    assert cmd.table_values(cmd.parse("light on torch1 carrier=Ash burn=4")) == (("burn", "4"),)
    assert cmd.table_values(cmd.parse("roll 2d6 result=3,4")) == ()


_WORD = st.from_regex(r"[a-z][a-z0-9\-]{0,11}", fullmatch=True)
_NAME = st.from_regex(r"[A-Z][a-z]{0,8}( [A-Z][a-z]{0,8})?", fullmatch=True).filter(
    lambda name: name.lower() not in ("add", "remove")
)
_AMOUNT = st.builds(cmd.Amount, st.integers(-500, 500), st.booleans()).filter(
    lambda amount: amount.relative or amount.value >= 0
)
_NUMBER = st.from_regex(r"[+-]?[0-9]{1,3}", fullmatch=True)
_VALUES = st.lists(st.tuples(_WORD, _WORD), max_size=3).map(tuple)

_COMMANDS = st.one_of(
    st.builds(cmd.TakeTurn, action=st.none() | _WORD, values=_VALUES),
    st.builds(cmd.DoActivity, activity=_WORD, values=_VALUES),
    st.builds(
        cmd.AddLight,
        kind=_WORD,
        carrier=st.none() | _NAME,
        count=st.integers(1, 999),
        lit=st.booleans(),
    ),
    st.builds(cmd.LightOn, target=_WORD, carrier=st.none() | _NAME),
    st.builds(cmd.LightOff, target=_WORD),
    st.builds(cmd.HandLight, target=_WORD, carrier=st.none() | _NAME),
    st.builds(cmd.SetLight, target=_WORD, turns=st.integers(0, 999)),
    st.builds(cmd.SetLight, target=_WORD, die=st.sampled_from((4, 6, 8, 10, 12, 20))),
    st.builds(cmd.RefuelLight, target=_WORD),
    st.builds(cmd.EditMember, name=_NAME, hp=_AMOUNT),
    st.builds(cmd.EditMember, name=_NAME, fatigue=_AMOUNT, gain=st.tuples(_WORD)),
    st.builds(cmd.RemoveMember, name=_NAME),
    st.builds(cmd.Session, start=st.booleans()),
    st.builds(cmd.SetTime, hour=st.integers(0, 23), minute=st.integers(0, 59)),
    st.builds(cmd.RollTime, count=st.none() | st.integers(1, 4)),
    st.builds(cmd.EnterTurnType, turn_type=_WORD),
    st.builds(
        cmd.SetCounter,
        counter=_WORD,
        value=_WORD | st.from_regex(r"[+-]?[0-9]{1,3}", fullmatch=True),
    ),
    st.builds(cmd.ShowPlayers, what=st.sampled_from(cmd.PLAYERS_SHOW), shown=st.booleans()),
    st.builds(cmd.DescribeEncounter, creature=_NAME, distance=st.none() | _WORD),
    st.builds(cmd.DescribeEncounter, distance=_WORD),
    st.builds(
        cmd.SetTimer,
        verb=st.sampled_from(("add", "set")),
        name=_NAME,
        amount=st.integers(1, 999_999),
        unit=st.sampled_from(("turns", "minutes", "hours")),
    ),
    st.builds(cmd.SetTimer, verb=st.just("add"), name=_NAME),
    st.builds(cmd.SetTimer, verb=st.just("cancel"), name=_NAME),
    st.just(cmd.Undo()),
    st.just(cmd.Redo()),
)


@given(_COMMANDS)
def test_a_built_command_reads_back_from_its_line(command: cmd.Command) -> None:
    """The line the log keeps for a command the table built is that command, typed."""
    line = cmd.spoken(command)
    assert cmd.parse(line) == command
    assert cmd.said(command).text == line


@pytest.mark.parametrize(("verb", "form"), FORMS, ids=IDS)
def test_each_form_names_the_fields_its_words_fill(verb: cmd.Verb, form: cmd.Form) -> None:
    """A form read from its declaration fills every field its command needs, from a word or
    a constant, and names no field the command lacks (a hand-read form says why instead)."""
    if form.reader is not None:
        assert form.writer is not None and form.reader.__doc__, "a hand-read form says why"
        return
    fields = attrs.fields_dict(form.command)
    named = [field for word in form.words for field in word.fields]
    named += [field for field, _ in form.sets]
    assert set(named) <= set(fields) - {"text"}, named
    needed = {name for name, field in fields.items() if field.default is attrs.NOTHING}
    assert needed <= set(named), needed - set(named)


@pytest.mark.parametrize(
    ("line", "command"),
    [
        ("light give torch1 nobody", cmd.HandLight(target="torch1", carrier=None)),
        ("light give torch1 none", cmd.HandLight(target="torch1", carrier=None)),
        ("light give torch1 -", cmd.HandLight(target="torch1", carrier=None)),
        ("light add torch count=999", cmd.AddLight(kind="torch", count=999)),
        ("time roll 4", cmd.RollTime(count=4)),
        (
            "realtime pause 5m a long rest",
            cmd.RealTime(verb="pause", seconds=300, reason="a long rest"),
        ),
        ("realtime pause a long rest", cmd.RealTime(verb="pause", reason="a long rest")),
    ],
)
def test_the_rules_of_a_word_are_the_grammars(line: str, command: cmd.Command) -> None:
    """What once lived only in a hand reader is declared with the word: nobody, none and -
    hand a light to no one, a stack holds up to 999 lights, 1 to 4 time dice are rolled, a
    pause's span is read only when it is one."""
    assert cmd.parse(line) == command
    assert cmd.parse(cmd.spoken(attrs.evolve(command, text=""))) == command


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("light add torch count=1000", "count=1000 is too large; the most is 999."),
        ("time roll 5", "Roll 1 to 4 time dice."),
        ("light give torch1 Ash zz=1", "'zz=' does not belong here."),
        ("time roll 2 junk", "Say time set HH:MM or time roll N."),
        (
            "hide sky",
            "Say hide sign, hide encounter, hide hp or hide room. "
            "Usage: hide sign|encounter|hp|room",
        ),
    ],
)
def test_words_a_form_does_not_take_are_refused_with_its_usage(line: str, message: str) -> None:
    """Bad input gets a clear sentence and the verb's own usage line; a word left over is
    refused, never dropped (a key after ``light give ID NAME``, a word after ``time roll
    N``), and ``hide`` ends with its own usage, not ``reveal``'s."""
    with pytest.raises(CommandError) as refused:
        cmd.parse(line)
    assert refused.value.message.startswith(message)
