"""The navigation lock in the gtk backend (WebKitGTK, $SIDEKICKS_GUI=gtk): navigation.py's policy
applied where WebKit asks whether to navigate (its `decide-policy` signal).

pywebview's handler lets every navigation of the window through and hands the address of a
`_blank` target to the system's opener, whatever its scheme; the bridge then goes to whatever page
finished loading. The handler is replaced on pywebview's class before the window exists: its
constructor connects it by attribute (`self.webview.connect('decide-policy', self.on_navigation)`),
which checks.py verifies at each start. A navigation refused here never starts, so it cannot end
in a load that would inject the bridge again (unlike Qt's refused loads). Frames: the CSP refuses
them (frame-src 'none').
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from app.bridge.backends import GTK, running_backend
from app.bridge.navigation import AppPage, for_a_new_window, for_the_window
from app.bridge.qt_navigation import follow

log = logging.getLogger(__name__)


def install(app_page: Callable[[], AppPage]) -> None:
    if running_backend() is not GTK:
        return
    from webview.platforms import gtk

    lock(gtk.BrowserView, gtk.webkit, app_page)  # type: ignore[attr-defined]


def lock(browser_view: Any, webkit: Any, app_page: Callable[[], AppPage]) -> None:
    """Replaces `on_navigation` of pywebview's BrowserView class (or a stand-in, in tests);
    `webkit` is gi's WebKit2 (its decision types and navigation types)."""
    decide = browser_view.on_navigation
    navigation = webkit.PolicyDecisionType.NAVIGATION_ACTION
    new_window = webkit.PolicyDecisionType.NEW_WINDOW_ACTION
    link_clicked = webkit.NavigationType.LINK_CLICKED

    def on_navigation(self: Any, view: Any, decision: Any, decision_type: Any) -> Any:
        if decision_type not in (navigation, new_window):
            return decide(self, view, decision, decision_type)  # responses: downloads, MIME
        try:
            action = decision.get_navigation_action()
            target = str(action.get_request().get_uri())
            if decision_type == new_window:
                follow(for_a_new_window(target), target, "open")
                allowed = False  # the page for new windows never shows anything
            else:
                link = action.get_navigation_type() == link_clicked
                verdict = for_the_window(target, app_page(), main_frame=True, link=link)
                allowed = follow(verdict, target, "navigate to")
        except Exception:  # never let an unexpected value open the way
            log.exception("refused a navigation it could not judge")
            allowed = False
        if allowed:
            return decide(self, view, decision, decision_type)
        decision.ignore()
        return True  # handled: WebKit's default handler would use the decision

    browser_view.on_navigation = on_navigation
