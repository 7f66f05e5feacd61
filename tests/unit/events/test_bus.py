"""The event bus and the payload models of every SPEC event."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from app.channels.models import Message, Part, ToolCall
from app.events import names
from app.events.bus import EventBus
from app.events.payloads import (
    EVENT_PAYLOADS,
    AgentStateChanged,
    MessageDelta,
    PermissionRequested,
)

SPEC = Path(__file__).resolve().parents[4] / "shared" / "SPEC.md"


def test_every_event_named_in_the_spec_has_a_payload_model() -> None:
    spec_events = set(re.findall(r"^\| `([a-z]+:[a-z]+)` \|", SPEC.read_text(), re.MULTILINE))
    assert len(spec_events) == 11
    assert spec_events == set(EVENT_PAYLOADS)
    constants = {v for k, v in vars(names).items() if k.isupper()}
    assert constants == spec_events


def test_payload_fields_are_the_spec_names_in_camel_case() -> None:
    delta = MessageDelta(channel="c", message_id="m", index=0, kind="text", text="hi")
    assert delta.wire() == {
        "channel": "c", "messageId": "m", "index": 0, "kind": "text", "text": "hi", "part": None,
    }  # fmt: skip
    request = PermissionRequested(
        id="p", channel="c", agent="a", message_id="m", tool_call=ToolCall(id="t"), options=[]
    )
    assert set(request.wire()) == {
        "id", "channel", "agent", "messageId", "toolCall", "options", "rejections",
    }  # fmt: skip
    message = Message(id="m", channel="c", created_at="t", role="agent", parts=[Part(kind="text")])
    assert {"createdAt", "stopReason", "queued", "done", "code"} <= set(message.wire())


def test_subscribers_get_every_event_in_order_as_json() -> None:
    bus = EventBus()
    seen: list[tuple[str, dict[str, Any]]] = []
    bus.subscribe(lambda name, payload: seen.append((name, payload)))
    for state in ("starting", "ready", "busy"):
        bus.emit(names.AGENT_STATE, AgentStateChanged(agent="demo", state=state))  # type: ignore[arg-type]
    assert [p["state"] for _, p in seen] == ["starting", "ready", "busy"]
    assert seen[0] == ("agent:state", {"agent": "demo", "state": "starting", "error": None})


def test_a_failing_subscriber_does_not_stop_the_others() -> None:
    bus = EventBus()
    seen: list[str] = []

    def broken(name: str, payload: dict[str, Any]) -> None:
        raise RuntimeError("boom")

    bus.subscribe(broken)
    bus.subscribe(lambda name, payload: seen.append(name))
    bus.emit(names.AGENT_STATE, AgentStateChanged(agent="demo", state="ready"))
    assert seen == ["agent:state"]


def test_unsubscribe_stops_delivery() -> None:
    bus = EventBus()
    seen: list[str] = []
    unsubscribe = bus.subscribe(lambda name, payload: seen.append(name))
    unsubscribe()
    bus.emit(names.AGENT_STATE, AgentStateChanged(agent="demo", state="ready"))
    assert seen == []


def test_an_event_with_the_wrong_payload_is_refused() -> None:
    bus = EventBus()
    with pytest.raises(TypeError, match="agent:log"):
        bus.emit(names.AGENT_LOG, AgentStateChanged(agent="demo", state="ready"))
