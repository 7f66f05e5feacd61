"""The page API answers JSON text (models by alias, camelCase; WireJson as the text it already
is), which crosses pywebview's real bridge function as a JSON string the page parses once more
(csp.py's patch of `_checkValue`): the page receives the values it always did."""

from __future__ import annotations

import inspect
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
    @exposed
    def Encoded(self) -> WireJson[Any]:
        return WireJson('{"text":"it\'s \\"quoted\\" \\\\ é","more":true}')

    @exposed
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

    @exposed
    def Models(self) -> dict[str, list[Problem]]:
        return {"problems": [Problem(line=1, column=2, message="it's \\ wrong")]}

    @exposed
    def Nothing(self) -> None:
        return None

    def NotExposed(self) -> str:
        return "public but not exposed"


class Api:
    def __init__(self) -> None:
        self.Service = Service()
        self._private = Service()


def page_value(name: str, *params: Any) -> Any:
    """Runs pywebview's bridge call on the page API and decodes what the page would: the
    single-quoted JS string literal in the script (pywebview escapes backslashes and quotes),
    JSON (pywebview's `JSON.parse`), then JSON again (csp.py's patch of it)."""
    window = FakeWindow(results.page_api(Api()))
    util.js_bridge_call(window, f"Service.{name}", list(params), "id-1")  # type: ignore[arg-type]
    script = window.scripts.get(timeout=5)
    assert "isError" not in script, script
    literal = script[script.index("{value: '") + len("{value: '") : script.rindex("'}")]
    text = json.loads(literal.replace("\\'", "'").replace("\\\\", "\\"))
    assert isinstance(text, str)  # what pywebview sends is the page API's JSON text
    return json.loads(text)


def test_a_wire_json_result_reaches_the_page_as_its_own_text() -> None:
    assert page_value("Encoded") == {"text": 'it\'s "quoted" \\ é', "more": True}
    service = results.page_api(Api()).Service  # type: ignore[attr-defined]
    assert service.Encoded() == Service().Encoded().text  # the very text, not re-encoded


def test_other_results_are_encoded_by_json_as_before() -> None:
    assert page_value("Plain") == {"text": "plain", "n": 1}
    assert page_value("Nothing") is None


def test_a_model_result_reaches_the_page_as_camel_case_json() -> None:
    value = page_value("Model", "m1", None)  # the page left `agent` out
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
        "errorDetails": "",
        "handoff": None,
        "dropped": [],
        "madeRoom": None,
    }


def test_models_inside_lists_and_dicts_are_encoded_too() -> None:
    assert page_value("Models") == {
        "problems": [
            {"line": 1, "column": 2, "message": "it's \\ wrong", "warning": False, "detail": ""}
        ]
    }


def test_the_page_api_holds_the_exposed_methods_only_with_their_parameters() -> None:
    page = results.page_api(Api())
    assert [name for name in vars(page) if not name.startswith("_")] == ["Service"]
    service = page.Service  # type: ignore[attr-defined]
    public = {name for name in dir(service) if not name.startswith("_")}
    assert public == {"Encoded", "Plain", "Model", "Models", "Nothing"}
    # pywebview reads the page function's parameters from the signature (its first one dropped)
    assert inspect.getfullargspec(service.Model).args == ["self", "id", "agent"]
    assert getattr(type(service).Model, "__exposed__", False) is True  # the allow-list reads it


def test_an_error_still_reaches_the_page_as_pywebviews_error() -> None:
    class Failing:
        @exposed
        def Fail(self) -> None:
            raise ValueError("a sentence for the person")

    class FailingApi:
        def __init__(self) -> None:
            self.Failing = Failing()

    window = FakeWindow(results.page_api(FailingApi()))
    util.js_bridge_call(window, "Failing.Fail", [], "id-2")  # type: ignore[arg-type]
    script = window.scripts.get(timeout=5)
    assert "isError: true" in script and "a sentence for the person" in script


def test_each_answer_waits_for_the_events_emitted_before_it_even_a_failed_one() -> None:
    """The event pump's `settle`: called once the result is known, before the answer leaves."""
    order: list[str] = []

    class Emitting:
        @exposed
        def Change(self) -> str:
            order.append("changed")
            return "done"

        @exposed
        def Fail(self) -> None:
            order.append("failed")
            raise ValueError("no")

    class EmittingApi:
        def __init__(self) -> None:
            self.Emitting = Emitting()

    window = FakeWindow(results.page_api(EmittingApi(), settle=lambda: order.append("settled")))
    util.js_bridge_call(window, "Emitting.Change", [], "id-3")  # type: ignore[arg-type]
    assert "done" in window.scripts.get(timeout=5)
    util.js_bridge_call(window, "Emitting.Fail", [], "id-4")  # type: ignore[arg-type]
    assert "isError: true" in window.scripts.get(timeout=5)
    assert order == ["changed", "settled", "failed", "settled"]
