"""The event bus and the payload models of every SPEC event."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import BaseModel
from pydantic.fields import FieldInfo

from app.events import names
from app.events.bus import EventBus
from app.events.payloads import (
    EVENT_PAYLOADS,
    AgentStateChanged,
    MessageDelta,
    PermissionRequested,
)
from app.models.conversation import Message, Part, ToolCall
from tests.unit.events.spec_events import SpecField, parse_payload, spec_events

SPEC_EVENTS = spec_events()


def test_every_event_named_in_the_spec_has_a_payload_model_and_a_name() -> None:
    assert len(SPEC_EVENTS) == 11  # 3 in SPEC §2, 8 in §4: the copy was read whole
    extensions = set(names.EXTENSION_EVENTS)
    assert not extensions & set(SPEC_EVENTS), "an extension reuses a SPEC event's name"
    assert set(SPEC_EVENTS) | extensions == set(EVENT_PAYLOADS)
    constants = {v for k, v in vars(names).items() if k.isupper() and isinstance(v, str)}
    assert constants == set(SPEC_EVENTS) | extensions


@pytest.mark.parametrize("event", sorted(SPEC_EVENTS))
def test_every_payload_field_of_the_spec_is_a_wire_field_of_the_event_model(event: str) -> None:
    assert_has_fields(EVENT_PAYLOADS[event], SPEC_EVENTS[event], where=event)


def assert_has_fields(model: type[BaseModel], spec: tuple[SpecField, ...], where: str) -> None:
    wire = wire_fields(model)
    missing = [field.name for field in spec if field.name not in wire]
    assert not missing, f"{where}: {model.__name__} lacks the SPEC's fields {missing}"
    for field in spec:
        info = wire[field.name]
        if field.optional:
            assert not info.is_required(), f"{where}.{field.name} is optional in the SPEC"
        if field.fields:
            nested = info.annotation
            assert isinstance(nested, type) and issubclass(nested, BaseModel), nested
            assert_has_fields(nested, field.fields, where=f"{where}.{field.name}")


def wire_fields(model: type[BaseModel]) -> dict[str, FieldInfo]:
    """The model's fields by the name the page receives (the camelCase alias)."""
    return {info.alias or name: info for name, info in model.model_fields.items()}


def test_the_spec_payload_notation_is_read_with_optional_list_and_nested_fields() -> None:
    assert parse_payload("{agent, error?, problems[], usage: {used, size}}") == (
        SpecField("agent", optional=False),
        SpecField("error", optional=True),
        SpecField("problems", optional=False),
        SpecField(
            "usage", optional=False, fields=(SpecField("used", False), SpecField("size", False))
        ),
    )


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
        "askedBySidekicks",
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
