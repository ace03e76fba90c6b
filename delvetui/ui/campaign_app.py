"""The app's part in a campaign: the campaign screen, the next expedition, and the keys of
an ended expedition.

:class:`CampaignApp` is the base of :class:`delvetui.ui.app.DelveApp`: it moves between
the start screen, the campaign screen and the next expedition's form, creates the next
expedition all at once (``create_next``) and opens it; and while the expedition on the
table has ended, a key that would change it says so instead of acting.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from textual.app import App, SystemCommand
from textual.screen import Screen

from delvetui.errors import DelveError, StorageFailed
from delvetui.ui.table_screen import TableScreen

if TYPE_CHECKING:
    from textual.actions import ActionParseResult
    from textual.dom import DOMNode

    from delvetui.ui.campaign_screen import CampaignScreen
    from delvetui.ui.next_expedition import NextExpeditionScreen
    from delvetui.ui.start_screen import StartScreen


def put_away_offer(table: TableScreen) -> None:
    """An ended expedition takes no session: the offer to start one goes (however it ended:
    ``E``, ``:end`` or another delvetui followed)."""
    from delvetui.ui.session_bar import SessionBar

    bar = table.query_one(SessionBar)
    if bar.offer is not None:
        bar.offer = None
        table.refresh_bindings()


class CampaignApp(App[None]):
    """What the app does for a campaign (see the module's text)."""

    def open_expedition(self, path: Path, *, first: bool = False) -> None:
        """Open an expedition on the table (the app's own)."""
        raise NotImplementedError

    def close_expedition(self, *, snapshot: bool = True) -> None:
        """Close the open expedition (the app's own)."""
        raise NotImplementedError

    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        """The palette's own commands, plus the campaign screen."""
        yield from super().get_system_commands(screen)
        yield SystemCommand(
            "Campaigns", "Each chain of expeditions, in calendar order", self._to_campaigns
        )

    def _to_campaigns(self) -> None:
        from delvetui.ui.campaign_screen import CampaignScreen

        self.close_expedition()
        self.switch_screen(CampaignScreen())

    def _error(self, title: str, message: str) -> None:
        from delvetui.ui.error_screen import ErrorScreen

        self.push_screen(ErrorScreen(title, message))

    async def run_action(
        self,
        action: str | ActionParseResult,
        default_namespace: DOMNode | None = None,
        namespaces: Mapping[str, DOMNode] | None = None,
    ) -> bool:
        """Run an action; on an ended expedition, a key that would change it says so instead
        (``ending.refusal``): nothing is opened whose answer would be refused."""
        if isinstance(default_namespace, TableScreen):
            from delvetui.ui.ending import refusal
            from delvetui.ui.table_keys import CHANGING

            name = action if isinstance(action, str) else action[1]
            sentence = refusal(default_namespace, name, CHANGING)
            if sentence is not None:
                self.notify(sentence, severity="warning", markup=False)
                return True
        return await super().run_action(action, default_namespace, namespaces)

    # The start screen and the campaign screen --------------------------------------------

    def on_start_screen_campaigns(self, event: StartScreen.Campaigns) -> None:
        """Show the campaign screen."""
        from delvetui.ui.campaign_screen import CampaignScreen

        self.switch_screen(CampaignScreen())

    def on_start_screen_next(self, event: StartScreen.Next) -> None:
        """The form of the next expedition after an ended one."""
        self._next_form(event.path)

    def on_campaign_screen_next(self, event: CampaignScreen.Next) -> None:
        """The form of the next expedition after an ended one."""
        self._next_form(event.path)

    def on_campaign_screen_open(self, event: CampaignScreen.Open) -> None:
        """Open an expedition of the campaign on the table."""
        self.open_expedition(event.path)

    def on_campaign_screen_back(self, event: CampaignScreen.Back) -> None:
        """Back to the start screen."""
        self._to_start_screen()

    def _to_start_screen(self) -> None:
        from delvetui.ui.start_screen import StartScreen

        self.switch_screen(StartScreen())

    def next_after(self, path: Path) -> None:
        """From the table: close the expedition and open the form of the next one after it."""
        self.close_expedition()
        self._next_form(path)

    def _next_form(self, path: Path) -> None:
        from delvetui.ui.next_expedition import NextExpeditionScreen

        self.switch_screen(NextExpeditionScreen(path))

    # The next expedition's form ----------------------------------------------------------

    def on_next_expedition_screen_cancelled(self, event: NextExpeditionScreen.Cancelled) -> None:
        """Back to the start screen; nothing was created."""
        self._to_start_screen()

    def on_next_expedition_screen_create(self, event: NextExpeditionScreen.Create) -> None:
        """Create the next expedition, all at once, and open it on the table."""
        from delvetui.application.campaign import create_next
        from delvetui.ui.next_expedition import NextExpeditionScreen

        try:
            path = create_next(event.plan, event.commands)
        except StorageFailed as error:
            self._error("The expedition could not be saved", error.message)
            return
        except DelveError as error:
            if isinstance(self.screen, NextExpeditionScreen):
                self.screen.failed("name", error.message, "next-name")
            else:
                self.notify(error.message, severity="error", markup=False)
            return
        self.open_expedition(path)
