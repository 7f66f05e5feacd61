"""Each member's ACP session in a channel: reused while its process lives; after a restart
continued with `session/resume` when the agent advertises it (no replay: the conversation has
its history), else `session/load` (its replay ignored), else new; started afresh on request
("New session", issue 17); closed (`session/close`, when advertised) when its conversation is
deleted or the member removed. An agent's own earlier session opens as a new conversation
(app/channels/opened_sessions.py), its replay kept (`Replay`)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from app.acp.elicitation import ElicitationAsked, ElicitationCompleted
from app.acp.updates import PermissionAsked, SessionEvent, SessionTitled, UserText
from app.channels.forked_sessions import open_forked
from app.channels.publishing import Publisher
from app.channels.registry import ChannelRegistry
from app.channels.replay import Replay
from app.channels.session_settings import SessionSettings
from app.channels.state import ChannelState, LiveSession, OpenSession
from app.channels.streaming import Streaming
from app.channels.workspaces import Workspaces
from app.core.errors import UserError
from app.core.tasks import Background
from app.i18n import _
from app.models.conversation import Message, Usage

if TYPE_CHECKING:
    from app.acp.connection import AgentConnection

log = logging.getLogger(__name__)


TitleHandler = Callable[[str, str, str], None]  # channel id, agent, title


class SessionRouter:
    """The ACP session handler of one agent in one channel."""

    def __init__(
        self,
        streaming: Streaming,
        channel_id: str,
        agent: str,
        on_title: TitleHandler | None = None,
    ) -> None:
        self._streaming, self._channel_id, self._agent = streaming, channel_id, agent
        self._on_title = on_title
        self.loading = False  # session/load replays history: not a new answer
        self.replay: Replay | None = None  # set while a replay is kept as messages

    def on_event(
        self, event: SessionEvent | PermissionAsked | ElicitationAsked | ElicitationCompleted
    ) -> None:
        if isinstance(event, ElicitationAsked | ElicitationCompleted):  # never a replay's
            self._streaming.on_elicitation(self._channel_id, self._agent, event)
            return
        if isinstance(event, SessionTitled):
            if event.title is not None and self._on_title is not None:
                self._on_title(self._channel_id, self._agent, event.title)
            return
        if self.replay is not None and not isinstance(event, PermissionAsked):
            self.replay.add(event)
        if isinstance(event, UserText):
            return  # the person's own words: the conversation has them (or the replay keeps them)
        self._streaming.on_event(self._channel_id, self._agent, event, replay=self.loading)


class Sessions:
    def __init__(
        self,
        registry: ChannelRegistry,
        streaming: Streaming,
        settings: SessionSettings,
        workspaces: Workspaces,
        on_title: TitleHandler | None = None,
    ) -> None:
        self.on_title = on_title  # session_info_update titles (app/channels/opened_sessions.py)
        self._registry = registry
        self._workspaces = workspaces
        self._streaming = streaming
        self._settings = settings
        # One opening at a time per channel and agent (a turn and a SetMode may both ask).
        self._opening: dict[tuple[str, str], asyncio.Lock] = {}
        self._background = Background()  # the closes New session leaves running

    def current(self, state: ChannelState, agent: str, conn: AgentConnection) -> str | None:
        """The agent's open session in this channel on this process, if any."""
        existing = state.sessions.get(agent)
        return existing.session_id if existing is not None and existing.conn is conn else None

    async def open(self, state: ChannelState, agent: str, conn: AgentConnection) -> LiveSession:
        """The agent's session for this channel: reused, resumed (session/load) or new."""
        async with self.lock(state.id, agent):
            return LiveSession(state, agent, conn, await self._open(state, agent, conn))

    async def _open(self, state: ChannelState, agent: str, conn: AgentConnection) -> str:
        """The session's id."""
        existing = state.sessions.get(agent)
        if existing is not None and existing.conn is conn:
            return existing.session_id
        member = state.member(agent)
        router = self.router(state.id, agent)
        await self._workspaces.prepare(state.id, agent)  # an isolated member's worktree
        workspace = self._workspaces.for_session(state.id, agent, conn, router)
        if member.session_id and conn.session_support.resume:
            try:
                setup = await conn.own_sessions.resume(member.session_id, router, workspace)
            except Exception as err:
                log.info("%s could not resume session %s: %s", agent, member.session_id, err)
            else:
                state.sessions[agent] = OpenSession(conn, member.session_id)
                self._settings.announced(state, agent, setup)
                return member.session_id
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
        # A fork's member: its source session forked (issue 28), else a new one.
        forked = await open_forked(self._registry, state, agent, conn, router, workspace)
        setup = forked if forked is not None else await conn.new_session(router, workspace)
        session_id = setup.session_id
        if member.session_id:
            member.last_seen = ""  # a new session knows nothing: give it the latest messages
        member.session_id = session_id
        state.sessions[agent] = OpenSession(conn, session_id)
        self._registry.save(state)
        self._settings.announced(state, agent, setup)
        await self._settings.apply_choices(LiveSession(state, agent, conn, session_id))
        return session_id

    async def load_replayed(
        self, state: ChannelState, agent: str, conn: AgentConnection, session_id: str
    ) -> list[Message]:
        """Opens the agent's earlier session `session_id` in `state` with `session/load`,
        its replay made into messages (returned, not yet kept: app/channels/opened_sessions.py)."""
        async with self.lock(state.id, agent):
            router = self.router(state.id, agent)
            router.loading, router.replay = True, Replay(state.id, agent)
            workspace = self._workspaces.for_session(state.id, agent, conn, router)
            try:
                setup = await conn.load_session(session_id, router, workspace)
            finally:
                router.loading = False
            messages, router.replay = router.replay.finished(), None
            state.member(agent).session_id = session_id
            state.sessions[agent] = OpenSession(conn, session_id)
            self._settings.announced(state, agent, setup)
            return messages

    def router(self, channel_id: str, agent: str) -> SessionRouter:
        return SessionRouter(self._streaming, channel_id, agent, self.on_title)

    def lock(self, channel_id: str, agent: str) -> asyncio.Lock:
        """Held while the agent's session in the channel opens."""
        return self._opening.setdefault((channel_id, agent), asyncio.Lock())

    async def close(self, state: ChannelState, agent: str) -> None:
        """ACP `session/close` for the member's open session, when the agent advertises it
        (its conversation is deleted, it leaves, or New session leaves it behind): best
        effort, a few seconds at most."""
        existing = state.sessions.get(agent)
        if existing is not None:
            await self._close_open(agent, existing)

    async def _close_open(self, agent: str, existing: OpenSession) -> None:
        if not existing.conn.connected:
            return
        if not existing.conn.session_support.close:
            return
        try:
            await existing.conn.own_sessions.close(existing.session_id)
        except Exception as err:
            log.info("%s could not close session %s: %s", agent, existing.session_id, err)

    async def close_all(self, state: ChannelState) -> None:
        await asyncio.gather(*(self.close(state, agent) for agent in list(state.sessions)))

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
        for agent in list(state.sessions):  # the agents may free the sessions left behind
            self._background.start(self._close_open(agent, state.sessions[agent]))
        for agent in state.channel.members:
            member = state.member(agent)
            member.session_id, member.last_seen = "", ""
            state.sessions.pop(agent, None)
            if member.usage is not None:
                member.usage = None
                publisher.usage(state, agent, Usage(used=0, size=0))
        self._registry.save(state)

    async def forget(self, state: ChannelState, agent: str) -> None:
        """The member's session is closed and forgotten (its folder changed: isolation,
        issue 28); its next prompt opens a new one, given the latest messages. Called with the
        member's `lock` held."""
        existing = state.sessions.pop(agent, None)
        if existing is not None:
            self._background.start(self._close_open(agent, existing))
        member = state.member(agent)
        member.session_id, member.last_seen = "", ""
        self._registry.save(state)

    def _opening_now(self, state: ChannelState, agent: str) -> bool:
        lock = self._opening.get((state.id, agent))
        return lock is not None and lock.locked()
