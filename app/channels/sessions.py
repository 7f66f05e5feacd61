"""Each member's ACP session in a channel: reused while its process lives, resumed with
`session/load` after a restart when the agent can, new otherwise; started afresh on request
("New session", issue 17)."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from app.acp.updates import PermissionAsked, SessionEvent
from app.channels.publishing import Publisher
from app.channels.registry import ChannelRegistry
from app.channels.session_settings import SessionSettings
from app.channels.state import ChannelState, LiveSession, OpenSession
from app.channels.streaming import Streaming
from app.channels.workspaces import Workspaces
from app.core.errors import UserError
from app.i18n import _
from app.models.conversation import Usage

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

    async def open(self, state: ChannelState, agent: str, conn: AgentConnection) -> LiveSession:
        """The agent's session for this channel: reused, resumed (session/load) or new."""
        lock = self._opening.setdefault((state.id, agent), asyncio.Lock())
        async with lock:
            return LiveSession(state, agent, conn, await self._open(state, agent, conn))

    async def _open(self, state: ChannelState, agent: str, conn: AgentConnection) -> str:
        """The session's id."""
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
        await self._settings.apply_choices(LiveSession(state, agent, conn, session_id))
        return session_id

    def start_afresh(self, state: ChannelState, publisher: Publisher) -> None:
        """Starts the members afresh ("New session"): each one's session is forgotten (the
        next prompt opens a new one, the person's chosen mode and options applied again; the
        agents' processes go on), its usage meter goes (size 0), and a `new-session` divider
        is kept: what came before it is not sent again (app/channels/context.py), to these
        members or to later ones. Refused during an answer: Stop it first."""
        if state.busy:
            raise UserError(_("Stop the answer first: a new session starts between answers"))
        if any(self._opening_now(state, agent) for agent in state.channel.members):
            raise UserError(_("An agent is opening its session: try again in a moment"))
        publisher.system(state, "new-session", "")
        for agent in state.channel.members:
            member = state.member(agent)
            member.session_id, member.last_seen = "", ""
            state.sessions.pop(agent, None)
            if member.usage is not None:
                member.usage = None
                publisher.usage(state, agent, Usage(used=0, size=0))
        self._registry.save(state)

    def _opening_now(self, state: ChannelState, agent: str) -> bool:
        lock = self._opening.get((state.id, agent))
        return lock is not None and lock.locked()
