"""Each member's ACP session in a channel: reused while its process lives, resumed with
`session/load` after a restart when the agent can, new otherwise."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from app.acp.updates import PermissionAsked, SessionEvent
from app.channels.registry import ChannelRegistry
from app.channels.state import ChannelState, OpenSession
from app.channels.streaming import Streaming

if TYPE_CHECKING:
    from app.acp.connection import AgentConnection

log = logging.getLogger(__name__)


class SessionRouter:
    """The ACP session handler of one agent in one channel."""

    def __init__(self, streaming: Streaming, channel_id: str, agent: str) -> None:
        self._streaming, self._channel_id, self._agent = streaming, channel_id, agent
        self.loading = False  # session/load replays history: not a new answer

    def on_event(self, event: SessionEvent | PermissionAsked) -> None:
        self._streaming.on_event(self._channel_id, self._agent, event, replay=self.loading)


class Sessions:
    def __init__(self, registry: ChannelRegistry, streaming: Streaming) -> None:
        self._registry = registry
        self._streaming = streaming

    async def open(self, state: ChannelState, agent: str, conn: AgentConnection) -> str:
        """The agent's session for this channel: reused, resumed (session/load) or new."""
        existing = state.sessions.get(agent)
        if existing is not None and existing.conn is conn:
            return existing.session_id
        member = state.member(agent)
        router = SessionRouter(self._streaming, state.id, agent)
        if member.session_id and conn.supports_load:
            router.loading = True
            try:
                await conn.load_session(member.session_id, router)
            except Exception as err:
                log.info("%s could not resume session %s: %s", agent, member.session_id, err)
            else:
                state.sessions[agent] = OpenSession(conn, member.session_id)
                return member.session_id
            finally:
                router.loading = False
        session_id = (await conn.new_session(router)).session_id
        if member.session_id:
            member.last_seen = ""  # a new session knows nothing: give it the latest messages
        member.session_id = session_id
        state.sessions[agent] = OpenSession(conn, session_id)
        self._registry.save(state)
        return session_id
