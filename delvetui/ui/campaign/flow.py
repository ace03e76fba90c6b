"""The app's part in a campaign: the campaign screen, and the next expedition.

:class:`CampaignFlow` is held by the app (``app.campaign``): the app's message handlers
hand it the campaign's requests. It moves to the campaign screen and the next expedition's
form, creates the next expedition all at once (``create_next``) and has the app open it.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from delvetui.errors import DelveError, StorageFailed

if TYPE_CHECKING:
    from textual.notifications import SeverityLevel
    from textual.screen import Screen

    from delvetui.ui.forms.next_expedition import NextExpeditionScreen


class CampaignApp(Protocol):
    """What the campaign needs of the app: the screens, closing and opening expeditions."""

    @property
    def screen(self) -> Screen[object]: ...

    def switch_screen(self, screen: Screen[Any] | str) -> Any: ...

    def push_screen(self, screen: Screen[Any] | str) -> Any: ...

    def notify(self, message: str, *, severity: SeverityLevel = ..., markup: bool = ...) -> None:
        """Say why the next expedition was not made."""

    def close_expedition(self, *, snapshot: bool = True) -> None: ...

    def open_expedition(self, path: Path, *, first: bool = False) -> None: ...


class CampaignFlow:
    """What the app does for a campaign (see the module's text)."""

    def __init__(self, app: CampaignApp) -> None:
        self.app = app

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
