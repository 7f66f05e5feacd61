"""The navigation lock in the Qt backend: app/bridge/navigation.py's policy applied where
QtWebEngine asks whether to navigate; and Qt's answer to the page's permission requests.

pywebview's Qt page accepts every navigation of the window (it has no `acceptNavigationRequest`
under QtWebEngine) and gives the bridge to whatever page then loads; its page for new windows
hands every address, whatever the scheme, to the system's opener; and it answers permission
requests with an int PyQt6 refuses (permissions.py). All three are pywebview's BrowserView's
page: BrowserView builds it from its class attribute (`BrowserView.WebPage(self, profile=…)`), and
the qt module's `create_window` builds the window from its module name `BrowserView`. So one
subclass, put in that name before the window exists, brings our own page (a QWebEnginePage of
ours, not a subclass of pywebview's, whose constructor names `BrowserView.WebPage` in its super()
call) and keeps the bridge on refused loads (`on_load_finished`). checks.py verifies both
lookups at each start. The other backends have their own locks (gtk_navigation.py,
edge_navigation.py, cocoa_navigation.py, with `follow` and `injects_the_bridge` from here).
"""

from __future__ import annotations

import logging
import threading
import webbrowser
from collections.abc import Callable
from typing import Any

from app.bridge import permissions
from app.bridge.backends import gui_backend
from app.bridge.navigation import AppPage, Verdict, for_a_new_window, for_the_window

log = logging.getLogger(__name__)

_SHOWN_URL = 200  # characters of a refused address in the log


def install(app_page: Callable[[], AppPage]) -> None:
    if gui_backend() != "qt":
        return
    from webview.platforms import qt

    qt.BrowserView = locked_browser_view(qt.BrowserView, app_page)  # type: ignore[misc]


def locked_browser_view(browser_view: Any, app_page: Callable[[], AppPage]) -> Any:
    """A subclass of pywebview's BrowserView (or of a stand-in, in tests) whose page is locked.
    Idempotent: a locked class is returned as it is."""
    if getattr(browser_view, "__sidekicks_locked__", False):
        return browser_view
    from PyQt6.QtCore import Qt
    from PyQt6.QtWebEngineCore import QWebEnginePage

    link_clicked = QWebEnginePage.NavigationType.NavigationTypeLinkClicked

    class NewWindowPage(QWebEnginePage):
        """Where one new window of the page would load: it never shows anything. One per
        window, kept by the window's page (its parent) until that page goes: a page handed to a
        second window.open() while Chromium still held it for the first closed the window's own
        DevTools target under load, and one deleted once refused left the next window.open()
        waiting on its half-made target. Only the app's own page opens windows (a person's
        click on a link; agent output runs no script), so they stay few."""

        def acceptNavigationRequest(self, url: Any, kind: Any, is_main_frame: bool) -> bool:
            target = url.toString()
            follow(for_a_new_window(target), target, "open")
            return False

    class LockedPage(QWebEnginePage):
        """The window's page: the app's pages only, every permission denied."""

        def __init__(self, parent: Any, profile: Any = None) -> None:
            # As pywebview's page: its profile (always given under QtWebEngine), in the view.
            if profile is None:
                super().__init__(parent.webview)
            else:
                super().__init__(profile, parent.webview)
            self.featurePermissionRequested.connect(self.on_permission_requested)
            if parent.transparent:
                self.setBackgroundColor(Qt.GlobalColor.transparent)

        def on_permission_requested(self, url: Any, feature: Any) -> None:
            permissions.deny_feature(self, url, feature)

        def acceptNavigationRequest(self, url: Any, kind: Any, is_main_frame: bool) -> bool:
            target = url.toString()
            verdict = for_the_window(
                target, app_page(), main_frame=is_main_frame, link=kind == link_clicked
            )
            return follow(verdict, target, "navigate to")

        def createWindow(self, kind: Any) -> Any:
            return NewWindowPage(self.profile(), self)

    class LockedBrowserView(browser_view):  # type: ignore[misc]
        __sidekicks_locked__ = True
        WebPage = LockedPage

        def on_load_finished(self, ok: bool = True) -> None:
            if injects_the_bridge(self, ok):
                super().on_load_finished()

    return LockedBrowserView


def injects_the_bridge(view: Any, finished: bool) -> bool:
    """Whether a load that ended gets pywebview's bridge injected again.

    A refused navigation ends in a load that did not finish (Qt's loadFinished(False),
    WebView2's NavigationCompleted with IsSuccess false) while the app's page stays as it was;
    pywebview would inject its bridge again and, for a moment, the page's `pywebview.api` would be
    empty (a call made then fails with "undefined"). So once a load of this view has finished, one
    that did not keeps the page's bridge as it is. A first load that did not finish gets it as
    pywebview gives it (seen on a busy machine when the page's server was not yet listening:
    http_server.py now listens before the window asks)."""
    if finished:
        view.sidekicks_loaded_once = True
        return True
    if getattr(view, "sidekicks_loaded_once", False) is True:
        log.info("a load did not finish: the page keeps its bridge")
        return False
    log.info("the first load did not finish: the page gets its bridge")
    return True


def follow(verdict: Verdict, url: str, action: str) -> bool:
    """Applies a verdict; True when the window may load the page."""
    if verdict is Verdict.LOAD:
        return True
    if verdict is Verdict.OPEN_OUTSIDE:
        log.info("opening %s in the system browser", url[:_SHOWN_URL])
        # The opener may take a while (it waits for the program it starts): not on the GUI thread.
        threading.Thread(target=_open_outside, args=(url,), daemon=True).start()
    else:
        log.warning("refused to %s %s", action, url[:_SHOWN_URL])
    return False


def _open_outside(url: str) -> None:
    try:
        if not webbrowser.open(url, new=2):
            log.warning("no browser could open %s", url[:_SHOWN_URL])
    except Exception:
        log.exception("could not open %s", url[:_SHOWN_URL])
