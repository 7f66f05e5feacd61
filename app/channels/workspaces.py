"""Each member's file access in a channel (issue 15): the `SessionWorkspace` a session is
opened with, and the conversation side it needs — the answer a write belongs to, the
permission prompt for a write outside the agent's folders, the conflict notices."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING

from app.acp.updates import PermissionAsked, PermissionChoice, ToolChange, ToolLocation
from app.agents.supervisor import Supervisor
from app.channels.publishing import Publisher, new_message
from app.channels.registry import ChannelRegistry
from app.core.ids import new_id
from app.i18n import _
from app.paths import resolve_cwd
from app.workspace.app_files import AppFiles
from app.workspace.changes import ChangeLog
from app.workspace.roots import Roots
from app.workspace.session_workspace import OutsideWrite, SessionWorkspace, Terminals

if TYPE_CHECKING:
    from app.acp.connection import AgentConnection
    from app.channels.sessions import SessionRouter

ALLOW, REJECT = "allow", "reject"
# The member's commands (channel id, agent, its connection) -> its Terminals (terminal_hub.py).
TerminalsFor = Callable[[str, str, "AgentConnection"], Terminals]
# An isolated member's folder in its worktree (channel id, agent; None: its own folder), and
# what makes the worktree before its session opens (app/channels/isolation.py, issue 28).
MemberCwd = Callable[[str, str], Path | None]
PrepareMember = Callable[[str, str], Awaitable[None]]


def outside_write_title(write: OutsideWrite) -> str:
    """What the prompt says: the file really written, and the link that led there if one."""
    if write.through_link:
        title = _("Write outside the workspace: {path} (reached through the link {link})").format(
            path=write.real, link=write.asked
        )
    else:
        title = _("Write outside the workspace: {path}").format(path=write.real)
    if not write.has_folders:
        title += " — " + _(
            "this agent has no folder of its own (no `cwd`): it asks for every write"
        )
    return title


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

    async def allow_outside_write(self, write: OutsideWrite) -> bool:
        """A permission request in the conversation (the channel's usual machinery: shown on
        the answer, cancelled by Stop), naming the file really written and the link that led
        there. It is Sidekicks' own question: no "always allow" rule answers it. No answer in
        progress means no one to ask: refused."""
        reply: asyncio.Future[str | None] = asyncio.get_running_loop().create_future()
        tool = ToolChange(
            tool_call_id=f"write-outside-{new_id()}",
            started=True,
            title=outside_write_title(write),
            kind="edit",
            status="pending",
            locations=(ToolLocation(path=str(write.real)),),
        )
        options = (
            PermissionChoice(ALLOW, _("Allow once"), "allow_once"),
            PermissionChoice(REJECT, _("Reject"), "reject_once"),
        )
        self._router.on_event(PermissionAsked(tool=tool, options=options, reply=reply, own=True))
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
        app_files: Callable[[], AppFiles] = lambda: AppFiles.of(None),
    ) -> None:
        """Without `terminals`, the agents' terminal requests are refused. `app_files`:
        Sidekicks' own files now (the open configuration's)."""
        self._app_files = app_files
        self._registry, self._publisher = registry, publisher
        self._supervisor = supervisor
        self.changes = changes
        self.terminals = terminals
        self.member_cwd: MemberCwd = lambda channel, agent: None
        self.prepare_member: PrepareMember | None = None

    async def prepare(self, channel_id: str, agent: str) -> None:
        """Before the member's session opens (its worktree, when it is isolated)."""
        if self.prepare_member is not None:
            await self.prepare_member(channel_id, agent)

    def for_session(
        self, channel_id: str, agent: str, conn: AgentConnection, router: SessionRouter
    ) -> SessionWorkspace:
        host = ConversationHost(self._registry, self._publisher, router, channel_id, agent)
        cwd = self.member_cwd(channel_id, agent)
        app_files = self._app_files()
        return SessionWorkspace(
            channel=channel_id,
            agent=agent,
            roots=self.roots(agent, conn, channel_id),
            app_files=app_files.owning(cwd) if cwd is not None else app_files,
            changes=self.changes,
            host=host,
            terminals=self.terminals(channel_id, agent, conn) if self.terminals else None,
            cwd=cwd,
        )

    def roots(self, agent: str, conn: AgentConnection, channel_id: str = "") -> Roots:
        """The agent's working folder (as its process was started) and its `folders:`. An
        agent with no `cwd` runs in the home folder, which is not its folder: every write it
        makes outside its `folders:` is asked (docs/security.md). An isolated member's working
        folder is its worktree, in place of its `cwd` (issue 28)."""
        isolated = self.member_cwd(channel_id, agent) if channel_id else None
        if agent not in self._supervisor.names():
            return Roots([isolated or Path(conn.cwd)])
        definition = self._supervisor.runtime(agent).definition
        base = self._supervisor.config_dir
        folders = [isolated] if isolated else [Path(conn.cwd)] if definition.cwd else []
        folders += [resolve_cwd(folder, base) for folder in definition.folders]
        return Roots(folders)
