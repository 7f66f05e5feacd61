"""The event pump: order kept, text deltas coalesced, batches bounded, nothing before the page."""

from __future__ import annotations

import json
import threading
from typing import Any

import pytest

from app.bridge.pump import MAX_BATCH, EventPump, coalesce, script_for
from tests.waiting import wait_for


def delta(index: int, text: str, message: str = "m1") -> tuple[str, dict[str, Any]]:
    payload = {"channel": "c", "messageId": message, "index": index, "kind": "text", "text": text}
    return ("message:delta", payload)


def test_consecutive_text_deltas_of_one_part_are_merged() -> None:
    batch = [delta(0, "a"), delta(0, "b"), delta(1, "c"), delta(1, "d"), delta(0, "e")]
    assert [(p["index"], p["text"]) for _, p in coalesce(batch)] == [(0, "ab"), (1, "cd"), (0, "e")]


def test_deltas_are_not_merged_across_other_events_or_messages() -> None:
    state = ("agent:state", {"agent": "a", "state": "busy", "error": None})
    batch = [delta(0, "a"), state, delta(0, "b"), delta(0, "c", message="m2")]
    assert [n for n, _ in coalesce(batch)] == ["message:delta", "agent:state"] + [
        "message:delta"
    ] * 2


def test_part_replacements_are_never_merged() -> None:
    tool = ("message:delta", {**delta(1, "")[1], "text": None, "kind": "tool", "part": {}})
    assert len(coalesce([tool, tool])) == 2


def test_the_script_calls_the_page_dispatcher_with_json() -> None:
    script = script_for([delta(0, "</script>\u2028")])
    prefix = "window.__sidekicks&&window.__sidekicks.dispatch("
    assert script.startswith(prefix)
    assert json.loads(script[len(prefix) : -1]) == [
        ["message:delta", delta(0, "</script>\u2028")[1]]
    ]


class Page:
    def __init__(self) -> None:
        self.received: list[tuple[str, dict[str, Any]]] = []
        self.batches: list[int] = []
        self.lock = threading.Lock()

    def send(self, script: str) -> None:
        prefix = "window.__sidekicks&&window.__sidekicks.dispatch("
        batch = json.loads(script[len(prefix) : -1])
        with self.lock:
            self.batches.append(len(batch))
            self.received += [(n, p) for n, p in batch]


def test_events_wait_for_the_page_then_flow_in_order_in_bounded_batches() -> None:
    page = Page()
    pump = EventPump(page.send)
    pump.start()
    for i in range(2000):
        pump.put("agent:log", {"agent": "a", "line": str(i)})
    assert page.received == []  # no page yet: nothing is sent
    pump.page_loaded()
    wait_for(lambda: len(page.received) == 2000, what="every event")
    assert [p["line"] for _, p in page.received] == [str(i) for i in range(2000)]
    assert max(page.batches) <= MAX_BATCH
    assert len(page.batches) < 2000  # batched, not one call per event
    pump.stop()
    pump.join()


def test_a_stopped_pump_sends_nothing_more() -> None:
    page = Page()
    pump = EventPump(page.send)
    pump.start()
    pump.page_loaded()
    pump.stop()
    pump.join()
    pump.put("agent:log", {"agent": "a", "line": "late"})
    assert page.received == []


class HeldPage(Page):
    """A page whose dispatcher runs only once the test lets it (`go`)."""

    def __init__(self) -> None:
        super().__init__()
        self.go = threading.Event()

    def send(self, script: str) -> None:
        self.go.wait(10)
        super().send(script)


def settle_in_thread(pump: EventPump) -> tuple[threading.Thread, list[bool]]:
    outcome: list[bool] = []
    thread = threading.Thread(target=lambda: outcome.append(pump.settle()), daemon=True)
    thread.start()
    return thread, outcome


def test_an_answer_waits_for_the_events_put_before_it_and_not_for_later_ones() -> None:
    page = HeldPage()
    pump = EventPump()
    pump.start(page.send)
    pump.page_loaded()
    pump.put("agent:log", {"agent": "a", "line": "before"})
    waiting, outcome = settle_in_thread(pump)
    waiting.join(0.2)
    assert waiting.is_alive() and outcome == []  # its event has not reached the page
    page.go.set()
    waiting.join(5)
    assert outcome == [True]
    assert page.received[0][1]["line"] == "before"  # reached the page before the answer
    assert pump.settle()  # nothing put since: at once
    page.go.clear()
    pump.put("agent:log", {"agent": "a", "line": "held"})
    assert not pump.settle(timeout=0.05)  # gave up: the page holds it
    page.go.set()
    pump.stop()
    pump.join()


def test_no_answer_waits_without_a_page_or_after_the_pump_stopped() -> None:
    page = HeldPage()
    pump = EventPump(page.send)
    pump.start()
    pump.put("agent:log", {"agent": "a", "line": "before the page"})
    assert pump.settle() is False  # no page to reach yet: the answer goes as it is
    pump.page_loaded()
    waiting, outcome = settle_in_thread(pump)
    waiting.join(0.2)
    assert waiting.is_alive()
    pump.stop()  # the window closes while the page holds the batch
    waiting.join(5)
    assert outcome == [False]
    page.go.set()
    pump.join()


def test_a_pump_needs_something_to_send_with() -> None:
    with pytest.raises(ValueError, match="nothing to send with"):
        EventPump().start()
