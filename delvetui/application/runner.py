"""Running commands from the table: table dice, and fixing a mistaken roll.

Everything goes through :meth:`Expedition.execute`. A result only the table can give (a check
the players made, a number added to a DC) raises ``InputNeeded``, and with table dice on so
does every roll without a typed value (``RollNeeded``): the game master is asked and the
same command runs again with ``KEY=VALUE`` added to it, until it goes through. Nothing is
written until then. No Textual here: the table passes in how to ask.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import attrs

from delvetui import dice
from delvetui.core import commands as cmd
from delvetui.core import events as ev
from delvetui.core.timeline import Batch
from delvetui.errors import CommandError, DelveError, DiceError, RollNeeded
from delvetui.session import Expedition

#: Asks the game master for one roll or result the command needs: the value, or None.
Ask = Callable[[RollNeeded], Awaitable[str | None]]


#: A command asking for more rolls than this is refused (a guard against a loop).
MAX_ASKS = 200


class Cancelled(DelveError):
    """The game master cancelled a roll prompt; nothing was saved."""


async def execute(
    expedition: Expedition, command: cmd.Command | str, *, table_dice: bool, ask: Ask
) -> Batch:
    """Run a command, built or typed; ask for each result it needs.

    After each answer the same command runs again with the answer added to it. A result of
    the players' (a check the procedure cannot roll) is always asked for; with table dice,
    every roll too. The expedition is handed the line the command stands for, which reads
    back as the same command (``tests/test_grammar.py``), so a built command is held to the
    rules a typed one is and the log keeps the line a game master would type.
    """
    current = command
    for _ in range(MAX_ASKS):
        line = current if isinstance(current, str) else cmd.spoken(current)
        try:
            return expedition.execute(line, ask=table_dice, ask_inputs=True)
        except RollNeeded as need:
            if any(c.isspace() for c in need.key):
                raise CommandError(
                    f"Table dice cannot ask for '{need.key}' (a name with a space); "
                    "turn table dice off (t) for this command."
                ) from None
            value = await ask(need)
            if value is None:
                raise Cancelled("Cancelled: nothing of the command was saved.") from None
            parsed = cmd.parse(current) if isinstance(current, str) else current
            current = cmd.with_value(parsed, need.key, value)
    raise CommandError(f"The command asked for more than {MAX_ASKS} rolls; nothing was saved.")


@attrs.frozen
class MadeRoll:
    """A roll made by the last command, and the key that gives it a typed value."""

    key: str
    expression: str
    purpose: str
    shown: str
    value: str
    command: str = ""


def input_key(command: str, event: ev.DiceRolled) -> str:
    """The KEY of KEY=N that types this roll's value into the command."""
    verb = command.split(maxsplit=1)[0].lower() if command.strip() else ""
    if verb == "roll":
        return "result"
    return event.key


def typed_value(event: ev.DiceRolled) -> str:
    """The roll as it would be typed: the face of a single die, else every face."""
    try:
        count = dice.parse(event.expression).dice
    except DiceError:
        return str(event.total)
    if count == 1 and len(event.faces) == 1:
        return str(event.faces[0])
    if len(event.faces) == count:
        return ",".join(str(face) for face in event.faces)
    # One number typed for several dice: what they showed, without the modifier.
    return str(sum(event.kept))


def last_rolls(expedition: Expedition) -> tuple[int, str, list[MadeRoll]]:
    """The last command still standing, and the rolls it made; CommandError when none."""
    last = expedition.timeline.history().undo
    if last is None:
        raise CommandError("There is nothing to fix: no command has been made yet.")
    seq, command = last
    batch = expedition.batch(seq)
    rolls: list[MadeRoll] = []
    for event in batch.events:
        if isinstance(event, ev.DiceRolled):
            faces = ", ".join(str(face) for face in event.faces)
            shown = f"{event.purpose}: {dice.spoken(event.expression)} [{faces}] = {event.total}"
            rolls.append(
                MadeRoll(
                    key=input_key(command, event),
                    expression=event.expression,
                    purpose=event.purpose,
                    shown=shown,
                    value=typed_value(event),
                    command=command,
                )
            )
    if not rolls:
        raise CommandError(f"The last command ({command}) rolled no dice; undo it with u.")
    return seq, command, rolls


def corrected(command: cmd.Command, rolls: list[MadeRoll], index: int, value: str) -> cmd.Command:
    """The command again, with the rolls before the fixed one kept and the fixed one typed.

    Rolls after the fixed one may no longer happen (a different result), so they are
    rolled afresh (or asked for, with table dice).
    """
    kept = rolls[: index + 1]
    fixed = cmd.without_keys(command, {roll.key.casefold() for roll in kept})
    for number, roll in enumerate(kept):
        fixed = cmd.with_value(fixed, roll.key, value if number == index else roll.value)
    return fixed


async def fix_roll(
    expedition: Expedition,
    choose: Callable[[list[MadeRoll]], Awaitable[int | None]],
    fix: Callable[[MadeRoll], Awaitable[str | None]],
    ask: Ask,
    *,
    table_dice: bool,
) -> Batch | None:
    """Undo the last command and make it again with one roll corrected.

    ``choose`` picks the roll, ``fix`` asks for its right value (it can show the old one),
    ``ask`` asks for what the command needs again. If the corrected command is refused, the
    undone one is redone, so nothing is lost.
    """
    _, command, rolls = last_rolls(expedition)
    if any(any(c.isspace() for c in roll.key) for roll in rolls):
        rolls = [roll for roll in rolls if not any(c.isspace() for c in roll.key)]
        if not rolls:
            raise CommandError("The rolls of the last command cannot be typed in; undo it with u.")
    index = await choose(rolls)
    if index is None:
        return None
    roll = rolls[index]
    value = await fix(roll)
    if value is None:
        return None
    fixed = corrected(cmd.parse(command), rolls, index, value)
    expedition.execute(cmd.spoken(cmd.Undo()))
    try:
        return await execute(expedition, fixed, table_dice=table_dice, ask=ask)
    except DelveError:
        expedition.execute(cmd.spoken(cmd.Redo()))
        raise
