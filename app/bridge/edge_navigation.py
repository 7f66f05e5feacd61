"""The navigation lock in the edgechromium backend (Windows, WebView2): navigation.py's policy
applied where WebView2 says a navigation starts.

pywebview's EdgeChrome lets every navigation of the window start (its NavigationStarting handler
only shows a transparent window), injects the bridge when any navigation completes, failed and
cancelled ones too (the app's page would, for a moment, have an empty `pywebview.api`), and hands
the address a page asks a new window for to the system's opener, whatever its scheme. A subclass
overrides the three handlers and is put in the edgechromium module's name `EdgeChrome` before the
window exists: winforms builds the browser from it (`Chromium.EdgeChrome(self, window, …)`) and
EdgeChrome subscribes its handlers by attribute (`self.webview.NavigationStarting +=
self.on_navigation_start`, …), which tests/unit/bridge/test_backends*.py check in the shipped
source and checks.py at each start.
Frames need nothing more: the CSP refuses them (frame-src 'none').
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from app.bridge.backends import EDGECHROMIUM, running_backend
from app.bridge.navigation import AppPage, for_a_new_window, for_the_window
from app.bridge.qt_navigation import follow, injects_the_bridge

log = logging.getLogger(__name__)


def install(app_page: Callable[[], AppPage]) -> None:
    if running_backend() is not EDGECHROMIUM:
        return
    from webview.platforms import edgechromium

    edgechromium.EdgeChrome = locked(edgechromium.EdgeChrome, app_page)  # type: ignore[misc]


def locked(edge_chrome: Any, app_page: Callable[[], AppPage]) -> Any:
    """A subclass of pywebview's EdgeChrome (or of a stand-in, in tests) with the lock."""
    if getattr(edge_chrome, "__sidekicks_locked__", False):
        return edge_chrome

    class LockedEdgeChrome(edge_chrome):  # type: ignore[misc]
        __sidekicks_locked__ = True

        def on_navigation_start(self, sender: Any, args: Any) -> None:
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
            super().on_navigation_start(sender, args)

        def on_new_window_request(self, sender: Any, args: Any) -> None:
            args.Handled = True  # the page for new windows never shows anything
            target = str(args.Uri)
            follow(for_a_new_window(target), target, "open")

        def on_navigation_completed(self, sender: Any, args: Any) -> None:
            # A cancelled navigation completes unsuccessfully: qt_navigation.injects_the_bridge.
            if injects_the_bridge(self, bool(getattr(args, "IsSuccess", True))):
                super().on_navigation_completed(sender, args)

    return LockedEdgeChrome
