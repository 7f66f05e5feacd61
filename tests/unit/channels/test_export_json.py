"""The JSON export (app/channels/export/json_doc.py): the wire JSON the page receives, read back
by the same models."""

from __future__ import annotations

import json

from pydantic import TypeAdapter

from app.channels.export import json_doc
from app.models.conversation import Channel, Message
from tests.unit.channels.exported import CHANNEL, rich_conversation


def test_a_conversation_round_trips_through_the_models() -> None:
    messages = rich_conversation()
    data = json.loads("".join(json_doc.document(CHANNEL, messages)))
    assert data["format"] == "sidekicks-conversation"
    assert data["version"] == 1
    assert data["exportedAt"].endswith("Z")
    assert Channel.model_validate(data["channel"]) == CHANNEL
    assert TypeAdapter(list[Message]).validate_python(data["messages"]) == messages


def test_fields_have_their_camel_case_wire_names() -> None:
    data = json.loads("".join(json_doc.document(CHANNEL, rich_conversation())))
    assert "createdAt" in data["messages"][0]
    assert data["messages"][4]["stopReason"] == "cancelled"


def test_an_empty_conversation_is_valid_json() -> None:
    data = json.loads("".join(json_doc.document(CHANNEL, [])))
    assert data["messages"] == []
