"""Each member's file access in a channel (issue 15): the `SessionWorkspace` a session is
opened with, and the conversation side it needs — the answer a write belongs to, the
permission prompt for a write outside the agent's folders, the conflict notices."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from app.acp.updates import PermissionAsked, PermissionChoice, ToolChange, ToolLocation
from app.agents.supervisor import Supervisor
from app.channels.publishing import Publisher, new_message
from app.channels.registry import ChannelRegistry
from app.core.ids import new_id
from app.i18n import _
from app.paths import resolve_cwd
from app.workspace.changes import ChangeLog
from app.workspace.roots import Roots
from app.workspace.session_workspace import SessionWorkspace, Terminals

if TYPE_CHECKING:
    from app.acp.connection import AgentConnection
    from app.channels.sessions import SessionRouter

ALLOW, REJECT = "allow", "reject"
# The member's commands (channel id, agent, its connection) -> its Terminals (terminal_hub.py).
TerminalsFor = Callable[[str, str, "AgentConnection"], Terminals]


class ConversationHost:
    """`WorkspaceHost` for one agent in one channel."""

    def __init__(
        self,
        registry: ChannelRegistry,
        publisher: Publisher,
        router: SessionRouter,
        channel_id: str,
        agent: str,
    ) -> None:
        self._registry, self._publisher, self._router = registry, publisher, router
        self._channel_id, self._agent = channel_id, agent

    def answer_message_id(self) -> str:
        state = self._registry.find(self._channel_id)
        turn = state.answering_agent(self._agent) if state is not None else None
        return turn.answer.message.id if turn is not None else ""

    async def allow_outside_write(self, path: Path) -> bool:
        """A permission request in the conversation, as if the agent had asked it (the
        channel's usual machinery: shown on the answer, cancelled by Stop); no answer in
        progress means no one to ask: refused."""
        reply: asyncio.Future[str | None] = asyncio.get_running_loop().create_future()
        tool = ToolChange(
            tool_call_id=f"write-outside-{new_id()}",
            started=True,
            title=_("Write outside the workspace: {path}").format(path=path),
            kind="edit",
            status="pending",
            locations=(ToolLocation(path=str(path)),),
        )
        options = (
            PermissionChoice(ALLOW, _("Allow once"), "allow_once"),
            PermissionChoice(REJECT, _("Reject"), "reject_once"),
        )
        self._router.on_event(PermissionAsked(tool=tool, options=options, reply=reply))
        allowed = await reply == ALLOW
        self._router.on_event(
            ToolChange(tool_call_id=tool.tool_call_id, status="completed" if allowed else "failed")
        )
        return allowed

    def conflict_notice(self, text: str) -> None:
        """A system message, kept after the answer being streamed (like publisher.system)."""
        state = self._registry.find(self._channel_id)
        if state is None:
            return
        message = new_message(state.id, "system", agent=self._agent, error=text)
        if state.turn is not None:
            state.held.append(message)
        else:
            self._registry.keep(message)
        self._publisher.message(message)


class Workspaces:
    def __init__(
        self,
        registry: ChannelRegistry,
        publisher: Publisher,
        supervisor: Supervisor,
        changes: ChangeLog,
        terminals: TerminalsFor | None = None,
    ) -> None:
        """Without `terminals`, the agents' terminal requests are refused."""
        self._registry, self._publisher = registry, publisher
        self._supervisor = supervisor
        self.changes = changes
        self.terminals = terminals

    def for_session(
        self, channel_id: str, agent: str, conn: AgentConnection, router: SessionRouter
    ) -> SessionWorkspace:
        host = ConversationHost(self._registry, self._publisher, router, channel_id, agent)
        return SessionWorkspace(
            channel=channel_id,
            agent=agent,
            roots=self.roots(agent, conn),
            changes=self.changes,
            host=host,
            terminals=self.terminals(channel_id, agent, conn) if self.terminals else None,
        )

    def roots(self, agent: str, conn: AgentConnection) -> Roots:
        """The agent's working folder (as its process was started) and its `folders:`."""
        folders = [Path(conn.cwd)]
        if agent in self._supervisor.names():
            definition = self._supervisor.runtime(agent).definition
            base = self._supervisor.config_dir
            folders += [resolve_cwd(folder, base) for folder in definition.folders]
        return Roots(folders)
