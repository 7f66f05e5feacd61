"""Before the window opens: the pywebview code our patches rely on, for the backend about to run
(app/bridge/README.md lists the patches). A pywebview that changed underneath stops the app
rather than give the page a broken or weakened bridge:
- csp: api.js still builds the api with `new Function` and resolves an answer with
  `resolve(JSON.parse(value))` in the forms csp.py replaces, still sends calls for the backend's
  platform string, and finish.js still creates the api;
- the backend's code (compiled from its module, not imported: the same reading tests every
  backend on Linux) still injects the bridge through util's `inject_pywebview` with its platform
  string and no `load_js_files` of its own, takes the page's calls to util's `js_bridge_call` by
  name (the allow-list replaces that name), still looks up by name what a lock puts in place, and
  its gui module still answers `evaluate_js` (what `run_js` calls);
- without_eval: util's `js_bridge_call` answers through `window.evaluate_js` into
  `_returnValuesCallbacks` (where the refusal answers too), and `Window.run_js` hands a script as
  it is to the backend;
- `load` imports the backend's gui module before `webview.start` (which would fall back to
  another toolkit) and refuses another renderer than the one checked.
A failure raises BridgePatchError naming the backend; `python -m app` says it and exits with 3.
"""

from __future__ import annotations

import contextlib
import dis
import importlib
import importlib.util
import inspect
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from types import CodeType, ModuleType
from typing import Any

from app.bridge import csp
from app.bridge.backends import JS_BRIDGE_CALL, Backend
from app.bridge.csp import BridgePatchError

ReadCode = Callable[[str], CodeType]

# The file of each backend-specific patch (the navigation lock is one per backend).
PATCH_FILES = {
    ("qt", "permissions"): "qt_navigation.py",  # its page answers them (permissions.py's way)
    ("qt", "navigation"): "qt_navigation.py",
    ("edgechromium", "navigation"): "edge_navigation.py",
    ("gtk", "navigation"): "gtk_navigation.py",
    ("cocoa", "navigation"): "cocoa_navigation.py",
}

ANSWER = "_returnValuesCallbacks"  # where pywebview's answer goes (the refusal's too)


def verify(backend: Backend, read_code: ReadCode | None = None, js_dir: Path | None = None) -> None:
    """Raises BridgePatchError (naming the backend) when a patch's target differs."""
    read = read_code or module_code
    verify_script(backend, js_dir)
    verify_backend_code(backend, read)
    verify_answers(backend)
    verify_run_js(backend)


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
    platform = backend.platform
    needed = {
        "api.js no longer builds `new Function`": api.count(csp.ORIGINAL) == 1,
        f"api.js no longer sends calls for '{platform}' the way the patch does": (
            f"case '{platform}':" in api and "_checkValue" in api
        ),
        "api.js no longer parses what a call answers": api.count(csp.ANSWERED) == 1,
        "finish.js no longer creates the api": (
            "window.pywebview._createApi(JSON.parse('%(functions)s'))" in finish
        ),
    }
    for detail, present in needed.items():
        if not present:
            raise fail(backend, "bridge script", detail, "csp.py")


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
    script_refusals = [
        (
            backend.platform not in strings(bridge),
            "bridge injection",
            f"{backend.bridge_module} no longer builds the script for '{backend.platform}'",
        ),
        (
            "load_js_files" in imported,
            "bridge injection",
            f"{backend.bridge_module} imports its own load_js_files",
        ),
        (
            "evaluate_js" not in gui.co_names,
            "script runner",
            f"{backend.gui_module} has no evaluate_js for Window.run_js",
        ),
    ]
    for refused, what, detail in script_refusals:
        if refused:
            raise fail(backend, what, detail, "csp.py")
    nav = PATCH_FILES.get((backend.name, "navigation"), "backends.py")
    _verify_lookups(backend, backend.bridge_module, functions, backend.hooked, nav)
    gui_functions = {each.co_qualname: each for each in _codes(gui)}
    _verify_lookups(backend, backend.gui_module, gui_functions, backend.gui_hooked, nav)
    for patch, names in backend.replaced.items():
        missing = [name for name in names if name not in functions]
        if missing:
            raise fail(
                backend,
                "code",
                f"{backend.bridge_module} no longer has {', '.join(missing)}",
                PATCH_FILES.get((backend.name, patch), "backends.py"),
            )


def _verify_lookups(
    backend: Backend,
    module: str,
    functions: dict[str, CodeType],
    lookups: Mapping[str, tuple[str, ...]],
    patch: str,
) -> None:
    """Each function still looks up by name what a patch puts in place (else ours is unused)."""
    for qualname, names in lookups.items():
        function = functions.get(qualname)
        missing = [name for name in names if function is None or name not in function.co_names]
        if missing:
            raise fail(
                backend,
                "code",
                f"{module}'s {qualname} no longer looks up {', '.join(missing)}",
                patch,
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


def verify_answers(backend: Backend) -> None:
    """util's `js_bridge_call` answers the page through `window.evaluate_js` (which
    csp.without_eval makes run the script as it is) into `_returnValuesCallbacks` (where the
    allow-list's refusal answers too)."""
    from webview import util

    code: CodeType = inspect.unwrap(util.js_bridge_call).__code__
    names = {name for each in _codes(code) for name in each.co_names}
    if "evaluate_js" not in names or not any(ANSWER in text for text in strings(code)):
        raise fail(
            backend,
            "bridge answers",
            f"js_bridge_call no longer answers through window.evaluate_js into {ANSWER}",
            "csp.py",
        )


class _ScriptWindow:
    """What `Window.run_js` uses of a window: its gui's `evaluate_js`."""

    uid = "sidekicks-probe"

    def __init__(self) -> None:
        self.scripts: list[str] = []
        self.gui = self

    def evaluate_js(self, script: str, *args: Any) -> None:
        self.scripts.append(script)


def verify_run_js(backend: Backend) -> None:
    """`Window.run_js` (our evaluate_js, csp.without_eval) gives the script, unwrapped, to the
    backend's evaluate_js."""
    import webview

    run_js = inspect.unwrap(getattr(webview.Window, "run_js", None) or (lambda *_: None))
    window = _ScriptWindow()
    with contextlib.suppress(Exception):  # a changed run_js: refused just below
        run_js(window, "sidekicks-probe()")
    if window.scripts != ["sidekicks-probe()"]:
        raise fail(
            backend,
            "script runner",
            "Window.run_js no longer hands a script as it is to the backend",
            "csp.py",
        )


def load(backend: Backend) -> ModuleType:
    """Imports the backend's gui module before `webview.start` does (so that pywebview finds this
    one, not a fallback), and refuses it when it would run another renderer (winforms picks
    MSHTML or CEF without WebView2; qt QtWebKit without QtWebEngine)."""
    try:
        module = importlib.import_module(backend.gui_module)
    except Exception as err:
        raise BridgePatchError(
            f"the {backend.name} backend could not be loaded ({err}): pywebview would fall back "
            "to another, for which the bridge was neither checked nor patched"
        ) from err
    renderer = getattr(module, "renderer", None)
    if renderer != backend.renderer:
        raise BridgePatchError(
            f"the {backend.name} backend would run the {renderer} renderer, for which the bridge "
            "was neither checked nor patched"
        )
    return module
