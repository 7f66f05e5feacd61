"""The bridge answers only the services' exposed methods, whatever name the page sends.

pywebview resolves the name of a page's call with `getattr`, step by step along its dots, and no
check (`webview.util.js_bridge_call`): left alone, `ConfigService._store.path.write_text` writes
the configuration, `AgentService._core.stop` stops the backend, `…__globals__` reaches module
globals. Every call therefore passes a gate first: its name must be one of `<Service>.<Method>`
for a method marked `__exposed__` (app/core/expose.py) on a public attribute of the window's
js_api (app/api.py: the services). Anything else — private attributes, dunders, longer
paths, unknown names, pywebview's own internal names (moving the window, DOM events, `state`,
async evaluate_js results, functions added with `window.expose`: the app uses none of them) —
is refused before anything is resolved, and the page's promise is rejected (`BridgeRefusal`)
rather than left pending.

Each pywebview backend imports `js_bridge_call` by name (`from webview.util import …`) and calls
it where the page's calls arrive: the gate replaces that name in the running backend's module
(backends.py's `bridge_module`, imported here before `webview.start` would import it), and only
there. The names it lets through are those of the api given to pywebview (results.page_api).
"""

from __future__ import annotations

import functools
import importlib
import inspect
import json
import logging
import re
import threading
from collections.abc import Callable
from typing import Any

from app.i18n import _

log = logging.getLogger(__name__)

BridgeCall = Callable[[Any, str, Any, str], None]

REFUSAL = "BridgeRefusal"
# pywebview's ids are `(Math.random() + "").substring(2)`; they are written into the script that
# answers the call, so nothing else is accepted.
CALL_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")
_SHOWN_NAME = 80  # characters of a refused name quoted in the log and the error


def allowed_calls(api: object) -> frozenset[str]:
    """`<Service>.<Method>` for each exposed method of each public attribute of `api`.

    Read from the classes (getattr_static): building the list runs no property or descriptor."""
    names = set()
    for service_name, service in vars(api).items():
        if service_name.startswith("_"):
            continue
        for method_name in dir(type(service)):
            method = inspect.getattr_static(type(service), method_name)
            if (
                not method_name.startswith("_")
                and inspect.isfunction(method)
                and getattr(method, "__exposed__", False) is True
            ):
                names.add(f"{service_name}.{method_name}")
    return frozenset(names)


def guarded(call: BridgeCall, allowed: frozenset[str]) -> BridgeCall:
    """pywebview's `js_bridge_call` behind the gate: only the `allowed` names get through."""

    @functools.wraps(call)
    def js_bridge_call(window: Any, func_name: str, param: Any, value_id: str) -> None:
        if (
            isinstance(func_name, str)
            and func_name in allowed
            and isinstance(value_id, str)
            and CALL_ID.fullmatch(value_id)
        ):
            call(window, func_name, param, value_id)
            return
        refuse(window, func_name, value_id)

    js_bridge_call.__sidekicks_guarded__ = True  # type: ignore[attr-defined]
    return js_bridge_call


def refuse(window: Any, func_name: object, value_id: object) -> None:
    shown = str(func_name)[:_SHOWN_NAME]
    log.warning("refused the page's call to %r", shown)
    # Called on the GUI thread: the answer goes through evaluate_js, which waits for the GUI
    # thread, so it is sent from another one (as pywebview sends results).
    threading.Thread(
        target=_send, args=(window, refusal_script(func_name, value_id, shown)), daemon=True
    ).start()


def refusal_script(func_name: object, value_id: object, shown: str) -> str:
    """Rejects the page's promise, if it waits for one (its callback is looked up by the name
    and id it sent, both written as JSON strings: nothing the page sent becomes script)."""
    error = {
        "name": REFUSAL,
        "message": _("{name} cannot be called from the page").format(name=shown),
        "stack": "",
    }
    name = json.dumps(str(func_name))
    call_id = json.dumps(str(value_id))
    value = json.dumps(json.dumps(error))
    return (
        "(function(){var w=window.pywebview&&window.pywebview._returnValuesCallbacks;"
        f"var c=w&&Object.prototype.hasOwnProperty.call(w,{name})&&w[{name}];"
        f"c=c&&Object.prototype.hasOwnProperty.call(c,{call_id})&&c[{call_id}];"
        f"if(typeof c==='function')c({{isError:true,value:{value}}});}})()"
    )


def _send(window: Any, script: str) -> None:
    try:
        window.evaluate_js(script)
    except Exception:
        log.exception("could not answer a refused call")


def install(bridge_module: str, api: object) -> None:
    """Puts the gate, allowing the exposed methods of `api`, in front of the page's calls in
    `bridge_module` (the running backend's). Installing again replaces the gate."""
    namespace = vars(importlib.import_module(bridge_module))
    call = namespace["js_bridge_call"]
    original = call.__wrapped__ if getattr(call, "__sidekicks_guarded__", False) else call
    namespace["js_bridge_call"] = guarded(original, allowed_calls(api))
