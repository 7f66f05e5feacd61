"""Before the window opens: the pywebview code our patches rely on, for the backend about to run.

Every patch is exact, so a pywebview that changed underneath must stop the app rather than give
the page a broken or weakened bridge. Checked here, for the running backend (backends.py):
- csp: its injected script (webview/js/api.js) still builds the api with `new Function` in the
  form csp.py replaces, still sends calls for that backend's platform string, and the finish
  script still creates the api;
- the backend's own code (compiled from pywebview's module, not imported: on macOS and Windows
  the toolkits load later, and the same reading tests every backend on Linux) still injects the
  bridge through util's `inject_pywebview` with its platform string, never holds its own
  `load_js_files`, takes the page's calls to util's `js_bridge_call` by name (the allow-list
  replaces that name), and its gui module still answers `evaluate_js` (what `run_js` calls);
- http_server: pywebview's start_server still serves through the adapter it replaces;
- results and without_eval, by running them: pywebview's real `js_bridge_call` answers a probe
  through `window.evaluate_js` with util's `json` (results.py), and `Window.run_js` hands a
  script as it is to the backend's `evaluate_js`.
A failure raises BridgePatchError naming the backend; `python -m app` says it and exits with 3.
"""

from __future__ import annotations

import contextlib
import dis
import functools
import importlib.util
import inspect
import queue
from collections.abc import Callable, Iterator
from pathlib import Path
from types import CodeType
from typing import Any

from app.bridge import csp, http_server
from app.bridge.backends import JS_BRIDGE_CALL, Backend
from app.bridge.csp import BridgePatchError
from app.models.wire import WireJson

ReadCode = Callable[[str], CodeType]

# The file of each backend-specific patch (the navigation lock is one per backend).
PATCH_FILES = {
    ("qt", "permissions"): "permissions.py",
    ("qt", "navigation"): "qt_navigation.py",
    ("edgechromium", "navigation"): "edge_navigation.py",
    ("gtk", "navigation"): "gtk_navigation.py",
    ("cocoa", "navigation"): "cocoa_navigation.py",
}

# Compact (json.dumps would add spaces) and a Mapping plain `json` cannot encode: only results.py's
# encoder sends it as it is.
PROBE_TEXT = '{"sidekicks":"probe"}'
PROBE_SECONDS = 5.0


def verify(backend: Backend, read_code: ReadCode | None = None, js_dir: Path | None = None) -> None:
    """Raises BridgePatchError (naming the backend) when a patch's target differs."""
    read = read_code or module_code
    verify_script(backend, js_dir)
    verify_backend_code(backend, read)
    verify_results(backend)
    verify_run_js(backend)
    http_server.verify(backend.name)


def fail(backend: Backend, what: str, detail: str, patch: str) -> BridgePatchError:
    return BridgePatchError(
        f"pywebview's {what} for the {backend.name} backend changed: {detail} "
        f"(app/bridge/{patch} must be updated)"
    )


def verify_script(backend: Backend, js_dir: Path | None = None) -> None:
    from webview import util

    folder = js_dir or Path(util.get_js_dir())
    api = _read(folder / "api.js")
    finish = _read(folder / "finish.js")
    if api.count(csp.ORIGINAL) != 1:
        raise fail(backend, "bridge script", "api.js no longer builds `new Function`", "csp.py")
    if f"case '{backend.platform}':" not in api or "_checkValue" not in api:
        raise fail(
            backend,
            "bridge script",
            f"api.js no longer sends calls for '{backend.platform}' the way the patch does",
            "csp.py",
        )
    if "window.pywebview._createApi(JSON.parse('%(functions)s'))" not in finish:
        raise fail(backend, "bridge script", "finish.js no longer creates the api", "csp.py")


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except OSError:
        return ""


def module_code(name: str) -> CodeType:
    """A pywebview module's compiled code, without importing (running) it."""
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None or not hasattr(spec.loader, "get_code"):
        raise ImportError(name)
    code: CodeType | None = spec.loader.get_code(name)
    if code is None:
        raise ImportError(name)
    return code


def verify_backend_code(backend: Backend, read: ReadCode) -> None:
    try:
        bridge = read(backend.bridge_module)
        gui = read(backend.gui_module)
    except (ImportError, SyntaxError) as err:
        raise fail(backend, "code", f"{err} cannot be read", "backends.py") from err
    imported = imported_from(bridge, "webview.util")
    functions = {each.co_qualname: each for each in _codes(bridge)}
    for qualname, called in backend.calls.items():
        function = functions.get(qualname)
        if called not in imported or function is None or called not in function.co_names:
            what = "calls" if called == JS_BRIDGE_CALL else "injection"
            patch = "allowlist.py" if called == JS_BRIDGE_CALL else "csp.py"
            raise fail(
                backend,
                f"bridge {what}",
                f"{backend.bridge_module}'s {qualname} no longer calls util's {called}",
                patch,
            )
    if backend.platform not in strings(bridge):
        raise fail(
            backend,
            "bridge injection",
            f"{backend.bridge_module} no longer builds the script for '{backend.platform}'",
            "csp.py",
        )
    if "load_js_files" in imported:
        raise fail(
            backend,
            "bridge injection",
            f"{backend.bridge_module} imports its own load_js_files",
            "csp.py",
        )
    if "evaluate_js" not in gui.co_names:
        raise fail(
            backend,
            "script runner",
            f"{backend.gui_module} has no evaluate_js for Window.run_js",
            "csp.py",
        )
    for qualname, attributes in backend.hooked.items():
        function = functions.get(qualname)
        unhooked = [a for a in attributes if function is None or a not in function.co_names]
        if unhooked:
            raise fail(
                backend,
                "code",
                f"{backend.bridge_module}'s {qualname} no longer hooks {', '.join(unhooked)}",
                "backends.py",
            )
    for patch, names in backend.replaced.items():
        missing = [name for name in names if name not in functions]
        if missing:
            raise fail(
                backend,
                "code",
                f"{backend.bridge_module} no longer has {', '.join(missing)}",
                PATCH_FILES.get((backend.name, patch), "backends.py"),
            )


def imported_from(code: CodeType, module: str) -> set[str]:
    """The names `code` (a module's) imports with `from <module> import …`, at any depth."""
    names: set[str] = set()
    for each in _codes(code):
        if module not in each.co_names:  # no `import module` here: nothing to read (faster)
            continue
        current = None
        for instruction in dis.get_instructions(each):
            if instruction.opname == "IMPORT_NAME":
                current = instruction.argval
            elif instruction.opname == "IMPORT_FROM" and current == module:
                names.add(str(instruction.argval))
    return names


def strings(code: CodeType) -> set[str]:
    return {c for each in _codes(code) for c in each.co_consts if isinstance(c, str)}


def _codes(code: CodeType) -> Iterator[CodeType]:
    yield code
    for const in code.co_consts:
        if isinstance(const, CodeType):
            yield from _codes(const)


class _Probe:
    def Value(self) -> WireJson[Any]:
        return WireJson(PROBE_TEXT)


class _ProbeApi:
    Probe = _Probe()


class _ProbeWindow:
    """What pywebview's `js_bridge_call` uses of a window."""

    uid = "sidekicks-probe"

    def __init__(self) -> None:
        self._functions: dict[str, Any] = {}
        self._js_api = _ProbeApi()
        self.scripts: queue.SimpleQueue[str] = queue.SimpleQueue()
        self.gui = self

    def evaluate_js(self, script: str, *args: Any) -> None:
        self.scripts.put(script)


def verify_results(backend: Backend) -> None:
    """pywebview's real `js_bridge_call` (behind the gate, if installed) encodes a result with
    results.py's `json` and sends it through `window.evaluate_js`."""
    from webview import util

    call = inspect.unwrap(util.js_bridge_call)
    window = _ProbeWindow()
    call(window, "Probe.Value", [], "probe")
    try:
        script = window.scripts.get(timeout=PROBE_SECONDS)
    except queue.Empty:
        script = ""
    if "_returnValuesCallbacks" not in script or f"{{value: '{PROBE_TEXT}'}}" not in script:
        raise fail(
            backend,
            "result encoding",
            "js_bridge_call no longer answers through window.evaluate_js with util's json",
            "results.py",
        )


def verify_run_js(backend: Backend) -> None:
    """`Window.run_js` (our evaluate_js, csp.without_eval) gives the script, unwrapped, to the
    backend's evaluate_js."""
    import webview

    run_js = inspect.unwrap(getattr(webview.Window, "run_js", None) or (lambda *_: None))
    window = _ProbeWindow()
    with contextlib.suppress(Exception):  # a changed run_js: refused just below
        run_js(window, "sidekicks-probe()")
    if window.scripts.empty() or window.scripts.get() != "sidekicks-probe()":
        raise fail(
            backend,
            "script runner",
            "Window.run_js no longer hands a script as it is to the backend",
            "csp.py",
        )


def verify_loaded(backend: Backend, guilib: Any) -> None:
    """After `webview.initialize`: pywebview loaded the backend that was checked (it falls back
    to another toolkit when one cannot be imported)."""
    name = getattr(guilib, "__name__", "")
    if name != backend.gui_module:
        loaded = name.rsplit(".", 1)[-1] or "none"
        raise BridgePatchError(
            f"the {backend.name} backend could not be loaded (see the log): pywebview fell back "
            f"to {loaded}, for which the bridge was neither checked nor patched"
        )


def install_loaded_check(backend: Backend) -> None:
    """Runs verify_loaded right after `webview.start` imports its backend. Idempotent (the last
    backend given is the one expected)."""
    import webview

    _expected[:] = [backend]
    initialize = webview.initialize  # type: ignore[attr-defined]
    if getattr(initialize, "__sidekicks_checked__", False):
        return

    @functools.wraps(initialize)
    def initialize_checked(*args: Any, **kwargs: Any) -> Any:
        guilib = initialize(*args, **kwargs)
        verify_loaded(_expected[0], guilib)
        return guilib

    initialize_checked.__sidekicks_checked__ = True  # type: ignore[attr-defined]
    webview.initialize = initialize_checked  # type: ignore[attr-defined]


_expected: list[Backend] = []
