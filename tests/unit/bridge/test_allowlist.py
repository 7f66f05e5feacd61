"""pywebview's real `js_bridge_call` behind the gate: only `<Service>.<Method>` of an exposed method
gets through; anything else is refused before a single attribute is looked up, and answered."""

from __future__ import annotations

import inspect
import json
import queue
import re
import sys
import types
from typing import Any

import pytest
from webview import util

from app.agents.service import AgentService
from app.bridge import allowlist
from app.channels.service import ChannelService
from app.config.service import ConfigService
from app.core.expose import exposed


class Watched:
    """Records the name of every attribute looked up on it."""

    def __init__(self) -> None:
        object.__setattr__(self, "looked_up", [])

    def __getattribute__(self, name: str) -> Any:
        if name != "looked_up":
            object.__getattribute__(self, "looked_up").append(name)
        return object.__getattribute__(self, name)


class Path(Watched):
    def write_text(self, text: str) -> int:
        raise AssertionError("the page wrote a file")


class Store(Watched):
    def __init__(self) -> None:
        super().__init__()
        self.path = Path()


class Service(Watched):
    def __init__(self) -> None:
        super().__init__()
        self._store = Store()

    @exposed
    def Current(self) -> dict[str, str]:
        return {"answer": "current"}

    def Public(self) -> str:  # public but not exposed
        return "public"


class Api(Watched):
    def __init__(self) -> None:
        super().__init__()
        self.Service = Service()
        self._private = Service()


class FakeWindow:
    """What `webview.util.js_bridge_call` uses of a window."""

    def __init__(self, api: object) -> None:
        self._functions: dict[str, Any] = {"exposedWithWindowExpose": lambda: "exposed"}
        self._js_api = api
        self.scripts: queue.Queue[str] = queue.Queue()

    def evaluate_js(self, script: str) -> None:
        self.scripts.put(script)

    def move(self, x: int, y: int) -> None:
        raise AssertionError("the page moved the window")


@pytest.fixture
def gate() -> allowlist.BridgeCall:
    """pywebview's real `js_bridge_call` behind the gate, allowing what `Api` exposes."""
    return allowlist.guarded(util.js_bridge_call, allowlist.allowed_calls(Api()))  # type: ignore[arg-type]


JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')

HOSTILE = [
    "Service._store.path.write_text",
    "Service._store",
    "Service.Current.__self__",
    "Service.Current.__globals__",
    "Service.Current.__call__",
    "Service.Public",
    "Service",
    "Service.",
    ".Service.Current",
    "Service..Current",
    "_private.Current",
    "__class__",
    "__init__",
    "Service.NoSuchMethod",
    "exposedWithWindowExpose",
    "pywebviewMoveWindow",
    "pywebviewStateUpdate",
    "pywebviewStateDelete",
    "pywebviewAsyncCallback",
    "pywebviewEventHandler",
    "",
]


@pytest.mark.parametrize("name", HOSTILE)
def test_a_name_outside_the_exposed_methods_is_refused_before_anything_is_looked_up(
    gate: allowlist.BridgeCall, name: str
) -> None:
    api = Api()
    service = object.__getattribute__(api, "Service")
    store = object.__getattribute__(service, "_store")
    window = FakeWindow(api)
    gate(window, name, ["evil"], "123")
    script = window.scripts.get(timeout=5)
    assert "isError:true" in script
    assert service.looked_up == []
    assert store.looked_up == []
    assert set(api.looked_up) <= {"__dict__"}  # the list of services, read once


def test_the_refusal_rejects_the_pages_promise_with_a_readable_error(
    gate: allowlist.BridgeCall,
) -> None:
    window = FakeWindow(Api())
    gate(window, "Service._store", [], "42")
    script = window.scripts.get(timeout=5)
    value = script[script.index("value:") + len("value:") : script.rindex("});")]
    error = json.loads(json.loads(value))
    assert error["name"] == "BridgeRefusal"
    assert error["message"] == "Service._store cannot be called from the page"
    assert 'hasOwnProperty.call(w,"Service._store")' in script
    assert 'hasOwnProperty.call(c,"42")' in script


def test_what_the_page_sent_is_written_into_the_answer_as_json_strings_only(
    gate: allowlist.BridgeCall,
) -> None:
    window = FakeWindow(Api())
    name = 'x"];alert(1);//\u2028'
    call_id = '"]);alert(2);//'
    gate(window, name, [], call_id)
    script = window.scripts.get(timeout=5)
    assert json.dumps(name) in script and json.dumps(call_id) in script
    outside_strings = JSON_STRING.sub('""', script)
    assert "alert" not in outside_strings, outside_strings


def test_an_exposed_method_answers_through_pywebview_as_before(
    gate: allowlist.BridgeCall,
) -> None:
    api = Api()
    service = object.__getattribute__(api, "Service")
    window = FakeWindow(api)
    gate(window, "Service.Current", [], "7")
    script = window.scripts.get(timeout=5)
    assert "isError" not in script
    assert '"answer": "current"' in script
    assert service.looked_up == ["Current"]


def test_an_exposed_method_called_with_an_id_that_is_not_pywebviews_is_refused(
    gate: allowlist.BridgeCall,
) -> None:
    api = Api()
    service = object.__getattribute__(api, "Service")
    window = FakeWindow(api)
    gate(window, "Service.Current", [], '7"]; alert(1); //')
    assert "isError:true" in window.scripts.get(timeout=5)
    assert service.looked_up == []


def test_the_app_allows_exactly_the_exposed_methods_of_its_three_services() -> None:
    def exposed_methods(name: str, service: type) -> set[str]:
        return {
            f"{name}.{method}"
            for method, fn in inspect.getmembers(service, inspect.isfunction)
            if getattr(fn, "__exposed__", False)
        }

    api = types.SimpleNamespace(
        AgentService=AgentService.__new__(AgentService),
        ConfigService=ConfigService.__new__(ConfigService),
        ChannelService=ChannelService.__new__(ChannelService),
    )
    allowed = allowlist.allowed_calls(api)
    assert allowed == (
        exposed_methods("AgentService", AgentService)
        | exposed_methods("ConfigService", ConfigService)
        | exposed_methods("ChannelService", ChannelService)
    )
    assert "ConfigService.Current" in allowed
    assert not any(name.split(".")[1].startswith("_") for name in allowed)


def test_the_gate_replaces_the_running_backends_name_for_the_call_and_only_that_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    original = util.js_bridge_call
    backend = types.ModuleType("sidekicks_fake_backend")
    backend.js_bridge_call = original  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, backend.__name__, backend)

    allowlist.install(backend.__name__, Api())
    gate = backend.js_bridge_call  # type: ignore[attr-defined]
    assert gate is not original and gate.__wrapped__ is original
    assert util.js_bridge_call is original  # util's own name is not the backend's

    allowlist.install(backend.__name__, types.SimpleNamespace())  # again: a new gate, not two
    again = backend.js_bridge_call  # type: ignore[attr-defined]
    assert again.__wrapped__ is original
    window = FakeWindow(Api())
    again(window, "Service.Current", [], "7")  # the new api exposes nothing
    assert "isError:true" in window.scripts.get(timeout=5)
