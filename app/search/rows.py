"""What the index keeps of a message: from a `Message` (as it is stored live) or from a stored
record (as a rebuild reads them, decoded as plain JSON: no models for a million records)."""

from __future__ import annotations

from typing import Any

import pydantic_core

from app.models.conversation import Message
from app.search.store import Row

# The note standing in for a damaged record (app/history/record_checks.py) is not a message.
_NOTE_ID_START = "damaged-"


def indexed_text(parts: list[dict[str, Any]]) -> str:
    """What a message is found by: its text parts (the person's words, the agent's answer)
    and its tool calls' titles ("Edit main.py": a file is found by name). Not thoughts (an
    agent's scratch, often long and repetitive), tool output, diffs or plans. A system line
    with a code (agent-joined…) has no text and is not indexed."""
    pieces = []
    for part in parts:
        kind = part.get("kind")
        if kind == "text" and part.get("text"):
            pieces.append(str(part["text"]))
        elif kind == "tool":
            title = (part.get("tool") or {}).get("title")
            if title:
                pieces.append(str(title))
    return "\n\n".join(pieces)


def message_row(message: Message) -> Row:
    parts = [
        {"kind": p.kind, "text": p.text, "tool": {"title": p.tool.title} if p.tool else None}
        for p in message.parts
    ]
    return Row(
        message.id,
        message.channel,
        message.agent,
        message.role,
        message.created_at,
        indexed_text(parts),
    )


def record_row(record: bytes) -> Row | None:
    """None for what is not a message (a damaged record's note)."""
    data = pydantic_core.from_json(record)  # a quarter of json.loads' time
    if str(data.get("id", "")).startswith(_NOTE_ID_START):
        return None
    return Row(
        data["id"],
        data["channel"],
        data.get("agent", ""),
        data.get("role", "user"),
        data.get("createdAt", ""),
        indexed_text(data.get("parts") or []),
    )
