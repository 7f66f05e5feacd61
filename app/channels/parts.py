"""The conversation's parts (SPEC §4), built once on the core loop and wired together; each
service is given the parts it uses (app/sidekicks.py). Each part in its own file:
  registry.py    the channels' states, records and messages (the open history)
  membership.py  create, rename, direct conversations, members joining and leaving
  turns.py       the worker per channel: routing, queue, agents' turns, cancel and stop
  answering.py   one agent's answer to one message: prompt, live answer, kept in history
  sessions.py    each member's ACP session (reused, resumed, new)
  session_settings.py  each member's session modes and options, the person's choices, presets
  streaming.py   what the agents' typed session events do (answer, usage, commands, permissions)
  permissions.py the permission requests waiting for the person
  permission_rules.py  the "always allow" rules, kept in the history
  workspaces.py  each member's file access (app/workspace/): roots, prompts, conflict notices
  terminal_hub.py  the agents' commands in conversations
  commands.py    the agents' slash commands, kept across launches
  publishing.py  events for the page and the views that reads take off the loop (reading.py)
  attachments.py files and images staged for the next message, pasted images in the data folder
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from app.agents.supervisor import Supervisor
from app.channels.answering import Answering
from app.channels.attachments import Attachments
from app.channels.commands import CommandCatalog
from app.channels.elicitations import ElicitationDesk
from app.channels.handoffs.chain import HandoffChain
from app.channels.isolation import ChannelIsolation
from app.channels.made_room import post_made_room
from app.channels.membership import Membership
from app.channels.opened_sessions import OpenedSessions
from app.channels.permission_rules import PermissionRules
from app.channels.permissions import PermissionBroker
from app.channels.publishing import Publisher, new_message, now_iso
from app.channels.registry import ChannelRegistry
from app.channels.session_settings import Preset, SessionSettings
from app.channels.sessions import Sessions
from app.channels.streaming import Streaming
from app.channels.terminal_hub import TerminalHub
from app.channels.turns import Turns
from app.channels.workspaces import Workspaces
from app.events.bus import EventBus
from app.events.payloads import PermissionRequested
from app.history.base import History
from app.models.conversation import Message
from app.workspace.app_files import AppFiles
from app.workspace.changes import ChangeLog
from app.workspace.checkpointing import Checkpointing
from app.workspace.restoring import Restoring
from app.workspace.worktrees.isolation import Isolation


class ChannelParts:
    def __init__(self, bus: EventBus, supervisor: Supervisor) -> None:
        self.supervisor = supervisor
        self.registry = ChannelRegistry()
        self.permissions = PermissionBroker()
        self.publisher = Publisher(bus, self.registry, self.permissions)
        self.commands = CommandCatalog(bus, self.registry)
        self.membership = Membership(self.registry, self.publisher, supervisor)
        self.settings = SessionSettings(
            self.registry, self.publisher, lambda agent: _preset(supervisor, agent)
        )
        self.rules = PermissionRules(bus, lambda: self.registry.history, now_iso)
        self.app_files = AppFiles.of(None)  # the configuration's once one is open (attach)
        self.changes = ChangeLog(bus, lambda: self.registry.history, lambda: self.app_files)
        self.checkpointing = Checkpointing(bus, self.changes, self._notice)
        self.restoring = Restoring(self.checkpointing, self.changes)
        self.registry.on_remove.append(self.checkpointing.forget_channel)
        streaming = Streaming(
            self.registry,
            self.publisher,
            self.permissions,
            self.commands,
            self.settings,
            self.rules,
            self.checkpointing,
        )
        self.elicitations = ElicitationDesk(self.registry, bus)  # the agents' questions
        streaming.elicitations = self.elicitations
        self.permissions.on_cancel.append(self.elicitations.cancel)  # Stop, answer's end
        self.permissions.on_withdrawn = self._withdrawn
        self.terminals = TerminalHub(bus, self.registry, self.publisher, self.checkpointing)
        workspaces = Workspaces(
            self.registry,
            self.publisher,
            supervisor,
            self.changes,
            self.terminals.of,
            lambda: self.app_files,
        )
        self.sessions = Sessions(self.registry, streaming, self.settings, workspaces)
        # Members in Git worktrees of their folders (issue 28): their sessions work there.
        self.isolation = Isolation()
        self.registry.on_remove.append(self.isolation.forget_channel)
        self.worktrees = ChannelIsolation(self.registry, supervisor, self.sessions, self.isolation)
        workspaces.member_cwd = self.terminals.member_cwd = self.worktrees.cwd
        workspaces.prepare_member = self.worktrees.prepare
        self.opened = OpenedSessions(self.registry, self.publisher, self.membership, self.sessions)
        answering = Answering(
            self.registry,
            self.publisher,
            self.permissions,
            self.sessions,
            self.terminals,
            self.checkpointing,
            lambda channel, agent, conn: list(workspaces.roots(agent, conn, channel).folders),
        )
        # Agents' answers that mention other members (issue 28), given each answer's changes.
        self.handoffs = HandoffChain(self.registry, self.publisher, self.changes.changes)
        self.turns = Turns(
            self.registry,
            self.publisher,
            self.permissions,
            self.membership,
            answering,
            supervisor,
            self.terminals,
            self.handoffs,
        )
        self.attachments = Attachments()
        supervisor.evictions.listeners.append(
            lambda agent, for_agent, limit: post_made_room(
                self.registry, self.publisher, agent, for_agent, limit
            )
        )

    def _withdrawn(self, request: PermissionRequested) -> None:
        """The agent withdrew a permission request ($/cancel_request): its prompt goes."""
        state = self.registry.find(request.channel)
        if state is not None:
            self.publisher.permissions_resolved(state, [request.id])

    def _notice(self, channel_id: str, agent: str, text: str) -> None:
        """A conflict notice the checkpoints found (as workspaces.ConversationHost's)."""
        state = self.registry.find(channel_id)
        if state is None:
            return
        message = new_message(state.id, "system", agent=agent, error=text)
        if state.turn is not None:
            state.held.append(message)
        else:
            self.registry.keep(message)
        self.publisher.message(message)

    def restored(self, channel_id: str, notice_id: str, answer_id: str) -> None:
        """Tells the channel its agents' folders were restored to before an answer."""
        state = self.registry.get(channel_id)
        answer = next(
            (c for c in self.restoring.answers(channel_id) if c.message_id == answer_id), None
        )
        message = Message(
            id=notice_id,
            channel=channel_id,
            created_at=now_iso(),
            role="system",
            agent=answer.agent if answer is not None else "",
            code="restored",
        )
        if state.turn is not None:
            state.held.append(message)
        else:
            self.registry.keep(message)
        self.publisher.message(message)

    @property
    def history(self) -> History:
        return self.registry.history

    def attach(
        self, history: History, data_folder: Path | None = None, config_path: Path | None = None
    ) -> None:
        """Opens `history`, the configuration `config_path`'s; pasted images go to
        `data_folder` (the configuration's)."""
        self.app_files = AppFiles.of(config_path)
        self.registry.attach(history)
        self.checkpointing.open(data_folder)
        self.isolation.open(data_folder)
        self.changes.recover()  # a revert a killed app left half done
        self.attachments.open(data_folder)
        self.commands.clear()
        self.publisher.channels()
        self.rules.announce()  # this history's rules

    async def detach(self) -> None:
        """Stops every answer (an answer in progress is not kept), then closes the history."""
        states = list(self.registry.states.values())
        await asyncio.gather(*(self.turns.stop_channel(s) for s in states))
        await self.terminals.close_all()  # those of no channel's (none expected): no orphans
        self.publisher.forget_views()
        self.registry.detach()


def _preset(supervisor: Supervisor, agent: str) -> Preset:
    """The agent's `mode:` and `options:` in the configuration."""
    if agent not in supervisor.names():
        return Preset()
    definition = supervisor.runtime(agent).definition
    return Preset(definition.mode or "", dict(definition.options))
