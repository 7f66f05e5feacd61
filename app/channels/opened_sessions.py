"""One of the agent's own sessions opened as a conversation (ChannelService.OpenSession), and the
titles agents give their sessions (`session_info_update`).

Choice: an opened session becomes a NEW channel with the agent as its only member (not the
agent's direct conversation, which has a session of its own): named after the session's title
(or "<agent> session <id>"), made unique. Its history is what `session/load` replays, kept like
any other messages (searchable, exported), after the `agent-joined` line. Opening a session that
a conversation already holds gives that conversation.

A title names the conversation when the conversation was opened from the agent's session
(`StoredChannel.titled_by`): its name follows the agent's title. The person's own channels keep
their names (the title is only logged there); a direct conversation takes it as its title unless
the person chose one (app/channels/conversations.py).
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from app.acp.errors import describe_error
from app.channels.membership import CHANNEL_NAME_MAX, Membership
from app.channels.publishing import Publisher
from app.channels.registry import ChannelRegistry
from app.channels.sessions import Sessions
from app.core.errors import UserError
from app.i18n import _
from app.models.conversation import Channel

if TYPE_CHECKING:
    from app.acp.connection import AgentConnection
    from app.acp.sessions_list import ListedSession

log = logging.getLogger(__name__)


class OpenedSessions:
    def __init__(
        self,
        registry: ChannelRegistry,
        publisher: Publisher,
        membership: Membership,
        sessions: Sessions,
    ) -> None:
        self._registry, self._publisher = registry, publisher
        self._membership, self._sessions = membership, sessions
        sessions.on_title = self.titled
        self._locks: dict[tuple[str, str], asyncio.Lock] = {}

    def holding(self, agent: str, session_id: str) -> Channel | None:
        """The conversation where the agent's session `session_id` is already open, if any."""
        for state in self._registry.states.values():
            member = state.stored.sessions.get(agent)
            if agent in state.channel.members and member and member.session_id == session_id:
                return state.channel
        return None

    async def open(self, agent: str, conn: AgentConnection, session_id: str) -> Channel:
        """A new conversation with the agent's session `session_id`, its history replayed."""
        if not session_id:
            raise UserError(_("a session id is required"))
        lock = self._locks.setdefault((agent, session_id), asyncio.Lock())
        try:
            async with lock:  # the same session asked twice at once opens once
                held = self.holding(agent, session_id)
                return held if held is not None else await self._open(agent, conn, session_id)
        finally:
            if not lock.locked():
                self._locks.pop((agent, session_id), None)

    async def _open(self, agent: str, conn: AgentConnection, session_id: str) -> Channel:
        if not conn.supports_load:
            raise UserError(
                _("{agent} cannot open its earlier sessions (it does not load sessions)").format(
                    agent=f"`{agent}`"
                )
            )
        listed = await self._listed(conn, session_id)
        title = listed.title if listed else ""
        name = self.unique_name(
            title or _("{agent} session {id}").format(agent=agent, id=session_id[:8])
        )
        channel = self._membership.create(name, "", [agent])
        state = self._registry.get(channel.id)
        state.stored.titled_by = agent
        try:
            messages = await self._sessions.load_replayed(state, agent, conn, session_id)
        except Exception as err:
            log.info("%s could not load session %s: %s", agent, session_id, err)
            self._registry.remove(state)
            self._publisher.channels()
            raise UserError(
                _("{agent} could not open that session: {error}").format(
                    agent=f"`{agent}`", error=describe_error(err)
                )
            ) from None
        for message in messages:
            self._registry.keep(message)
        member = state.member(agent)
        if messages:
            member.last_seen = messages[-1].id  # the agent said or heard all of it
        state.stored.last_responder = agent
        self._registry.save(state)
        self._publisher.channels()
        return state.channel

    async def _listed(self, conn: AgentConnection, session_id: str) -> ListedSession | None:
        """The session as the agent lists it (for its title), if it lists sessions."""
        if not conn.session_support.list:
            return None
        try:
            found = await conn.own_sessions.list()
        except Exception as err:
            log.info("could not list the sessions: %s", err)
            return None
        return next((s for s in found if s.session_id == session_id), None)

    def titled(self, channel_id: str, agent: str, title: str) -> None:
        """`session_info_update`: the agent's title for its session in this channel."""
        state = self._registry.find(channel_id)
        if state is None or not title:
            return
        if state.channel.direct == agent:  # the conversation's title (issue 28)
            self._membership.conversations.titled(state, title)
            return
        if state.stored.titled_by != agent:
            log.info("%s titled its session in %s: %s", agent, channel_id, title)
            return
        name = self.unique_name(title, skip=state.id)
        if name != state.channel.name:
            state.channel.name = name
            self._registry.save(state)
            self._publisher.channels()

    def unique_name(self, title: str, skip: str = "") -> str:
        """`title` as a channel name: one line, at most CHANNEL_NAME_MAX characters, and not
        taken (ignoring case) by another channel — " (2)", " (3)", … added if it is."""
        base = " ".join(title.split())[:CHANNEL_NAME_MAX].strip() or "session"
        taken = {
            s.channel.name.lower()
            for s in self._registry.states.values()
            if s.id != skip and not s.channel.direct
        }
        name, n = base, 1
        while name.lower() in taken:
            n += 1
            suffix = f" ({n})"
            name = base[: CHANNEL_NAME_MAX - len(suffix)].rstrip() + suffix
        return name
