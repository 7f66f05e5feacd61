"""Channels and messages for history tests, and the two implementations side by side."""

from __future__ import annotations

from pathlib import Path

from app.core.ids import new_id
from app.history.base import History, MemberSession, StoredChannel
from app.history.lmdb_store import LmdbHistory
from app.history.memory import MemoryHistory
from app.models.conversation import Channel, Diff, Location, Message, Part, PlanEntry, ToolCall

KINDS = ("memory", "lmdb")
_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


def make_history(kind: str, folder: Path) -> History:
    return MemoryHistory() if kind == "memory" else LmdbHistory(folder)


def adjacent_ids(count: int) -> list[str]:
    """`count` ids that follow each other with nothing in between (same first 25 characters,
    consecutive last character): neighbours as close as keys can be."""
    base = new_id()[:25]
    return [base + _ALPHABET[index] for index in range(count)]


def stored_channel(
    channel_id: str | None = None,
    name: str = "",
    last_responder: str = "",
    sessions: dict[str, MemberSession] | None = None,
) -> StoredChannel:
    channel_id = new_id() if channel_id is None else channel_id
    channel = Channel(id=channel_id, name=name, members=["alpha", "beta"])
    return StoredChannel(channel=channel, last_responder=last_responder, sessions=sessions or {})


def text_message(channel_id: str, text: str, message_id: str | None = None) -> Message:
    return Message(
        id=new_id() if message_id is None else message_id,
        channel=channel_id,
        created_at="2025-01-02T03:04:05.678Z",
        role="user",
        parts=[Part(kind="text", text=text)],
    )


def add_messages(history: History, channel_id: str, count: int) -> list[Message]:
    messages = [text_message(channel_id, f"message {index}") for index in range(count)]
    for message in messages:
        history.add_message(message)
    return messages


def rich_message(channel_id: str) -> Message:
    """A message using every field and part kind, with text that JSON must escape."""
    tool = ToolCall(
        id="call-1",
        title="Edit main.py",
        kind="edit",
        status="completed",
        input='{"path": "main.py"}',
        output="done\n",
        locations=[Location(path="main.py", line=3), Location(path="README.md")],
        diffs=[Diff(path="main.py", old_text="a\n", new_text="b\n"), Diff(path="n", new_file=True)],
    )
    return Message(
        id=new_id(),
        channel=channel_id,
        created_at="2025-01-02T03:04:05.678Z",
        role="agent",
        agent="alpha",
        parts=[
            Part(kind="thought", text='Let me think… "quoted" \\ back\u2028slash'),
            Part(kind="text", text="Voilà: **done** 🎉\n```py\nprint('\\x00')\n```\u0000"),
            Part(kind="tool", tool=tool),
            Part(
                kind="plan", plan=[PlanEntry(content="step", status="completed", priority="high")]
            ),
        ],
        stop_reason="max_tokens",
        error="ran out of tokens",
    )


def ids(messages: list[Message]) -> list[str]:
    return [message.id for message in messages]
