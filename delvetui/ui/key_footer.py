"""The footer of the table: every key, over as many rows as the screen needs."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import Footer


class KeyFooter(Footer):
    """Textual's footer laid out as a grid, so no key falls off the right edge."""

    rows: reactive[int] = reactive(2, recompose=True)
    """How many rows the keys are spread over."""

    class KeysShown(Message):
        """The footer holds the screen's keys (they come in after the first paint)."""

    def __init__(self, *, compact: bool = False) -> None:
        super().__init__(compact=compact)
        self._shown: tuple[object, ...] = ()

    def _keys(self) -> tuple[object, ...]:
        """What the footer shows: every key with its label and whether it can be used."""
        keys = tuple(
            (binding.key, self.app.get_key_display(binding), binding.description, enabled, tip)
            for _, binding, enabled, tip in self.screen.active_bindings.values()
            if binding.show
        )
        return (self.rows, self.compact, self.show_command_palette, keys)

    async def recompose(self) -> None:
        """Lay the keys out again when they changed; say so once they are there.

        Textual asks again on every change of focus or bindings, several times while the
        table starts; building the same keys again restyled each one (a tenth of the
        start-up), so the same keys are left as they are.
        """
        keys = self._keys()
        if self.children and keys == self._shown:
            return
        self._shown = keys
        await super().recompose()
        if self.children:
            self.post_message(self.KeysShown())

    def compose(self) -> ComposeResult:
        """The footer's keys; then the grid gets as many columns as the rows need.

        Each key is given its compact look before it is mounted: Textual's footer binds
        it afterwards, and a class added then restyled every key one by one (about a
        twentieth of the start-up).
        """
        children = list(super().compose())
        for child in children:
            child.set_class(self.compact, "-compact", update=False)
        yield from children
        keys = len(children)
        self.styles.grid_size_columns = max(1, -(-keys // max(1, self.rows)))
