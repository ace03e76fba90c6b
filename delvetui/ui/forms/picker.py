"""A list to pick from in a form that jumps to the letters typed: "sh" goes to the first
choice whose name (or id: "ose") starts so, as the pickers of the table's dialogs do;
letters that start none leave the choice where it is."""

from __future__ import annotations

import time

from rich.text import Text
from textual import events
from textual.widgets import OptionList

#: How long after a letter the next one still adds to what is looked for, in seconds.
TYPED_FOR = 1.0


class Picker(OptionList):
    """An option list that jumps to the first choice starting with the letters typed."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self._typed = ""
        self._at = 0.0

    def on_key(self, event: events.Key) -> None:
        """A letter (or a digit after letters) goes to the first choice starting with what
        was typed within the last second."""
        character = event.character or ""
        if len(character) != 1 or not (character.isalnum() or character in "-' "):
            return
        if character == " " and not self._typed:
            return
        now = time.monotonic()
        typed = self._typed + character if now - self._at < TYPED_FOR else character
        self._at = now
        found = self._starting(typed.casefold())
        self._typed = typed
        event.stop()
        event.prevent_default()
        if found is not None:
            self.highlighted = found

    def _starting(self, typed: str) -> int | None:
        """The first choice (not greyed) whose name or id starts with ``typed`` ("ose" is
        Old-School Essentials)."""
        for index in range(self.option_count):
            option = self.get_option_at_index(index)
            prompt = option.prompt
            words = prompt.plain if isinstance(prompt, Text) else str(prompt)
            names = (words.strip().casefold(), (option.id or "").casefold())
            if not option.disabled and any(name.startswith(typed) for name in names):
                return index
        return None
