"""The footer of every screen: every key, over as many rows as the screen needs.

One widget draws all the keys. Textual's footer mounts a widget for each key, and the
table has about twenty: styling, laying out and drawing them was a tenth of the table's
start-up, and they were built again whenever the keys changed (on the new-expedition
form, with every move from one field to the next). Here a change of keys is a repaint.
"""

from __future__ import annotations

from typing import ClassVar, Protocol, runtime_checkable

import attrs
from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual import events
from textual.message import Message
from textual.reactive import reactive
from textual.screen import Screen
from textual.widget import Widget

from delvetui.text import visible


@runtime_checkable
class HidesKeys(Protocol):
    """A screen whose live keys include some it has no use for now (the table's search key
    in a procedure without a search): left out of the footer, they still say why when
    pressed."""

    def unused_keys(self) -> frozenset[str]:
        """The actions of the keys to leave out."""
        ...


@attrs.frozen
class Key:
    """One key in the footer: what to press, what it does, and whether it can be used now."""

    key: str
    display: str
    description: str
    enabled: bool = True

    @property
    def width(self) -> int:
        """The cells the key takes: its name, then a space and what it does."""
        return cell_len(self.display) + (cell_len(self.description) + 1 if self.description else 0)


@attrs.frozen
class Spot:
    """Where a key is drawn: its row and its columns (for a click)."""

    row: int
    start: int
    end: int
    key: Key


def footer_rows(needed: int, width: int) -> int:
    """The rows the footer's keys take at this width: one where they fit in one.

    Over several rows the grid's columns take the width of their widest key, so two rows
    need room to spare (a third more than half), and three a fifth more than a third; past
    that (a fight's keys beside the turn's at 80 columns), four.
    """
    if needed <= width:
        return 1
    if needed * 2 // 3 <= width:
        return 2
    return 3 if needed * 2 // 5 <= width else 4


class KeyFooter(Widget, can_focus=False):
    """The screen's keys in a grid: equal columns, so no key falls off the right edge.

    The table sets ``rows`` as it lays itself out (it knows every key it may show); with
    ``fit``, the footer takes the rows its keys need at the terminal's width itself.
    """

    ALLOW_SELECT = False
    COMPONENT_CLASSES: ClassVar[set[str]] = {"key-footer--key", "key-footer--description"}

    rows: reactive[int] = reactive(2, layout=True)
    """How many rows the keys are spread over."""

    class KeysShown(Message):
        """The footer shows the screen's keys (they come in after the first paint)."""

    def __init__(self, *, fit: bool = False) -> None:
        super().__init__()
        self.fit = fit
        """Take the rows the keys need at the terminal's width (else ``rows`` is set)."""
        self.keys: tuple[Key, ...] = ()
        """The keys shown, in order (the command palette's last)."""
        self._spots: tuple[Spot, ...] = ()

    def on_mount(self) -> None:
        """Follow the screen's keys, as Textual's footer does."""
        self.screen.bindings_updated_signal.subscribe(self, self._bindings_changed)
        self.call_after_refresh(self._bindings_changed, self.screen)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def _bindings_changed(self, screen: Screen[object]) -> None:
        if not self.is_attached or screen is not self.screen:
            return
        keys = self._read_keys(screen)
        if keys == self.keys:
            return
        first = not self.keys
        self.keys = keys
        self.refresh(layout=True)
        self._fit(self.app.size.width)
        if first and keys:
            self.post_message(self.KeysShown())

    def on_resize(self, event: events.Resize) -> None:
        self._fit(event.size.width)

    def _fit(self, width: int) -> None:
        """With ``fit``: the rows the keys need at this width."""
        if not self.fit or not width:
            return
        rows = footer_rows(sum(key.width + 2 for key in self.keys), width)
        if self.rows != rows:
            self.rows = rows

    def _read_keys(self, screen: Screen[object]) -> tuple[Key, ...]:
        """Every key shown, the first binding of each action; the palette's key last.

        A key's name can come from the keymap in the preferences file, so it is drawn with
        every control character made visible, as all text from a file is.
        """
        app = self.app
        found: dict[str, Key] = {}
        active = screen.active_bindings
        unused = screen.unused_keys() if isinstance(screen, HidesKeys) else frozenset()
        for _, binding, enabled, _ in active.values():
            if binding.show and binding.action not in found and binding.action not in unused:
                display = visible(app.get_key_display(binding))
                found[binding.action] = Key(
                    binding.key, display, visible(binding.description), enabled
                )
        keys = list(found.values())
        palette = active.get(app.COMMAND_PALETTE_BINDING) if app.ENABLE_COMMAND_PALETTE else None
        if palette is not None and not palette[1].show:
            _, binding, enabled, _ = palette
            keys.append(
                Key(binding.key, app.get_key_display(binding), binding.description, enabled)
            )
        return tuple(keys)

    def render(self) -> Text:
        """The keys row by row, each column as wide as its widest key."""
        keys = self.keys
        rows = max(1, self.rows)
        columns = max(1, -(-len(keys) // rows))
        widths = [
            max((key.width for key in keys[column::columns]), default=0)
            for column in range(columns)
        ]
        key_style = self.get_component_rich_style("key-footer--key")
        description_style = self.get_component_rich_style("key-footer--description")
        dim = Style(dim=True)
        lines: list[Text] = []
        spots: list[Spot] = []
        for row in range(rows):
            line = Text(no_wrap=True, end="")
            start = 0
            for column, key in enumerate(keys[row * columns : (row + 1) * columns]):
                faded = Style() if key.enabled else dim
                line.append(key.display, key_style + faded)
                if key.description:
                    line.append(" ")
                    line.append(key.description, description_style + faded)
                end = start + widths[column]
                spots.append(Spot(row, start, end, key))
                if column < columns - 1:
                    line.append(" " * (widths[column] - key.width + 1))
                start = end + 1
            lines.append(line)
        self._spots = tuple(spots)
        return Text("\n", no_wrap=True, end="").join(lines)

    def on_click(self, event: events.Click) -> None:
        """A click on a key presses it (a key that cannot be used now rings the bell)."""
        offset = event.get_content_offset(self)
        if offset is None:
            return
        for spot in self._spots:
            if spot.row == offset.y and spot.start <= offset.x < spot.end:
                if spot.key.enabled:
                    self.app.simulate_key(spot.key.key)
                else:
                    self.app.bell()
                return
