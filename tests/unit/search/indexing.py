"""Messages, histories and indexes for the search tests."""

from __future__ import annotations

from itertools import count

from app.core.ids import new_id
from app.history.base import History
from app.models.conversation import Message, Part, Role, ToolCall
from app.search.index import SearchIndex
from tests.waiting import wait_for

_clock = count(1)


def said(
    channel: str,
    text: str,
    role: Role = "user",
    agent: str = "",
    message_id: str | None = None,
    parts: list[Part] | None = None,
) -> Message:
    """A message created one second after the previous one (so newest first is known)."""
    second = next(_clock)
    return Message(
        id=message_id or new_id(),
        channel=channel,
        created_at=f"2025-03-{1 + second // 86400:02d}T{second // 3600 % 24:02d}:"
        f"{second // 60 % 60:02d}:{second % 60:02d}.000Z",
        role=role,
        agent=agent,
        parts=parts if parts is not None else [Part(kind="text", text=text)],
    )


def keep(history: History, index: SearchIndex, message: Message) -> Message:
    """As the registry keeps a message: stored, then indexed."""
    history.add_message(message)
    index.add(message)
    return message


def settled(index: SearchIndex) -> SearchIndex:
    wait_for(lambda: not index.indexing, timeout=20, what="the index caught up")
    return index


def found(index: SearchIndex, query: str, channel: str = "", limit: int = 50) -> list[str]:
    """The ids of the messages found, newest first."""
    return [hit.message_id for hit in index.search(query, channel, limit).results]


def tool_part(title: str) -> Part:
    return Part(kind="tool", tool=ToolCall(id=new_id(), title=title, kind="edit"))
