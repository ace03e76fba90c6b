"""Shared fixtures: an isolated data folder and a way to open real expeditions."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from delvetui.procedure.registry import find
from delvetui.session import Expedition

Factory = Callable[..., Expedition]


@pytest.fixture(autouse=True)
def home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test gets its own DELVETUI_HOME, so no test touches the user's files."""
    folder = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("DELVETUI_HOME", str(folder))
    return folder


@pytest.fixture
def expedition(home: Path) -> Iterator[Factory]:
    """Make a real expedition file for a shipped procedure: expedition("delving", seed=1)."""
    opened: list[Expedition] = []

    def make(
        procedure: str, *, seed: int = 1, start: str | None = None, name: str = "test"
    ) -> Expedition:
        created = Expedition.create(home / f"{name}.delve", find(procedure), seed=seed, start=start)
        opened.append(created)
        return created

    yield make
    for item in opened:
        item.close()


def run(expedition: Expedition, *commands: str) -> None:
    """Apply commands one after another, as a game master would type them."""
    for command in commands:
        expedition.execute(command)


def reopened(expedition: Expedition) -> Expedition:
    """Close and open the file again, replaying it from disk."""
    path = expedition.path
    expedition.close()
    return Expedition.open(path)
