"""ChannelService (SPEC §4 `ChannelService`), as the page calls it: the SPEC's methods and what
belongs to a conversation. The extensions have services of their own features: SessionService,
AttachmentService (app/channels), ExportService (app/channels/export), SearchService
(app/search), ChangesService (app/workspace), InboxService (app/inbox)."""

from __future__ import annotations

import asyncio
import logging

from app.channels.parts import ChannelParts
from app.channels.reading import Conversation, Page, read_conversation, read_older
from app.channels.resending import find_kept
from app.core.expose import exposed
from app.core.loop import LoopThread
from app.models.conversation import Channel, Command
from app.models.elicitation import ElicitationValue
from app.models.wire import WireJson

log = logging.getLogger(__name__)

# Delete and Cancel wait for the agent to stop answering (an agent ignoring cancel: ~10 s);
# Prepare may start agents (30 s handshake each, in parallel) and open their sessions.
STOP_TIMEOUT = 20.0
PREPARE_TIMEOUT = 180.0


class ChannelService:
    def __init__(self, parts: ChannelParts, core: LoopThread) -> None:
        self._core = core
        self._supervisor = parts.supervisor
        self._registry = parts.registry
        self._publisher = parts.publisher
        self._membership = parts.membership
        self._turns = parts.turns
        self._sessions = parts.sessions
        self._opened = parts.opened
        self._permissions = parts.permissions
        self._elicitations = parts.elicitations
        self._rules = parts.rules
        self._commands = parts.commands
        self._attachments = parts.attachments
        self._terminals = parts.terminals

    @exposed
    def List(self) -> list[Channel]:
        """All channels and direct conversations, oldest to newest. Read as last published,
        without waiting for the core loop (app/channels/publishing.py `channel_list`)."""
        return self._publisher.channel_list()

    @exposed
    def Create(self, name: str, description: str = "", members: list[str] | None = None) -> Channel:
        """Creates a channel; a name already taken (ignoring case) or empty is an error.
        Extension (issue 17): `members` are invited at once (each shows `agent-joined`)."""
        return self._core.call(lambda: self._membership.create(name, description, members or []))

    @exposed
    def Rename(self, id: str, name: str, description: str = "") -> Channel:
        """Renames a channel; a direct conversation's `name` is its title (issue 28)."""
        return self._core.call(lambda: self._membership.rename(id, name, description))

    @exposed
    def Delete(self, id: str) -> None:
        """Stops its answers, then deletes the channel and all its history."""
        self._core.run(self._delete(id), timeout=STOP_TIMEOUT)

    async def _delete(self, channel_id: str) -> None:
        state = self._registry.get(channel_id)
        await self._turns.stop_channel(state)
        await self._sessions.close_all(state)  # session/close, when the agents advertise it
        self._registry.remove(state)
        self._attachments.delete_channel(state.id)
        self._publisher.channels()

    @exposed
    def AddMember(self, id: str, agent: str) -> Channel:
        """Invites an agent; the channel shows `agent-joined`."""
        return self._core.call(lambda: self._membership.add_member(id, agent))

    @exposed
    def RemoveMember(self, id: str, agent: str) -> Channel:
        """Removes an agent; the channel shows `agent-left`."""
        return self._core.run(self._remove_member(id, agent), timeout=STOP_TIMEOUT)

    async def _remove_member(self, channel_id: str, agent: str) -> Channel:
        state = self._membership.check_leaving(channel_id, agent)
        state.due = [a for a in state.due if a != agent]
        if state.answering_agent(agent):
            await self._turns.cancel_answer(state)
        await self._terminals.close_member(state.id, agent)
        await self._sessions.close(state, agent)  # session/close, when the agent advertises it
        self._membership.leave(state, agent)
        return state.channel

    @exposed
    def Direct(self, agent: str) -> Channel:
        """The direct conversation with `agent`, created the first time."""
        return self._core.call(lambda: self._membership.direct(agent))

    @exposed
    def NewConversation(self, agent: str) -> Channel:
        """Extension (issue 28): another direct conversation with `agent`, the newest
        (app/channels/conversations.py); `Direct` stays the oldest."""
        membership = self._membership
        return self._core.call(lambda: membership.conversations.new(membership.agent(agent)))

    @exposed
    def Send(self, id: str, text: str, attachments: list[str] | None = None) -> str:
        """Adds a user message and returns its id; it waits (queued) if the channel answers.
        Extension: `attachments` are ids from AttachFile/AttachImage, sent with the text."""
        return self._core.call(lambda: self._send(id, text, attachments or []))

    def _send(self, channel_id: str, text: str, attachment_ids: list[str]) -> str:
        state = self._registry.get(channel_id)
        attachments = self._attachments.staged(channel_id, attachment_ids)
        message_id = self._turns.send(state, text, attachments)
        self._attachments.taken(channel_id, attachments)
        self._membership.conversations.sent(state, text)  # its title, its last activity
        return message_id

    @exposed
    def Cancel(self, id: str) -> None:
        """Stops the current answer, the agents still due and the queued messages."""
        self._core.run(self._cancel(id), timeout=STOP_TIMEOUT)

    async def _cancel(self, channel_id: str) -> None:
        await self._turns.cancel(self._registry.get(channel_id))

    @exposed
    def AnswerPermission(self, id: str, optionId: str) -> None:
        """Answers a pending permission request with one of its options."""
        self._core.call(lambda: self._answer_permission(id, optionId))

    def _answer_permission(self, request_id: str, option_id: str) -> None:
        request, kind = self._permissions.answer(request_id, option_id)
        state = self._registry.find(request.channel)
        if state is None:
            return
        if kind.startswith("reject"):
            state.scope.rejections += 1
        turn = state.answering_agent(request.agent)
        if turn is not None:  # its card says "rejected" (not "failed") after a reject
            for delta in turn.answer.answered(request.tool_call.id, kind.startswith("reject")):
                self._publisher.delta(delta)
        self._publisher.permissions_resolved(state, [request.id])
        if kind == "allow_always":
            self._rules.given(request)  # kept after the answer: a failed write loses no answer

    @exposed
    def AnswerElicitation(
        self, id: str, action: str, content: dict[str, ElicitationValue] | None = None
    ) -> None:
        """Extension (issue 26): answers an agent's question (`elicitation:requested`):
        `accept` with the form's content (checked against its fields first; none in url mode),
        `decline` or `cancel`."""
        self._core.call(lambda: self._elicitations.answer(id, action, content))

    @exposed
    def Conversation(self, id: str) -> WireJson[Conversation]:
        """The channel, its last 100 messages and whether there are more, its turn, usage and
        pending permission requests."""
        return read_conversation(self._publisher, id)  # on this thread: app/channels/reading.py

    @exposed
    def Older(self, id: str, beforeId: str) -> WireJson[Page]:
        """The 100 messages before `beforeId`."""
        return read_older(self._publisher, id, beforeId)

    @exposed
    def Commands(self, agent: str) -> list[Command]:
        """The agent's last announced slash commands, kept from one launch to the next."""
        return self._core.call(lambda: self._commands.of(self._membership.agent(agent)))

    @exposed
    def Prepare(self, id: str) -> None:
        """Starts the members that never announced commands and opens their sessions."""
        self._core.run(self._prepare(id), timeout=PREPARE_TIMEOUT)

    async def _prepare(self, channel_id: str) -> None:
        state = self._registry.get(channel_id)
        todo = [
            agent
            for agent in state.channel.members
            if agent in self._supervisor.names()
            and not self._commands.of(self._membership.agent(agent))
            and not self._turns.agent_lock(agent).locked()
        ]

        async def prepare_member(agent: str) -> None:
            try:
                conn = await self._supervisor.start(agent)
                await self._sessions.open(state, agent, conn)
            except Exception as err:
                log.info("could not prepare %s: %s", agent, err)

        await asyncio.gather(*(prepare_member(a) for a in todo))

    @exposed
    def Resend(self, id: str, messageId: str) -> str:
        """Extension: sends a user message again (also one dropped by Stop), or for an agent's
        answer the user message it answered, to that agent only; the new message's id."""
        # Dropped or still queued: known on the loop. Otherwise from history, read off the loop
        # (app/channels/resending.py).
        sent = self._core.call(lambda: self._turns.resend(self._registry.get(id), messageId))
        if sent:
            return sent
        kept = find_kept(self._publisher, id, messageId)
        return self._core.call(lambda: self._turns.resend(self._registry.get(id), messageId, kept))

    @exposed
    def OpenSession(self, agent: str, sessionId: str) -> Channel:
        """Extension (issue 26): opens one of the agent's own sessions (AgentService.Sessions)
        as a new conversation, its history replayed by `session/load` and kept; the
        conversation already holding that session if there is one
        (app/channels/opened_sessions.py)."""
        return self._core.run(self._open_session(agent, sessionId), timeout=PREPARE_TIMEOUT)

    async def _open_session(self, agent: str, session_id: str) -> Channel:
        name = self._membership.agent(agent)
        held = self._opened.holding(name, session_id)
        if held is not None:
            return held
        return await self._opened.open(name, await self._supervisor.start(name), session_id)

    @exposed
    def NewSession(self, id: str) -> None:
        """Extension: the members start new ACP sessions; a `new-session` divider is added and
        what came before it is not sent to them again. Refused while the channel answers."""
        self._core.call(
            lambda: self._sessions.start_afresh(self._registry.get(id), self._publisher)
        )
