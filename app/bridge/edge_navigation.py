"""The navigation lock in the edgechromium backend (Windows, WebView2): navigation.py's policy
applied where WebView2 says a navigation starts.

pywebview's EdgeChrome lets every navigation of the window start (its NavigationStarting handler
only shows a transparent window), injects the bridge when any navigation completes, failed and
cancelled ones too (the app's page would, for a moment, have an empty `pywebview.api`), and hands
the address a page asks a new window for to the system's opener, whatever its scheme. The three
handlers are replaced on pywebview's class before the window exists: its constructor subscribes
them by attribute (`self.webview.NavigationStarting += self.on_navigation_start`, …), which
tests/unit/bridge/test_backends*.py check in the shipped source and checks.py at each start.
Frames need nothing more: the CSP refuses them (frame-src 'none').
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from app.bridge.backends import EDGECHROMIUM, running_backend
from app.bridge.navigation import AppPage, for_a_new_window, for_the_window
from app.bridge.qt_navigation import follow, loaded_once

log = logging.getLogger(__name__)


def install(app_page: Callable[[], AppPage]) -> None:
    if running_backend() is not EDGECHROMIUM:
        return
    from webview.platforms import edgechromium

    lock(edgechromium.EdgeChrome, app_page)


def lock(edge_chrome: Any, app_page: Callable[[], AppPage]) -> None:
    """Replaces the handlers of pywebview's EdgeChrome class (or a stand-in, in tests)."""
    starting = edge_chrome.on_navigation_start
    completed = edge_chrome.on_navigation_completed

    def on_navigation_start(self: Any, sender: Any, args: Any) -> None:
        try:
            target = str(args.Uri)
            user = bool(args.IsUserInitiated)
            allowed = follow(
                for_the_window(target, app_page(), main_frame=True, link=user),
                target,
                "navigate to",
            )
        except Exception:  # never let an unexpected value open the way
            log.exception("refused a navigation it could not judge")
            allowed = False
        if not allowed:
            args.Cancel = True
            return
        starting(self, sender, args)

    def on_new_window_request(self: Any, sender: Any, args: Any) -> None:
        args.Handled = True  # the page for new windows never shows anything
        target = str(args.Uri)
        follow(for_a_new_window(target), target, "open")

    def on_navigation_completed(self: Any, sender: Any, args: Any) -> None:
        # As qt_navigation.keep_the_bridge_on_refused_loads: once a load has finished, one that
        # did not (a cancelled navigation) keeps the page's bridge; a first one still gets it.
        if not bool(getattr(args, "IsSuccess", True)):
            if loaded_once(self):
                log.info("a load did not finish: the page keeps its bridge")
                return
            log.info("the first load did not finish: the page gets its bridge")
        else:
            self.sidekicks_loaded_once = True
        completed(self, sender, args)

    edge_chrome.on_navigation_start = on_navigation_start
    edge_chrome.on_new_window_request = on_new_window_request
    edge_chrome.on_navigation_completed = on_navigation_completed
