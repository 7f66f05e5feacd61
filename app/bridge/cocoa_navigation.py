"""The navigation lock in the cocoa backend (macOS, WKWebView): navigation.py's policy applied
where WebKit asks its navigation delegate whether to navigate.

pywebview's BrowserDelegate allows every navigation of the window, injects the bridge in whatever
page then finishes loading, and hands the address a `_blank` link asks a new window for to the
system's opener, whatever its scheme. Rather than changing pywebview's Objective-C class, the lock
is a subclass of it (PyObjC's ordinary way to override: each method keeps its superclass's
signature, the decision handler block included) put in its place on pywebview's BrowserView
before the window exists; BrowserView's constructor creates its delegate from that attribute
(`BrowserView.BrowserDelegate.alloc().init()`), which checks.py verifies at each start. A refused
navigation never starts, so no load injects the bridge again. Frames: the CSP refuses them.
Written without a Mac at hand: `--self-test` on macOS proves it (a meta refresh must not leave
the app's page); if the subclass cannot be made, the app starts without the lock and says so.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from app.bridge.backends import COCOA, running_backend
from app.bridge.navigation import AppPage, for_a_new_window, for_the_window
from app.bridge.qt_navigation import follow

log = logging.getLogger(__name__)

LINK_ACTIVATED = 0  # WKNavigationTypeLinkActivated
CANCEL = 0  # WKNavigationActionPolicyCancel


def install(app_page: Callable[[], AppPage]) -> None:
    if running_backend() is not COCOA:
        return
    try:
        import objc  # type: ignore[import-not-found]
        from webview.platforms import cocoa

        lock(cocoa.BrowserView, objc.super, app_page)
    except Exception:
        log.exception("no navigation lock on cocoa: the window may leave the app's page")


def lock(browser_view: Any, objc_super: Any, app_page: Callable[[], AppPage]) -> None:
    """Puts a locked subclass of `browser_view.BrowserDelegate` in its place (pywebview's class,
    or a stand-in in tests, with Python's own `super`)."""
    base = browser_view.BrowserDelegate
    if getattr(base, "__sidekicks_locked__", False):
        return

    class SidekicksBrowserDelegate(base):  # type: ignore[misc,valid-type]
        __sidekicks_locked__ = True

        def webView_decidePolicyForNavigationAction_decisionHandler_(
            self, webview: Any, action: Any, handler: Any
        ) -> None:
            try:
                target = str(action.request().URL().absoluteString())
                frame = action.targetFrame()
                verdict = for_the_window(
                    target,
                    app_page(),
                    main_frame=frame is None or bool(frame.isMainFrame()),
                    link=action.navigationType() == LINK_ACTIVATED,
                )
                allowed = follow(verdict, target, "navigate to")
            except Exception:  # never let an unexpected value open the way
                log.exception("refused a navigation it could not judge")
                allowed = False
            if not allowed:
                handler(CANCEL)
                return
            objc_super(
                SidekicksBrowserDelegate, self
            ).webView_decidePolicyForNavigationAction_decisionHandler_(webview, action, handler)

        def webView_createWebViewWithConfiguration_forNavigationAction_windowFeatures_(
            self, webview: Any, config: Any, action: Any, features: Any
        ) -> Any:
            try:
                target = str(action.request().URL().absoluteString())
                follow(for_a_new_window(target), target, "open")
            except Exception:
                log.exception("refused a new window it could not judge")
            return None  # the page for new windows never shows anything

    browser_view.BrowserDelegate = SidekicksBrowserDelegate
