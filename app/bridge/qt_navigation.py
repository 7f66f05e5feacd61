"""The navigation lock in the Qt backend: app/bridge/navigation.py's policy applied where
QtWebEngine asks whether to navigate.

pywebview's Qt page accepts every navigation of the window (it has no `acceptNavigationRequest`
under QtWebEngine) and gives the bridge to whatever page then loads; its page for new windows
hands every address, whatever the scheme, to the system's opener. Both methods are replaced on
pywebview's classes before the window exists. The other backends have their own locks
(gtk_navigation.py, edge_navigation.py, cocoa_navigation.py, with `follow` from here; backends.py
says what each backend's own handling does).
"""

from __future__ import annotations

import logging
import threading
import webbrowser
from collections.abc import Callable
from typing import Any

from app.bridge.backends import gui_backend
from app.bridge.navigation import AppPage, Verdict, for_a_new_window, for_the_window

log = logging.getLogger(__name__)

_SHOWN_URL = 200  # characters of a refused address in the log


def install(app_page: Callable[[], AppPage]) -> None:
    if gui_backend() != "qt":
        return
    from PyQt6.QtWebEngineCore import QWebEnginePage
    from webview.platforms import qt

    link_clicked = QWebEnginePage.NavigationType.NavigationTypeLinkClicked

    def acceptNavigationRequest(page: Any, url: Any, kind: Any, is_main_frame: bool) -> bool:
        target = url.toString()
        verdict = for_the_window(
            target, app_page(), main_frame=is_main_frame, link=kind == link_clicked
        )
        return follow(verdict, target, "navigate to")

    def acceptNewWindow(page: Any, url: Any, kind: Any, is_main_frame: bool) -> bool:
        target = url.toString()
        follow(for_a_new_window(target), target, "open")
        return False  # the page for new windows never shows anything

    qt.BrowserView.WebPage.acceptNavigationRequest = acceptNavigationRequest  # type: ignore[method-assign]
    qt.BrowserView.NavigationHandler.acceptNavigationRequest = acceptNewWindow  # type: ignore[method-assign]
    keep_the_bridge_on_refused_loads(qt.BrowserView)


def keep_the_bridge_on_refused_loads(browser_view: Any) -> None:
    """A refused navigation ends in loadFinished(False) while the app's page stays as it was;
    pywebview would inject its bridge again and, for a moment, the page's `pywebview.api` would be
    empty (a call made then fails with "undefined"). So once a load has finished, a load that did
    not keeps the page's bridge as it is. A first load that did not finish gets it as pywebview
    gives it. (That first failure was a page server not yet listening, seen on a busy machine:
    http_server.py now makes the server listen before the window asks.)"""
    inject = browser_view.on_load_finished

    def on_load_finished(self: Any, ok: bool = True) -> None:
        if not ok and loaded_once(self):
            log.info("a load did not finish: the page keeps its bridge")
            return
        if ok:
            self.sidekicks_loaded_once = True
        else:
            log.info("the first load did not finish: the page gets its bridge")
        inject(self)

    browser_view.on_load_finished = on_load_finished


def loaded_once(view: Any) -> bool:
    """Whether a load of this view (a backend's browser object) has finished."""
    return getattr(view, "sidekicks_loaded_once", False) is True


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
