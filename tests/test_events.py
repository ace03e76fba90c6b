"""Every event type round-trips through the expedition file unchanged."""

from __future__ import annotations

from pathlib import Path

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from delvetui.core import events as ev
from delvetui.session import encode, to_batch
from delvetui.store import Store

TEXT = st.text(max_size=30)
INTS = st.integers(-(2**31), 2**31)


def strategy(cls: type[ev.Event]) -> st.SearchStrategy[ev.Event]:
    """Events of one type with every field drawn from its annotated type."""
    overrides: dict[str, st.SearchStrategy[object]] = {}
    for field in attrs.fields(cls):
        kind = field.type.__name__ if isinstance(field.type, type) else str(field.type)
        if kind.startswith("tuple[int"):
            overrides[field.name] = st.lists(INTS, max_size=5).map(tuple)
        elif kind.startswith("tuple[str"):
            overrides[field.name] = st.lists(TEXT, max_size=5).map(tuple)
        elif kind.startswith("dict[str, int]"):
            overrides[field.name] = st.dictionaries(TEXT, INTS, max_size=4)
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
