"""Value classes keep the repr, equality and hash attrs would have written for them."""

from __future__ import annotations

import attrs

from delvetui.core import commands as cmd
from delvetui.core import events as ev
from delvetui.procedure.model import Effect


@attrs.frozen
class Written:
    """The same fields, with attrs' own methods, to compare against."""

    text: str
    creature: str = ""
    foretold: bool = True
    distance: str = ""
    area: str = ""
    appearing: int = 0
    reaction: str = ""
    players: str = ""


def test_the_repr_is_attrs_own() -> None:
    event = ev.EncounterBegan(text="Ghouls", creature="ghoul", distance="far")
    written = Written(text="Ghouls", creature="ghoul", distance="far")
    assert repr(event) == repr(written).replace("Written(", "EncounterBegan(")


def test_equal_fields_are_equal_and_hash_alike() -> None:
    one = ev.Noted(text="hi")
    assert one == ev.Noted(text="hi") and hash(one) == hash(ev.Noted(text="hi"))
    assert one != ev.Noted(text="ho")
    assert {one, ev.Noted(text="hi")} == {one}


def test_another_class_with_the_same_fields_is_not_equal() -> None:
    assert ev.LightLit(id="t1", source="t", carrier=None) != ev.LightLit(
        id="t1", source="t", carrier="Ash"
    )
    assert ev.Noted(text="hi") != Written(text="hi")
    assert ev.Noted(text="hi") != "hi"


def test_a_field_left_out_of_equality_stays_out() -> None:
    typed = cmd.parse("note hi")
    built = cmd.Note(note="hi")
    assert typed.text and not built.text
    assert typed == built and hash(typed) == hash(built)


def test_a_procedure_model_value_compares_by_its_fields() -> None:
    assert Effect(do="log", text="x") == Effect(do="log", text="x")
    assert Effect(do="log", text="x") != Effect(do="log", text="y")
    assert "do='log'" in repr(Effect(do="log"))
