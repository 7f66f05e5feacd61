"""Each member's ACP session in a channel: reused while its process lives, resumed with
`session/load` after a restart when the agent can, new otherwise."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from app.acp.updates import PermissionAsked, SessionEvent
from app.channels.registry import ChannelRegistry
from app.channels.session_settings import SessionSettings
from app.channels.state import ChannelState, OpenSession
from app.channels.streaming import Streaming
from app.channels.workspaces import Workspaces

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
    def __init__(
        self,
        registry: ChannelRegistry,
        streaming: Streaming,
        settings: SessionSettings,
        workspaces: Workspaces,
    ) -> None:
        self._registry = registry
        self._workspaces = workspaces
        self._streaming = streaming
        self._settings = settings
        # One opening at a time per channel and agent (a turn and a SetMode may both ask).
        self._opening: dict[tuple[str, str], asyncio.Lock] = {}

    def current(self, state: ChannelState, agent: str, conn: AgentConnection) -> str | None:
        """The agent's open session in this channel on this process, if any."""
        existing = state.sessions.get(agent)
        return existing.session_id if existing is not None and existing.conn is conn else None

    async def open(self, state: ChannelState, agent: str, conn: AgentConnection) -> str:
        """The agent's session for this channel: reused, resumed (session/load) or new."""
        lock = self._opening.setdefault((state.id, agent), asyncio.Lock())
        async with lock:
            return await self._open(state, agent, conn)

    async def _open(self, state: ChannelState, agent: str, conn: AgentConnection) -> str:
        existing = state.sessions.get(agent)
        if existing is not None and existing.conn is conn:
            return existing.session_id
        member = state.member(agent)
        router = SessionRouter(self._streaming, state.id, agent)
        workspace = self._workspaces.for_session(state.id, agent, conn, router)
        if member.session_id and conn.supports_load:
            router.loading = True
            try:
                setup = await conn.load_session(member.session_id, router, workspace)
            except Exception as err:
                log.info("%s could not resume session %s: %s", agent, member.session_id, err)
            else:
                state.sessions[agent] = OpenSession(conn, member.session_id)
                self._settings.announced(state, agent, setup)  # its restored state, as is
                return member.session_id
            finally:
                router.loading = False
        setup = await conn.new_session(router, workspace)
        session_id = setup.session_id
        if member.session_id:
            member.last_seen = ""  # a new session knows nothing: give it the latest messages
        member.session_id = session_id
        state.sessions[agent] = OpenSession(conn, session_id)
        self._registry.save(state)
        self._settings.announced(state, agent, setup)
        await self._settings.apply_choices(state, agent, conn, session_id)
        return session_id
