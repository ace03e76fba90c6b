"""The table's real-time clock: it counts real time for the lights that burn in real time.

While the table is open, a session is running and the clock is not paused, every lit
real-time light burns down by the real clock: real time at the table is the session's
time, so a torch lit while the party is made ready, or left lit between sessions, does not
burn until the game master starts the session. The clock keeps the moment of its last
record and writes real time into the expedition only when a light crosses a step (a
minute, or its kind's ``real_step``) or runs out (``realtime pass``), when it is paused
(``realtime pause``, with the seconds since the last step, so the time left is exact), and
when the table closes (a pause). In between, ``seconds_left`` gives the countdown to show.

The time comes from an injected function (``time.monotonic`` by default, which stops
while the computer sleeps), so tests move it by hand and never sleep. Nothing here
imports Textual.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from delvetui.core import commands as cmd
from delvetui.core import realtime
from delvetui.core.state import State
from delvetui.core.timeline import Batch
from delvetui.errors import CommandError
from delvetui.session import Expedition

#: What the clock reads the time from: seconds, only ever going forward.
Now = Callable[[], float]

#: Why the clock pauses when the table closes, in the log.
CLOSED = "the table closed"


class RealTimeClock:
    """Counts real time for an open expedition's real-time lights and records it in steps."""

    def __init__(self, expedition: Expedition, now: Now = time.monotonic) -> None:
        self.expedition = expedition
        self.now = now
        #: When the real time recorded so far ends.
        self._anchor = now()
        #: The lights being counted since the anchor, and their seconds left then.
        self._counting: dict[str, int] = {}
        #: Real seconds that passed for a light before a command of the game master's
        #: changed what burns; written at the next tick.
        self._owed: dict[str, int] = {}
        self._writing = False
        self._count_from(self.now())
        expedition.listeners.append(self._committed)

    # What the table shows ---------------------------------------------------------------

    @property
    def state(self) -> State:
        """The expedition's state (the seconds left as last recorded)."""
        return self.expedition.state

    @property
    def paused(self) -> bool:
        """True when the clock is paused: no real-time light burns down."""
        return self.state.realtime_paused

    @property
    def in_play(self) -> bool:
        """True when the expedition has a light that burns in real time (or a pause)."""
        state = self.state
        return bool(state.real_time_lights or state.real_timers) or state.realtime_paused

    def unrecorded(self) -> int:
        """Whole real seconds counted since the last record (0 while nothing burns)."""
        if not self._counting:
            return 0
        return max(0, int(self.now() - self._anchor))

    def seconds_left(self) -> dict[str, int]:
        """Each real-time light's seconds left as they are now, unrecorded time included
        (and each real-time timer's, keyed by ``realtime.TIMER_KEY`` and its name)."""
        passed = self.unrecorded()
        found: dict[str, int] = {}
        kept = [(light.id, light.real_seconds or 0) for light in self.state.real_time_lights]
        kept += [(realtime.TIMER_KEY + t.name, t.left) for t in self.state.real_timers]
        for key, seconds in kept:
            seconds -= self._owed.get(key, 0)
            if key in self._counting:
                seconds -= passed
            found[key] = max(0, seconds)
        return found

    # Recording --------------------------------------------------------------------------

    def tick(self) -> list[Batch]:
        """Record what is due: owed time, and the steps crossed; the batches written."""
        made = self._settle()
        state = self.state
        due = realtime.due_in(state, self.expedition.procedure)
        if due is None:
            self._count_from(self.now())
            return made
        passed = self.unrecorded()
        if passed < due:
            return made
        # Whole steps only, unless a light runs out (or a timer): then all of it, on time.
        record = realtime.to_record(state, self.expedition.procedure, passed)
        record = min(record, cmd.MAX_REAL_SECONDS)
        made.append(self._write(cmd.RealTime(verb="pass", seconds=record)))
        self._count_from(self._anchor + record)
        return made

    def pause(self, why: str = "") -> Batch:
        """Pause the clock, recording the seconds since the last step first."""
        self._settle()
        batch = self._write(cmd.RealTime(verb="pause", seconds=self.unrecorded(), reason=why))
        self._count_from(self.now())
        return batch

    def resume(self) -> Batch:
        """Let the real-time lights burn again, from now."""
        batch = self._write(cmd.RealTime(verb="resume"))
        self._count_from(self.now())
        return batch

    def toggle(self) -> Batch:
        """Pause a running clock, resume a paused one."""
        return self.resume() if self.paused else self.pause()

    def typed(self, text: cmd.Command | str) -> cmd.Command | str:
        """A command typed at the table, with the unrecorded seconds added to a pause.

        ``realtime pause`` typed on the command line pauses exactly where the countdown is,
        as the pause key does.
        """
        try:
            command = cmd.parse(text) if isinstance(text, str) else text
        except CommandError:
            return text
        if not isinstance(command, cmd.RealTime) or command.verb != "pause" or command.seconds:
            return text
        self._settle()
        passed = self.unrecorded()
        if not passed:
            return text
        return cmd.said(cmd.RealTime(verb="pause", seconds=passed, reason=command.reason))

    def close(self) -> Batch | None:
        """The table closes: pause a running clock, so reopening shows the time left as is."""
        self.expedition.listeners[:] = [
            listener for listener in self.expedition.listeners if listener != self._committed
        ]
        if self.expedition.readonly or self.paused:
            return None
        if not self._counting and not self._owed:
            return None
        return self.pause(CLOSED)

    # Keeping count ----------------------------------------------------------------------

    def _write(self, command: cmd.RealTime) -> Batch:
        self._writing = True
        try:
            return self.expedition.run(cmd.said(command))
        finally:
            self._writing = False

    def _settle(self) -> list[Batch]:
        """Write the time owed to lights that burnt before a command changed what burns."""
        made: list[Batch] = []
        burning = realtime.burning(self.state)
        owed = {key: s for key, s in self._owed.items() if key in burning and s}
        self._owed = {}
        for seconds in sorted(set(owed.values())):
            # A timer is named by its name (a light's id never holds the timer's mark).
            ids = sorted(
                key.removeprefix(realtime.TIMER_KEY) for key, s in owed.items() if s == seconds
            )
            made.append(self._write(cmd.RealTime(verb="pass", seconds=seconds, ids=tuple(ids))))
        return made

    def _count_from(self, moment: float) -> None:
        self._anchor = moment
        self._counting = counted(self.state)

    def _committed(self, batch: Batch, state: State) -> None:
        """Another command was saved: what burns may have changed, so count afresh.

        A light that went on burning, untouched, is owed the time counted for it so far;
        one put out, paused or set anew starts again from its own record.
        """
        if self._writing:
            return
        passed = self.unrecorded()
        now_burning = counted(state)
        if now_burning == self._counting:
            return  # nothing that burns changed: keep counting
        # A light still lit is owed what it burnt, even where the session just ended.
        still = realtime.burning(state)
        for light_id, seconds in self._counting.items():
            if passed and still.get(light_id) == seconds:
                self._owed[light_id] = self._owed.get(light_id, 0) + passed
        self._owed = {
            light_id: owed
            for light_id, owed in self._owed.items()
            if light_id in still and light_id in self._counting
        }
        started = self._anchor + passed if self._counting else self.now()
        self._count_from(started)


def counted(state: State) -> dict[str, int]:
    """What the clock counts down now: what burns in real time (``realtime.burning``),
    while a session is running; nothing before the first session or between two."""
    return realtime.burning(state) if state.in_session else {}
