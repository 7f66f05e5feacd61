"""The backend started on its own thread while the window opens (app/bridge/starting.py), and the
js_api pywebview is given until then (app/bridge/late_api.py)."""

from __future__ import annotations

import threading
from typing import Any, cast

import pytest
from webview.util import js_bridge_call

from app.bridge.allowlist import allowed_calls
from app.bridge.late_api import LateApi
from app.bridge.starting import BackgroundStart

WAIT = 10.0
STILL_WAITING = 0.2  # long enough for an answer that would not wait to come


class FakeBackend:
    def __init__(self) -> None:
        self.closed = 0

    def close(self) -> None:
        self.closed += 1


class Service:
    def Current(self) -> str:
        return "current"


class FakeWindow:
    """What pywebview's js_bridge_call reads of a window: its js_api, and where it answers."""

    def __init__(self, js_api: object) -> None:
        self._functions: dict[str, Any] = {}
        self._js_api = js_api
        self.answers: list[str] = []
        self.answered = threading.Event()

    def evaluate_js(self, script: str) -> None:
        self.answers.append(script)
        self.answered.set()


class PageApi:
    def __init__(self) -> None:
        self.ConfigService = Service()


def test_the_late_api_waits_for_the_page_api_then_answers_as_it() -> None:
    late = LateApi()
    listed: list[list[str]] = []
    lister = threading.Thread(target=lambda: listed.append(dir(late)))
    lister.start()
    lister.join(STILL_WAITING)  # nothing is given yet
    assert lister.is_alive() and listed == []
    late.give(PageApi())
    lister.join(WAIT)
    assert "ConfigService" in listed[0]
    window = FakeWindow(late)
    js_bridge_call(cast(Any, window), "ConfigService.Current", [], "1")  # a page's call
    assert window.answered.wait(WAIT)
    assert '"current"' in window.answers[0]


def test_the_late_api_offers_nothing_public_of_its_own_and_no_private_name() -> None:
    late = LateApi()
    assert allowed_calls(late) == frozenset()  # the gate installed with it refuses every call
    late.give(PageApi())
    with pytest.raises(AttributeError):
        _ = late._api_of_the_page  # a private name is never looked up on the api
    with pytest.raises(AttributeError):
        _ = late.Missing


def test_a_late_api_given_none_lists_nothing_and_the_first_given_stays() -> None:
    late = LateApi()
    late.give(None)  # the backend did not start, or the window closed first
    late.give(PageApi())
    assert dir(late) == []
    with pytest.raises(AttributeError):
        _ = late.ConfigService


def test_a_start_runs_on_its_own_thread_and_its_callbacks_after_it() -> None:
    backend = FakeBackend()
    release = threading.Event()
    threads: list[str] = []

    def start() -> Any:
        threads.append(threading.current_thread().name)
        release.wait(WAIT)
        return backend

    starting = BackgroundStart(start).begin()
    seen: list[object] = []
    starting.when_started(seen.append, lambda: seen.append("failed"))
    assert seen == []  # registered while the start runs
    release.set()
    assert starting.result() is backend
    assert seen == [backend] and threads == ["backend-start"]
    late: list[object] = []
    starting.when_started(late.append, lambda: late.append("failed"))  # after: at once
    assert late == [backend]
    starting.close()
    assert backend.closed == 1


def test_a_start_that_raises_calls_the_failed_callbacks_and_result_raises_it() -> None:
    def start() -> Any:
        raise ImportError("no pydantic")

    starting = BackgroundStart(start)
    seen: list[object] = []
    starting.when_started(seen.append, lambda: seen.append("failed"))
    starting.begin()
    with pytest.raises(ImportError, match="no pydantic"):
        starting.result()
    assert seen == ["failed"]
    starting.close()  # nothing started: nothing to close


def test_a_callback_that_raises_fails_the_start_and_the_backend_still_closes() -> None:
    backend = FakeBackend()
    starting = BackgroundStart(lambda: cast(Any, backend))
    failed: list[str] = []

    def connect(_: object) -> None:
        raise RuntimeError("no page api")

    starting.when_started(connect, lambda: failed.append("failed"))
    starting.begin()
    with pytest.raises(RuntimeError, match="no page api"):
        starting.result()
    assert failed == ["failed"]
    starting.close()
    assert backend.closed == 1


def test_closing_a_start_that_never_began_does_nothing() -> None:
    starting = BackgroundStart(lambda: cast(Any, FakeBackend()))
    starting.wait()
    starting.close()
