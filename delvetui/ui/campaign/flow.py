"""The app's part in a campaign: the campaign screen, the next expedition, and the keys of
an ended expedition.

:class:`CampaignFlow` is held by :class:`delvetui.ui.app.DelveApp` (``app.campaign``): the
app's message handlers hand it the campaign's requests. It moves to the campaign screen and
the next expedition's form, creates the next expedition all at once (``create_next``) and
has the app open it; and while the expedition on the table has ended, a key that would
change it says so instead of acting.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from delvetui.errors import DelveError, StorageFailed
from delvetui.ui.table.screen import TableScreen

if TYPE_CHECKING:
    from textual.actions import ActionParseResult
    from textual.dom import DOMNode

    from delvetui.ui.app import DelveApp
    from delvetui.ui.forms.next_expedition import NextExpeditionScreen


def put_away_offer(table: TableScreen) -> None:
    """An ended expedition takes no session: the offer to start one goes (however it ended:
    ``E``, ``:end`` or another delvetui followed)."""
    from delvetui.ui.panes.session_bar import SessionBar

    bar = table.query_one(SessionBar)
    if bar.offer is not None:
        bar.offer = None
        table.refresh_bindings()


class CampaignFlow:
    """What the app does for a campaign (see the module's text)."""

    def __init__(self, app: DelveApp) -> None:
        self.app = app

    def refused(self, action: str | ActionParseResult, namespace: DOMNode | None) -> bool:
        """True (and said) when ``action`` is a table key that would change an expedition
        that has ended (``ending.refusal``): nothing is opened whose answer the core would
        refuse."""
        if not isinstance(namespace, TableScreen):
            return False
        from delvetui.ui.table.ending import refusal
        from delvetui.ui.table.keys import CHANGING

        name = action if isinstance(action, str) else action[1]
        sentence = refusal(namespace, name, CHANGING)
        if sentence is None:
            return False
        self.app.notify(sentence, severity="warning", markup=False)
        return True

    def show_campaigns(self) -> None:
        """The campaign screen, in place of the screen showing (the table is closed)."""
        from delvetui.ui.campaign.screen import CampaignScreen

        self.app.close_expedition()
        self.app.switch_screen(CampaignScreen())

    def next_form(self, path: Path) -> None:
        """The form of the next expedition after the ended one at ``path`` (the table, if
        one is open, is closed first)."""
        from delvetui.ui.forms.next_expedition import NextExpeditionScreen

        self.app.close_expedition()
        self.app.switch_screen(NextExpeditionScreen(path))

    def create(self, event: NextExpeditionScreen.Create) -> None:
        """Create the next expedition, all at once, and open it on the table."""
        from delvetui.application.campaign import create_next
        from delvetui.ui.dialogs.error_screen import ErrorScreen
        from delvetui.ui.forms.next_expedition import NextExpeditionScreen

        app = self.app
        try:
            path = create_next(event.plan, event.commands)
        except StorageFailed as error:
            app.push_screen(ErrorScreen("The expedition could not be saved", error.message))
            return
        except DelveError as error:
            if isinstance(app.screen, NextExpeditionScreen):
                app.screen.failed("name", error.message, "next-name")
            else:
                app.notify(error.message, severity="error", markup=False)
            return
        app.open_expedition(path)
