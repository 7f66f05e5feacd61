"""A channel's run-time state on the core loop: its record, its queue and its current turn."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from app.events.payloads import PermissionRequested
from app.history.base import MemberSession, StoredChannel
from app.models.conversation import Channel, Message, Usage

if TYPE_CHECKING:
    from app.acp.connection import AgentConnection
    from app.channels.answer import Answer


@dataclass
class OpenSession:
    conn: AgentConnection  # a session belongs to one process of the agent
    session_id: str


@dataclass
class PendingPermission:
    request: PermissionRequested  # as the page was sent it
    future: asyncio.Future[str | None]  # the option id, or None for cancelled


@dataclass
class ChannelState:
    stored: StoredChannel
    queue: list[Message] = field(default_factory=list)
    worker: asyncio.Task[None] | None = None
    due: list[str] = field(default_factory=list)  # agents still to answer the current message
    answering: str = ""
    answer: Answer | None = None
    answer_agent: str = ""
    answer_conn: AgentConnection | None = None
    answer_session: str = ""
    cancelled: bool = False
    closing: bool = False  # deleted, or the app closes: an interrupted answer is not kept
    abandon: asyncio.Event = field(default_factory=asyncio.Event)
    cancel_event: asyncio.Event = field(default_factory=asyncio.Event)  # set by Cancel
    rejections: int = 0
    sessions: dict[str, OpenSession] = field(default_factory=dict)
    # Finished messages shown while an answer streams (a member added or removed): kept after
    # that answer, so history has them in the order the page showed them.
    held: list[Message] = field(default_factory=list)

    @property
    def channel(self) -> Channel:
        return self.stored.channel

    @property
    def id(self) -> str:
        return self.stored.channel.id

    @property
    def busy(self) -> bool:
        return self.worker is not None and not self.worker.done()

    def member(self, agent: str) -> MemberSession:
        return self.stored.sessions.setdefault(agent, MemberSession())

    def queue_view(self) -> list[Message]:
        """The user messages waiting for the current answers to finish."""
        return [m for m in self.queue if m.queued]

    def usage(self) -> dict[str, Usage]:
        return {a: s.usage for a, s in self.stored.sessions.items() if s.usage is not None}
