"""Every event type round-trips through the expedition file unchanged."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from delvetui.core import events as ev
from delvetui.session import encode, to_batch
from delvetui.store import Store
from tests.conftest import Factory, run

TEXT = st.text(max_size=30)
INTS = st.integers(-(2**31), 2**31)


def strategy(cls: type[ev.Event]) -> st.SearchStrategy[ev.Event]:
    """Events of one type with every field drawn from its annotated type."""
    overrides: dict[str, st.SearchStrategy[object]] = {}
    for field in attrs.fields(cls):
        kind = field.type.__name__ if isinstance(field.type, type) else str(field.type)
        if kind.startswith("tuple[tuple[str, int]"):
            overrides[field.name] = st.dictionaries(TEXT, INTS, max_size=4)  # made pairs
        elif kind.startswith("tuple[int"):
            overrides[field.name] = st.lists(INTS, max_size=5).map(tuple)
        elif kind.startswith("tuple[str"):
            overrides[field.name] = st.lists(TEXT, max_size=5).map(tuple)
        elif kind == "str | None":
            overrides[field.name] = st.none() | TEXT
        elif kind == "int | None":
            overrides[field.name] = st.none() | INTS
        elif kind == "bool | None":
            overrides[field.name] = st.none() | st.booleans()
        elif kind == "str":
            overrides[field.name] = TEXT
        elif kind == "int":
            overrides[field.name] = INTS
        elif kind == "bool":
            overrides[field.name] = st.booleans()
        else:
            raise AssertionError(f"{cls.__name__}.{field.name}: no strategy for {kind}")
    return st.builds(cls, **overrides)


def test_every_event_type_has_a_strategy() -> None:
    for cls in ev.EVENT_TYPES.values():
        strategy(cls)


@pytest.mark.parametrize("name", sorted(ev.EVENT_TYPES))
def test_event_round_trips_through_the_file(
    name: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    cls = ev.EVENT_TYPES[name]

    @settings(max_examples=6, deadline=None)
    @given(events=st.lists(strategy(cls), min_size=1, max_size=3))
    def check(events: list[ev.Event]) -> None:
        path = Path(tmp_path_factory.mktemp("events")) / "x.delve"
        with Store.create(path, meta={}, procedure_text="") as store:
            store.append("cmd", "2026-11-22T20:00:00+00:00", encode(events))
        with Store.open(path, write=False) as store:
            (stored,) = list(store.batches())
        batch = to_batch(stored)
        assert list(batch.events) == events
        assert [e.type for e in batch.events] == [name] * len(events)
        assert all(e.version == ev.SCHEMA_VERSIONS[name] for e in stored.events)

    check()


def frozen_through(value: object, where: str) -> None:
    """Fail when anything inside value could be changed in place."""
    assert not isinstance(value, list | dict | set | bytearray), f"{where} is a {type(value)}"
    if attrs.has(type(value)):
        cls: Any = type(value)
        assert cls.__setattr__ is not object.__setattr__, f"{where} is not frozen"
        for field in attrs.fields(cls):
            frozen_through(getattr(value, field.name), f"{where}.{field.name}")
    elif isinstance(value, tuple | frozenset):
        for index, item in enumerate(value):
            frozen_through(item, f"{where}[{index}]")


@pytest.mark.parametrize("name", sorted(ev.EVENT_TYPES))
def test_events_are_immutable_all_the_way_down(name: str) -> None:
    """No dict or list inside a frozen event: what the file says cannot be changed after."""

    @settings(max_examples=10, deadline=None)
    @given(event=strategy(ev.EVENT_TYPES[name]))
    def check(event: ev.Event) -> None:
        frozen_through(event, name)
        again = ev.Event.from_payload(name, ev.SCHEMA_VERSIONS[name], event.to_payload())
        frozen_through(again, name)
        assert again == event

    check()


def test_a_played_state_is_immutable_all_the_way_down(expedition: Factory) -> None:
    x = expedition("delving")
    run(x, "pc add Ash hp=6 STR=12", "light add torch count=2 carrier=Ash lit", "turn")
    frozen_through(x.state, "State")
    joined = next(e for b in x.batches() for e in b.events if isinstance(e, ev.MemberJoined))
    with pytest.raises(TypeError):
        joined.abilities["STR"] = 18  # type: ignore[index]
