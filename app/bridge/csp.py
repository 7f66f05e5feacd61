"""Keeps pywebview's bridge working under a Content-Security-Policy without 'unsafe-eval'.

pywebview relies on eval twice, and a strict CSP refuses both (EvalError):
- its injected script builds each `window.pywebview.api.<Service>.<Method>` with
  `new Function(...)`: the script is patched to build the same functions as closures (and
  its `_checkValue` to parse the JSON text results.py answers once more: the page gets the
  values it always did);
- `Window.evaluate_js` wraps every script in `eval("…")`, and pywebview returns each call's
  result to the page that way: our window's `evaluate_js` runs the script as it is
  (`run_js`), which is all those calls and the event pump need.
Allowing 'unsafe-eval' instead would let any string reach the JS compiler. The patch is exact:
if pywebview's script changes, the app refuses to start rather than run with a broken or
weakened bridge (checks.py, before the window opens, names the backend; and a test fails).
Every backend (qt, gtk, cocoa, edgechromium) builds its script through util.load_js_files and
evaluates in the page's world under its CSP: both halves apply to all (backends.py).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from app.bridge.backends import BACKENDS

ORIGINAL = """      nestedObject[functionName] = new Function(
        sanitize_params(params),
        funcBody
      );"""

CLOSURE = """      nestedObject[functionName] = (function (name) {
        return function () {
          var __id = (Math.random() + "").substring(2);
          var args = Array.prototype.slice.call(arguments);
          var promise = new Promise(function (resolve, reject) {
            window.pywebview._checkValue(name, resolve, reject, __id);
          });
          window.pywebview._jsApiCallback(name, args, __id);
          return promise;
        };
      })(funcName);"""

# How pywebview's `_checkValue` resolves a call with the value it answered. The page API answers
# JSON text (results.py), which pywebview sends as a JSON string: parsed once more, the page gets
# the value that text encodes, whichever way the call was made.
ANSWERED = "resolve(JSON.parse(value));"
ANSWERED_TEXT = "resolve(JSON.parse(JSON.parse(value)));"


class BridgePatchError(RuntimeError):
    """pywebview's code differs from what a patch of app/bridge was written for: the app refuses
    to open its window (`python -m app` exits with 3, the message said on stderr and logged)."""


# The platform string each backend builds its script with, and the backend's name.
_BACKEND_OF = {backend.platform: backend.name for backend in BACKENDS.values()}


def patch_script(js_code: str, backend: str = "any") -> str:
    if js_code.count(ORIGINAL) != 1 or js_code.count(ANSWERED) != 1:
        raise BridgePatchError(
            f"pywebview's bridge script for the {backend} backend changed: "
            "app/bridge/csp.py must be updated"
        )
    return js_code.replace(ORIGINAL, CLOSURE).replace(ANSWERED, ANSWERED_TEXT)


def without_eval(window: Any) -> None:
    """Makes `window.evaluate_js` run scripts as they are (results are not returned)."""

    def evaluate_js(script: str, callback: Callable[..., Any] | None = None) -> Any:
        return window.run_js(script)

    window.evaluate_js = evaluate_js


def install() -> None:
    """Wraps pywebview's script loader so every injected bridge is eval-free."""
    from webview import util

    original: Callable[..., Any] = util.load_js_files
    if getattr(original, "__sidekicks_patched__", False):
        return

    @functools.wraps(original)
    def load_js_files(window: Any, platform: str) -> tuple[str, str]:
        js_code, finish = original(window, platform)
        return patch_script(js_code, _BACKEND_OF.get(platform, platform)), finish

    load_js_files.__sidekicks_patched__ = True  # type: ignore[attr-defined]
    util.load_js_files = load_js_files  # type: ignore[assignment]
