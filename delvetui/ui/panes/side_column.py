"""The table's right-hand column: the panes, sharing out its lines so each is on screen.

Every pane the procedure needs (the party, the lights, the counters, the time, the hazard
table, the next action) keeps at least a line at any size the table is played at. The
column gives each pane first the lines that say what matters (a line per member, the lit
lights, the next action: ``Pane.wanted``), the next action and the counters before the
party and the lights, then what is left for the details, the party and the lights first.
A pane given fewer lines than it would fill says what matters in them: details on the
member's line, "+2 more, unlit", counters side by side.
"""

from __future__ import annotations

from textual import events
from textual.containers import Vertical

from delvetui.ui.panes.pane import Pane

#: Who gets the lines that say what matters first, by id (the hazard table's second line
#: after the members and the lit lights: its rows are in the dialogs and the log too).
FIRST = ("action", "rooms", "counters", "time", "roster", "lights", "hazard")
#: Who gets the lines left over for the rest, by id.
THEN = ("roster", "lights", "rooms", "action", "hazard", "counters", "time")


def share(room: int, wants: dict[str, tuple[int, int]]) -> dict[str, int]:
    """Lines for each pane out of ``room``: a line each, then each pane's lines that say
    what matters (in ``FIRST``'s order), then the rest of what it would fill (``THEN``'s).
    A pane not named in the orders comes after those named."""
    given = {name: min(1, full) for name, (_, full) in wants.items()}
    room -= sum(given.values())
    for order, wanted in ((FIRST, 0), (THEN, 1)):
        names = [name for name in order if name in wants]
        names += [name for name in wants if name not in order]
        for name in names:
            more = max(0, min(room, wants[name][wanted] - given[name]))
            given[name] += more
            room -= more
    return given


class SideColumn(Vertical):
    """The panes at the right of the turn log, each given the lines it can have."""

    def on_resize(self, event: events.Resize) -> None:
        """The column changed height (the terminal, the footer, the command line)."""
        self.share_lines()

    def on_pane_widened(self, event: Pane.Widened) -> None:
        """A pane's width changed, and with it the lines it fills."""
        event.stop()
        self.share_lines()

    def share_lines(self) -> None:
        """Give each shown pane its lines for the column's height as it is now."""
        height = self.size.height
        if not height:
            return
        panes = [pane for pane in self.query(Pane) if pane.display and pane.id]
        wants: dict[str, tuple[int, int]] = {}
        widths: dict[str, int] = {}
        room = height
        for pane in panes:
            gutter = pane.styles.gutter
            room -= gutter.height
            widths[pane.id or ""] = pane.content_size.width or self.size.width - gutter.width
            wants[pane.id or ""] = pane.wanted(widths[pane.id or ""])
        fill = {name: full for name, (_, full) in wants.items()}
        given = share(room, wants)
        for _ in range(len(panes)):
            # A pane short of what it would fill may draw fewer lines than it was given
            # (the members' details on their own lines, or none): the rest go to others.
            spare = {
                pane.id or "": used
                for pane in panes
                if (lines := given[pane.id or ""]) < fill[pane.id or ""]
                and (used := pane.drawn_lines(widths[pane.id or ""], lines)) < lines
            }
            if not spare:
                break
            for name, used in spare.items():
                wants[name] = (min(wants[name][0], used), used)
            given = share(room, wants)
        for pane in panes:
            lines = given[pane.id or ""]
            budget = None if lines >= fill[pane.id or ""] else lines
            if pane.budget != budget:
                pane.budget = budget
