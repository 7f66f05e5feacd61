"""Which pywebview backend runs the window (Qt on Linux unless $SIDEKICKS_GUI=gtk, pywebview's own
choice elsewhere), and, for each of qt, gtk, cocoa and edgechromium as shipped in the wheel, the
code our patches rely on: present as is, and a changed one refuses to start naming the backend.
The backends' modules are compiled from their source, never imported (only Qt is installed here)."""

from __future__ import annotations

import ast
import dataclasses
import importlib.util
import logging
import sys
import types
from pathlib import Path
from types import CodeType
from typing import Any

import pytest

from app.bridge import backends, checks
from app.bridge.backends import (
    BACKENDS,
    COCOA,
    EDGECHROMIUM,
    GTK,
    PATCHES,
    QT,
    Backend,
    gui_backend,
    running_backend,
)
from app.bridge.csp import BridgePatchError


@pytest.mark.parametrize(
    ("chosen", "backend"), [(None, "qt"), ("qt", "qt"), ("gtk", "gtk"), (" GTK ", "gtk")]
)
def test_linux_runs_qt_unless_gtk_is_asked_for(
    monkeypatch: pytest.MonkeyPatch, chosen: str | None, backend: str
) -> None:
    monkeypatch.setattr(sys, "platform", "linux")
    if chosen is None:
        monkeypatch.delenv(backends.GUI_OVERRIDE, raising=False)
    else:
        monkeypatch.setenv(backends.GUI_OVERRIDE, chosen)
    assert gui_backend() == backend


def test_an_unknown_backend_on_linux_is_said_and_qt_runs(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setenv(backends.GUI_OVERRIDE, "cocoa")
    with caplog.at_level(logging.WARNING, logger=backends.__name__):
        assert gui_backend() == "qt"
    assert "SIDEKICKS_GUI=cocoa is not one of" in caplog.text


@pytest.mark.parametrize("system", ["darwin", "win32"])
def test_elsewhere_pywebview_chooses_and_the_override_is_ignored_with_a_log_line(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, system: str
) -> None:
    monkeypatch.setattr(sys, "platform", system)
    monkeypatch.setenv(backends.GUI_OVERRIDE, "gtk")
    with caplog.at_level(logging.INFO, logger=backends.__name__):
        assert gui_backend() is None
    assert "SIDEKICKS_GUI=gtk ignored" in caplog.text


# What each backend relies on (app/bridge/backends.py, checked by app/bridge/checks.py) ----------


@pytest.mark.parametrize("backend", BACKENDS.values(), ids=BACKENDS.keys())
def test_every_patch_applies_or_says_why_not_on_every_backend(backend: Backend) -> None:
    said = [*backend.applies, *backend.not_needed, *backend.uncovered]
    assert sorted(said) == sorted(PATCHES)  # each patch once, in one of the three
    assert all(len(why) > 20 for why in [*backend.applies.values(), *backend.not_needed.values()])
    assert {"csp", "without_eval", "allowlist"} <= set(backend.applies)


def test_the_permission_fix_is_qt_only_and_every_backend_has_a_navigation_lock() -> None:
    for backend in (GTK, COCOA, EDGECHROMIUM):
        assert "permissions" in backend.not_needed
    assert "permissions" in QT.applies
    assert all("navigation" in backend.applies for backend in BACKENDS.values())
    assert all(not backend.uncovered for backend in BACKENDS.values())


@pytest.mark.parametrize("backend", BACKENDS.values(), ids=BACKENDS.keys())
def test_each_patch_target_is_in_the_backends_code_as_shipped(backend: Backend) -> None:
    checks.verify_backend_code(backend, checks.module_code)
    checks.verify_script(backend)


@pytest.mark.parametrize("backend", BACKENDS.values(), ids=BACKENDS.keys())
def test_the_backend_sends_the_pages_calls_to_utils_js_bridge_call_by_name(
    backend: Backend,
) -> None:
    """Read from the source text: the handler's call is to the name imported from webview.util,
    which the allow-list replaces (and whose results go through util's json)."""
    tree = ast.parse(source(backend.bridge_module))
    imported = {
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module == "webview.util"
        for alias in node.names
    }
    assert {"js_bridge_call", "inject_pywebview"} <= imported
    calls = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
    ]
    assert any(call.func.id == "js_bridge_call" and len(call.args) == 4 for call in calls)  # type: ignore[attr-defined]


def source(module: str) -> str:
    spec = importlib.util.find_spec(module)
    assert spec is not None and spec.origin is not None
    return Path(spec.origin).read_text(encoding="utf-8")


def mutated(module: str, old: str, new: str) -> checks.ReadCode:
    """Reads every module as shipped, except `module` with `old` replaced (once, and present)."""
    text = source(module)
    assert old in text, old
    changed = text.replace(old, new)

    def read(name: str) -> CodeType:
        if name == module:
            return compile(changed, name, "exec")
        return checks.module_code(name)

    return read


CHANGES = [
    # where the page's calls arrive no longer calls util's js_bridge_call
    (QT, "return js_bridge_call(self.window", "return other_call(self.window", "bridge calls"),
    (
        GTK,
        "js_bridge_call(self.pywebview_window, body",
        "other(self.pywebview_window, body",
        "bridge calls",
    ),
    (COCOA, "js_bridge_call(self.window, body", "other(self.window, body", "bridge calls"),
    (
        EDGECHROMIUM,
        "js_bridge_call(self.pywebview_window, func_name",
        "x(self.pywebview_window, func_name",
        "bridge calls",
    ),
    # the bridge injected some other way
    (QT, "inject_pywebview(renderer, self.js_bridge.window)", "pass", "bridge injection"),
    (GTK, "inject_pywebview(renderer, self.js_bridge.window)", "pass", "bridge injection"),
    (COCOA, "inject_pywebview('cocoa', i.js_bridge.window)", "pass", "bridge injection"),
    (EDGECHROMIUM, "inject_pywebview(renderer, self.pywebview_window)", "pass", "bridge injection"),
    # another platform string for the script
    (COCOA, "inject_pywebview('cocoa',", "inject_pywebview('wkwebview',", "bridge injection"),
    (EDGECHROMIUM, "renderer = 'edgechromium'", "renderer = 'webview2'", "bridge injection"),
    # its own script loader
    (
        GTK,
        "    inject_pywebview,\n",
        "    inject_pywebview,\n    load_js_files,\n",
        "bridge injection",
    ),
    # Qt's window and page, which qt_navigation.py's subclass and page take the place of
    (QT, "browser = BrowserView(window)", "browser = View(window)", "code"),
    (QT, "setPage(BrowserView.WebPage(self,", "setPage(Page(self,", "code"),
    (QT, "def on_load_finished(self", "def on_loaded(self", "code"),
    (QT, "loadFinished.connect(self.on_load_finished)", "loadFinished.connect(self.x)", "code"),
    # the handlers the navigation locks replace, and how pywebview reaches them
    (COCOA, "self._browserDelegate = BrowserView.BrowserDelegate.alloc()", "x = D.alloc()", "code"),
    (
        COCOA,
        "def webView_createWebViewWithConfiguration_forNavigationAction_windowFeatures_(",
        "def webView_createWebView_(",
        "code",
    ),
    (GTK, "def on_navigation(self, webview", "def on_policy(self, webview", "code"),
    (GTK, "connect('decide-policy', self.on_navigation)", "connect('decide-policy', f)", "code"),
    (EDGECHROMIUM, "def on_new_window_request(", "def on_new_window(", "code"),
    (
        EDGECHROMIUM,
        "NavigationStarting += self.on_navigation_start",
        "NavigationStarting += self.x",
        "code",
    ),
    (
        EDGECHROMIUM,
        "NavigationCompleted += self.on_navigation_completed",
        "NavigationCompleted += f",
        "code",
    ),
    (
        EDGECHROMIUM,
        "NewWindowRequested += self.on_new_window_request",
        "NewWindowRequested += f",
        "code",
    ),
]


@pytest.mark.parametrize(("backend", "old", "new", "what"), CHANGES)
def test_changed_backend_code_refuses_to_start_naming_the_backend(
    backend: Backend, old: str, new: str, what: str
) -> None:
    module = backend.bridge_module
    with pytest.raises(BridgePatchError) as refusal:
        checks.verify_backend_code(backend, mutated(module, old, new))
    assert f"pywebview's {what} for the {backend.name} backend changed" in str(refusal.value)


def test_a_winforms_no_longer_building_edgechrome_by_name_refuses_naming_edgechromium() -> None:
    read = mutated(
        "webview.platforms.winforms",
        "self.browser = Chromium.EdgeChrome(self,",
        "self.browser = Browser(self,",
    )
    with pytest.raises(BridgePatchError, match=r"code for the edgechromium .*edge_navigation\.py"):
        checks.verify_backend_code(EDGECHROMIUM, read)


def test_a_gui_module_without_evaluate_js_refuses_naming_edgechromium() -> None:
    read = mutated(
        "webview.platforms.winforms", "def evaluate_js(script, uid", "def run(script, uid"
    )
    with pytest.raises(BridgePatchError, match="script runner for the edgechromium backend"):
        checks.verify_backend_code(EDGECHROMIUM, read)


@pytest.mark.parametrize("backend", BACKENDS.values(), ids=BACKENDS.keys())
def test_a_changed_bridge_script_refuses_to_start_naming_the_backend(
    tmp_path: Path, backend: Backend
) -> None:
    from webview import util

    shipped = Path(util.get_js_dir())
    for name in ("api.js", "finish.js"):
        (tmp_path / name).write_text((shipped / name).read_text(encoding="utf-8"), "utf-8")
    checks.verify_script(backend, tmp_path)  # as shipped: accepted
    api = (tmp_path / "api.js").read_text(encoding="utf-8")
    (tmp_path / "api.js").write_text(api.replace("new Function(", "new  Function("), "utf-8")
    with pytest.raises(BridgePatchError) as refusal:
        checks.verify_script(backend, tmp_path)
    assert f"bridge script for the {backend.name} backend changed" in str(refusal.value)
    assert "app/bridge/csp.py" in str(refusal.value)


def test_a_script_that_no_longer_sends_calls_for_a_platform_refuses_for_that_backend_only(
    tmp_path: Path,
) -> None:
    from webview import util

    shipped = Path(util.get_js_dir())
    api = (shipped / "api.js").read_text(encoding="utf-8")
    (tmp_path / "api.js").write_text(api.replace("case 'cocoa':\n", ""), "utf-8")
    (tmp_path / "finish.js").write_text((shipped / "finish.js").read_text("utf-8"), "utf-8")
    with pytest.raises(BridgePatchError, match="for the cocoa backend changed"):
        checks.verify_script(COCOA, tmp_path)
    checks.verify_script(GTK, tmp_path)  # gtkwebkit2 still has its case


def test_answers_not_sent_through_evaluate_js_refuse_to_start(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from webview import util

    checks.verify_answers(COCOA)

    def js_bridge_call(window: Any, func_name: str, param: Any, value_id: str) -> None:
        window.run_js(f"window.pywebview._answers[{value_id!r}]()")

    monkeypatch.setattr(util, "js_bridge_call", js_bridge_call)
    with pytest.raises(BridgePatchError, match="bridge answers for the cocoa backend changed"):
        checks.verify_answers(COCOA)


def test_a_run_js_that_wraps_the_script_refuses_to_start(monkeypatch: pytest.MonkeyPatch) -> None:
    import webview

    checks.verify_run_js(GTK)

    def run_js(self: Any, script: str) -> Any:
        return self.gui.evaluate_js(f'eval("{script}")', self.uid, False)

    monkeypatch.setattr(webview.Window, "run_js", run_js)
    with pytest.raises(BridgePatchError, match="script runner for the gtk backend changed"):
        checks.verify_run_js(GTK)


def test_the_backend_is_loaded_before_webview_start_and_must_be_the_one_checked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """pywebview would fall back to another toolkit (or renderer) than the one checked: loaded
    first, the backend is the one webview.start finds, or the app refuses to start."""
    assert checks.load(QT).__name__ == "webview.platforms.qt"  # Qt is installed here
    webkit = types.ModuleType("sidekicks_fake_qt")
    webkit.renderer = "qtwebkit"  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, webkit.__name__, webkit)
    with pytest.raises(BridgePatchError, match="would run the qtwebkit renderer"):
        checks.load(dataclasses.replace(QT, gui_module=webkit.__name__))
    with pytest.raises(BridgePatchError, match="the qt backend could not be loaded"):
        checks.load(dataclasses.replace(QT, gui_module="sidekicks_no_such_module"))


def test_the_running_backend_is_the_systems_own(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(backends.GUI_OVERRIDE, raising=False)
    for system, backend in [("linux", QT), ("darwin", COCOA), ("win32", EDGECHROMIUM)]:
        monkeypatch.setattr(sys, "platform", system)
        assert running_backend() is backend
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setenv(backends.GUI_OVERRIDE, "gtk")
    assert running_backend() is GTK
