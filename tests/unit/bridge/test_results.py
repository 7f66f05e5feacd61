"""Results cross pywebview's real bridge function as JSON: models by alias (camelCase), WireJson
as the text it already is."""

from __future__ import annotations

import json
import queue
from typing import Any

from webview import util

from app.bridge import results
from app.core.expose import exposed
from app.models.conversation import Message
from app.models.problems import Problem
from app.models.wire import WireJson


class FakeWindow:
    """What `webview.util.js_bridge_call` uses of a window: the API and `evaluate_js`."""

    def __init__(self, api: object) -> None:
        self._functions: dict[str, Any] = {}
        self._js_api = api
        self.scripts: queue.Queue[str] = queue.Queue()

    def evaluate_js(self, script: str) -> None:
        self.scripts.put(script)


class Service:
    def Encoded(self) -> WireJson[Any]:
        return WireJson('{"text":"it\'s \\"quoted\\" \\\\ é","more":true}')

    def Plain(self) -> dict[str, Any]:
        return {"text": "plain", "n": 1}

    @exposed
    def Model(self, id: str, agent: str = "demo") -> Message:
        return Message(
            id=id,
            channel="c1",
            created_at="2026-01-01T00:00:00Z",
            role="agent",
            agent=agent,
            stop_reason="end_turn",
        )

    def Models(self) -> dict[str, list[Problem]]:
        return {"problems": [Problem(line=1, column=2, message="it's \\ wrong")]}


class Api:
    Service = Service()


def returned_value(window: FakeWindow, name: str, *params: Any) -> Any:
    """Runs pywebview's bridge call and decodes what the page would: the single-quoted JS
    string literal in the script (pywebview escapes backslashes and quotes), then JSON."""
    util.js_bridge_call(window, f"Service.{name}", list(params), "id-1")  # type: ignore[arg-type]
    script = window.scripts.get(timeout=5)
    assert "isError" not in script, script
    literal = script[script.index("{value: '") + len("{value: '") : script.rindex("'}")]
    text = literal.replace("\\'", "'").replace("\\\\", "\\")
    return json.loads(text)


def test_a_wire_json_result_reaches_the_page_as_its_own_text() -> None:
    results.install()
    value = returned_value(FakeWindow(Api()), "Encoded")
    assert value == {"text": 'it\'s "quoted" \\ é', "more": True}


def test_other_results_are_encoded_by_json_as_before() -> None:
    results.install()
    assert returned_value(FakeWindow(Api()), "Plain") == {"text": "plain", "n": 1}


def test_a_model_result_reaches_the_page_as_camel_case_json() -> None:
    results.install()
    value = returned_value(FakeWindow(Api()), "Model", "m1", None)  # the page left `agent` out
    assert value == {
        "id": "m1",
        "channel": "c1",
        "createdAt": "2026-01-01T00:00:00Z",
        "role": "agent",
        "agent": "demo",
        "parts": [],
        "done": True,
        "queued": False,
        "stopReason": "end_turn",
        "error": "",
        "code": None,
        "attachments": [],
    }


def test_models_inside_lists_and_dicts_are_encoded_too() -> None:
    results.install()
    value = returned_value(FakeWindow(Api()), "Models")
    assert value == {
        "problems": [{"line": 1, "column": 2, "message": "it's \\ wrong", "warning": False}]
    }


def test_installing_twice_keeps_one_wrapper() -> None:
    results.install()
    first = util.json
    results.install()
    assert util.json is first
    assert util.json.loads("[1]") == [1]  # the rest of json is still there
