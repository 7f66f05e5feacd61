"""A channel's run-time state on the core loop: its record, its queue and its current turn."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from app.history.base import MemberSession, StoredChannel
from app.models.conversation import Channel, Handoff, Message, Usage
from app.models.sessions import MemberSession as SessionOffer
from app.workspace.answer_watch import AnswerWatch

if TYPE_CHECKING:
    from app.acp.connection import AgentConnection
    from app.channels.answer import Answer


@dataclass
class OpenSession:
    conn: AgentConnection  # a session belongs to one process of the agent
    session_id: str


class CancelScope:
    """The answers to one user message: cancelled by Stop, and abandoned when an agent has
    ignored the cancel for too long (its answer is then left behind)."""

    def __init__(self) -> None:
        self._cancelled = asyncio.Event()
        self._abandoned = asyncio.Event()
        self.rejections = 0  # permission requests rejected during these answers

    @property
    def cancelled(self) -> bool:
        return self._cancelled.is_set()

    def cancel(self) -> None:
        self._cancelled.set()

    def abandon(self) -> None:
        self._abandoned.set()

    async def wait_cancelled(self) -> None:
        await self._cancelled.wait()

    async def wait_abandoned(self) -> None:
        await self._abandoned.wait()


@dataclass
class ActiveTurn:
    """The answer being streamed: whose, through which connection and session."""

    agent: str
    answer: Answer
    conn: AgentConnection
    session_id: str
    watch: AnswerWatch | None = None  # its folders' checkpoints (app/workspace/checkpointing.py)


@dataclass
class ChannelState:
    stored: StoredChannel
    queue: list[Message] = field(default_factory=list)
    worker: asyncio.Task[None] | None = None
    due: list[str] = field(default_factory=list)  # agents still to answer the current message
    answering: str = ""  # whose turn it is, also while waiting for another channel
    handoff: Handoff | None = None  # that turn is this hand-off (issue 28)
    scope: CancelScope = field(default_factory=CancelScope)
    turn: ActiveTurn | None = None
    closing: bool = False  # deleted, or the app closes: an interrupted answer is not kept
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

    def answering_agent(self, agent: str) -> ActiveTurn | None:
        """The active turn, if it is `agent`'s."""
        turn = self.turn
        return turn if turn is not None and turn.agent == agent else None

    def member(self, agent: str) -> MemberSession:
        return self.stored.sessions.setdefault(agent, MemberSession())

    def queue_view(self) -> list[Message]:
        """The user messages waiting for the current answers to finish."""
        return [m for m in self.queue if m.queued]

    def usage(self) -> dict[str, Usage]:
        return {a: s.usage for a, s in self.stored.sessions.items() if s.usage is not None}

    def offers(self) -> dict[str, SessionOffer]:
        """What each member's session offers and is set to, as last known (copies: a view
        built from them must not change afterwards)."""
        members = self.channel.members
        return {
            agent: member.offer.model_copy(deep=True)
            for agent, member in self.stored.sessions.items()
            if member.offer is not None and agent in members
        }


@dataclass(frozen=True, eq=False)
class LiveSession:
    """A member's open session in a channel: what a mode, an option or a new session's
    choices are sent through (these four travel together)."""

    state: ChannelState
    agent: str
    conn: AgentConnection  # the agent's process the session belongs to
    session_id: str
