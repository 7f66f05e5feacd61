"""Which pywebview backend hosts the window, and what each of our bridge patches means there.

Linux runs Qt (PyQt6 + QtWebEngine; DESIGN §5) unless $SIDEKICKS_GUI=gtk asks for WebKitGTK (a
smaller build); macOS runs cocoa (WKWebView), Windows winforms hosting edgechromium (WebView2):
pywebview picks those itself there, and $SIDEKICKS_GUI is ignored with a log line.

BACKENDS says, per backend, which of our patches apply and why, which are not needed and why, and
what is left uncovered (read from pywebview 6.2's platforms/*.py; app/bridge/checks.py verifies at
each start that the code the running backend relies on is still there, and `--self-test` proves
the bridge in the real window). The CSP patch, the eval-free evaluate_js and the allow-list apply
to every backend; the permission fix to Qt only; each backend has its own navigation lock (qt_,
gtk_, edge_, cocoa_navigation.py). app/bridge/README.md lists every patch and what it waits for.
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

log = logging.getLogger(__name__)

GUI_OVERRIDE = "SIDEKICKS_GUI"
LINUX_BACKENDS = ("qt", "gtk")

LinuxBackend = Literal["qt", "gtk"]
BackendName = Literal["qt", "gtk", "cocoa", "edgechromium"]

# Our patches (app/bridge/*): every backend says of each one whether it applies or why not.
PATCHES = ("csp", "without_eval", "allowlist", "permissions", "navigation")


@dataclass(frozen=True)
class Backend:
    name: BackendName
    gui_module: str  # what `webview.initialize` imports (it answers `Window.run_js`)
    renderer: str  # that module's `renderer` (webview.start's `webview.renderer`) when it is ours
    bridge_module: str  # where the bridge is injected and the page's calls arrive
    platform: str  # the platform string its injected script is built with (api.js's switch)
    # bridge_module's functions (qualified names) that must call a webview.util function: where
    # the page's calls arrive (js_bridge_call) and where the bridge is injected (inject_pywebview)
    calls: Mapping[str, str]
    applies: Mapping[str, str]  # patch -> why it is needed there
    not_needed: Mapping[str, str]  # patch -> why that backend needs none
    uncovered: Mapping[str, str]  # patch -> what it would need there and does not have yet
    replaced: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # patch -> what it
    # replaces in bridge_module (qualified names of classes and methods)
    hooked: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # a bridge_module
    # function -> the replaced methods it must look up by attribute (so that ours are the ones used)
    gui_hooked: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # the same, for
    # gui_module's functions (where it is not bridge_module)


JS_BRIDGE_CALL = "js_bridge_call"
INJECT = "inject_pywebview"

_SHARED_APPLIES = {
    "allowlist": "the backend imports js_bridge_call by name: the gate replaces that name",
}

QT = Backend(
    name="qt",
    gui_module="webview.platforms.qt",
    renderer="qtwebengine",
    bridge_module="webview.platforms.qt",
    platform="qtwebengine",
    calls={"BrowserView.JSBridge.call": JS_BRIDGE_CALL, "BrowserView._set_js_api": INJECT},
    applies={
        "csp": "QtWebEngine enforces script-src; inject_pywebview builds the api with new Function",
        "without_eval": "runJavaScript runs in the page's world (0), where its CSP refuses eval",
        **_SHARED_APPLIES,
        "permissions": "WebPage answers permission requests with an int PyQt6 refuses (aborts)",
        "navigation": "no acceptNavigationRequest; every load, refused ones too, gets the bridge",
    },
    not_needed={},
    uncovered={},
    replaced={
        "permissions": ("BrowserView.WebPage",),
        "navigation": ("BrowserView", "BrowserView.WebPage", "BrowserView.on_load_finished"),
    },
    hooked={
        "BrowserView.__init__": ("WebPage", "on_load_finished"),
        "create_window.<locals>._create": ("BrowserView",),
    },
)

GTK = Backend(
    name="gtk",
    gui_module="webview.platforms.gtk",
    renderer="gtkwebkit2",
    bridge_module="webview.platforms.gtk",
    platform="gtkwebkit2",
    calls={"BrowserView.on_js_bridge_call": JS_BRIDGE_CALL, "BrowserView.on_load_finish": INJECT},
    applies={
        "csp": "WebKitGTK enforces script-src; inject_pywebview builds the api with new Function",
        "without_eval": "evaluate_javascript(world_name=None) runs under the page's CSP",
        **_SHARED_APPLIES,
        "navigation": "on_navigation lets every load through (a _blank target goes to "
        "webbrowser, any scheme) and on_load_finish injects the bridge in whatever page loaded",
    },
    not_needed={
        "permissions": "no permission-request handler: WebKitGTK denies unhandled requests",
    },
    uncovered={},
    replaced={"navigation": ("BrowserView.on_navigation",)},
    hooked={"BrowserView.__init__": ("on_navigation",)},
)

COCOA = Backend(
    name="cocoa",
    gui_module="webview.platforms.cocoa",
    renderer="wkwebview",
    bridge_module="webview.platforms.cocoa",
    platform="cocoa",
    calls={
        "BrowserView.JSBridge.userContentController_didReceiveScriptMessage_": JS_BRIDGE_CALL,
        "BrowserView.BrowserDelegate.webView_didFinishNavigation_": INJECT,
    },
    applies={
        "csp": "WKWebView enforces script-src; inject_pywebview builds the api with new Function",
        "without_eval": "evaluateJavaScript runs in the page's world, where its CSP refuses eval",
        **_SHARED_APPLIES,
        "navigation": "decidePolicyForNavigationAction allows every load, didFinishNavigation "
        "injects the bridge in whatever page loaded, a _blank link goes to webbrowser",
    },
    not_needed={
        "permissions": "the WKUIDelegate has no media-capture method: WebKit asks the person "
        "itself, nothing crashes (and WKWebView has no Notification API)",
    },
    uncovered={},
    replaced={
        "navigation": (
            "BrowserView.BrowserDelegate",
            "BrowserView.BrowserDelegate.webView_decidePolicyForNavigationAction_decisionHandler_",
            "BrowserView.BrowserDelegate."
            "webView_createWebViewWithConfiguration_forNavigationAction_windowFeatures_",
        ),
    },
    hooked={"BrowserView.__init__": ("BrowserDelegate",)},
)


EDGECHROMIUM = Backend(
    name="edgechromium",
    gui_module="webview.platforms.winforms",
    renderer="edgechromium",
    bridge_module="webview.platforms.edgechromium",
    platform="edgechromium",
    calls={
        "EdgeChrome.on_script_notify": JS_BRIDGE_CALL,
        "EdgeChrome.on_navigation_completed": INJECT,
    },
    applies={
        "csp": "WebView2 enforces script-src; inject_pywebview builds the api with new Function",
        "without_eval": "ExecuteScriptAsync runs in the page's world, where its CSP refuses eval",
        **_SHARED_APPLIES,
        "navigation": "NavigationStarting never cancels, NavigationCompleted injects the bridge "
        "whatever loaded (failed loads too), NewWindowRequested hands any address to webbrowser",
    },
    not_needed={
        "permissions": "no PermissionRequested handler: WebView2 shows its own prompt, no crash",
    },
    uncovered={},
    replaced={
        "navigation": (
            "EdgeChrome",
            "EdgeChrome.on_navigation_start",
            "EdgeChrome.on_new_window_request",
            "EdgeChrome.on_navigation_completed",
        ),
    },
    hooked={
        "EdgeChrome.__init__": ("on_navigation_start", "on_navigation_completed"),
        "EdgeChrome.on_webview_ready": ("on_new_window_request",),
    },
    gui_hooked={"BrowserView.BrowserForm.__init__": ("EdgeChrome",)},
)

BACKENDS: dict[BackendName, Backend] = {b.name: b for b in (QT, GTK, COCOA, EDGECHROMIUM)}


def gui_backend() -> LinuxBackend | None:
    """The `gui` passed to `webview.start`: "qt" or "gtk" on Linux, None (pywebview's own
    choice: cocoa, winforms) elsewhere."""
    chosen = os.environ.get(GUI_OVERRIDE, "").strip().lower()
    if not sys.platform.startswith("linux"):
        if chosen:
            log.info("%s=%s ignored: it chooses a Linux backend only", GUI_OVERRIDE, chosen)
        return None
    if chosen == "gtk":
        return "gtk"
    if chosen not in ("", "qt"):
        log.warning("%s=%s is not one of %s: using qt", GUI_OVERRIDE, chosen, LINUX_BACKENDS)
    return "qt"


def running_backend() -> Backend:
    """The backend the window is about to run on (pywebview's choice on macOS and Windows)."""
    gui = gui_backend()
    if gui is not None:
        return BACKENDS[gui]
    return COCOA if sys.platform == "darwin" else EDGECHROMIUM
