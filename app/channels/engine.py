"""The conversation engine (SPEC §4), on the core loop; ChannelService calls it.

It composes the parts, each in its own file:
  registry.py    the channels' states, records and messages (the open history)
  membership.py  create, rename, direct conversations, members joining and leaving
  turns.py       the worker per channel: routing, queue, agents' turns, cancel and stop
  sessions.py    each member's ACP session (reused, resumed, new)
  session_settings.py  each member's session modes and options, the person's choices, presets
  streaming.py   what the agents' typed session events do (answer, usage, commands, permissions)
  permissions.py the permission requests waiting for the person
  workspaces.py  each member's file access (app/workspace/): roots, prompts, conflict notices
  commands.py    the agents' slash commands, kept across launches
  publishing.py  events for the page and the views that reads take off the loop (reading.py)
  attachments.py files and images staged for the next message, pasted images in the data folder
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from app.acp.errors import describe_error
from app.agents.supervisor import Supervisor
from app.channels.attachments import Attachments, find_in_messages
from app.channels.commands import CommandCatalog
from app.channels.membership import Membership
from app.channels.permission_rules import PermissionRules
from app.channels.permissions import PermissionBroker
from app.channels.publishing import Publisher, now_iso
from app.channels.reading import ChannelView
from app.channels.registry import ChannelRegistry
from app.channels.resending import Resending
from app.channels.session_settings import Preset, SessionSettings
from app.channels.sessions import Sessions
from app.channels.state import ChannelState
from app.channels.streaming import Streaming
from app.channels.terminal_hub import TerminalHub
from app.channels.turns import Turns
from app.channels.workspaces import Workspaces
from app.core.errors import UserError
from app.events.bus import EventBus
from app.events.payloads import PermissionRequested
from app.history.base import History
from app.i18n import _
from app.models.changes import FileChange
from app.models.conversation import Attachment, Channel, Command
from app.models.finding import PermissionRule
from app.models.sessions import MemberSession as SessionOffer
from app.search.index import SearchIndex
from app.workspace.changes import ChangeLog

if TYPE_CHECKING:
    from app.acp.connection import AgentConnection

log = logging.getLogger(__name__)


class ChannelEngine:
    def __init__(self, bus: EventBus, supervisor: Supervisor) -> None:
        self._supervisor = supervisor
        self._registry = ChannelRegistry()
        self._permissions = PermissionBroker()
        self._publisher = Publisher(bus, self._registry, self._permissions)
        self._commands = CommandCatalog(bus, self._registry)
        self._membership = Membership(self._registry, self._publisher, supervisor)
        self._settings = SessionSettings(self._registry, self._publisher, self._preset)
        self._rules = PermissionRules(bus, lambda: self._registry.history, now_iso)
        streaming = Streaming(
            self._registry,
            self._publisher,
            self._permissions,
            self._commands,
            self._settings,
            self._rules,
        )
        self._changes = ChangeLog(bus, lambda: self._registry.history)
        self._terminals = TerminalHub(bus, self._registry, self._publisher)
        workspaces = Workspaces(
            self._registry, self._publisher, supervisor, self._changes, self._terminals.of
        )
        self._sessions = Sessions(self._registry, streaming, self._settings, workspaces)
        self._turns = Turns(
            self._registry,
            self._publisher,
            self._permissions,
            self._membership,
            self._sessions,
            supervisor,
            self._terminals,
        )
        self._attachments = Attachments()

    # ---- history -----------------------------------------------------------------------------

    @property
    def history(self) -> History:
        return self._registry.history

    @property
    def search(self) -> SearchIndex:
        """The open history's search index; searched from any thread."""
        return self._registry.search

    def attach(self, history: History, data_folder: Path | None = None) -> None:
        """Opens `history`; pasted images go to `data_folder` (the configuration's)."""
        self._registry.attach(history)
        self._attachments.open(data_folder)
        self._commands.clear()
        self._publisher.channels()
        self._rules.announce()  # this history's rules

    async def detach(self) -> None:
        """Stops every answer (an answer in progress is not kept), then closes the history."""
        states = list(self._registry.states.values())
        await asyncio.gather(*(self._turns.stop_channel(s) for s in states))
        await self._terminals.close_all()  # those of no channel's (none expected): no orphans
        self._publisher.forget_views()
        self._registry.detach()

    # ---- channels and members ----------------------------------------------------------------

    def channels(self) -> list[Channel]:
        return self._registry.channels()

    def view(self, channel_id: str) -> ChannelView | None:
        """The channel's latest published view; any thread."""
        return self._publisher.view(channel_id)

    def create(self, name: str, description: str = "", members: Sequence[str] = ()) -> Channel:
        return self._membership.create(name, description, members)

    def rename(self, channel_id: str, name: str, description: str = "") -> Channel:
        return self._membership.rename(channel_id, name, description)

    async def delete(self, channel_id: str) -> None:
        state = self._registry.get(channel_id)
        await self._turns.stop_channel(state)
        self._registry.remove(state)
        self._attachments.delete_channel(state.id)
        self._publisher.channels()

    def direct(self, agent: str) -> Channel:
        return self._membership.direct(agent)

    def add_member(self, channel_id: str, agent: str) -> Channel:
        return self._membership.add_member(channel_id, agent)

    async def remove_member(self, channel_id: str, agent: str) -> Channel:
        state = self._membership.check_leaving(channel_id, agent)
        state.due = [a for a in state.due if a != agent]
        if state.answering_agent(agent):
            await self._turns.cancel_answer(state)
        await self._terminals.close_member(state.id, agent)
        self._membership.leave(state, agent)
        return state.channel

    # ---- conversation ------------------------------------------------------------------------

    def send(self, channel_id: str, text: str, attachment_ids: list[str] | None = None) -> str:
        state = self._registry.get(channel_id)
        attachments = self._attachments.staged(channel_id, attachment_ids or [])
        message_id = self._turns.send(state, text, attachments)
        self._attachments.taken(channel_id, attachments)
        return message_id

    def resend(self, channel_id: str, message_id: str, kept: Resending | None = None) -> str:
        """Sends a message again (issue 17): see Turns.resend and resending.py."""
        return self._turns.resend(self._registry.get(channel_id), message_id, kept)

    # ---- attachments -------------------------------------------------------------------------

    def attach_file(self, channel_id: str, path: str) -> Attachment:
        return self._attachments.stage_file(self._registry.get(channel_id).id, path)

    def attach_image(self, channel_id: str, name: str, mime: str, data: str) -> Attachment:
        return self._attachments.stage_image(self._registry.get(channel_id).id, name, mime, data)

    def unattach(self, channel_id: str, attachment_id: str) -> None:
        self._attachments.unstage(self._registry.get(channel_id).id, attachment_id)

    def attachment(self, channel_id: str, attachment_id: str) -> Attachment:
        """A staged attachment of the channel's, or one of its messages' (newest first)."""
        state = self._registry.get(channel_id)
        found = self._attachments.find_staged(channel_id, attachment_id)
        found = found or find_in_messages(state.queue_view(), attachment_id)
        messages, more = self.history.last_messages(channel_id)
        while found is None:
            found = find_in_messages(messages, attachment_id)
            if found is not None or not more or not messages:
                break
            messages, more = self.history.messages_before(channel_id, messages[0].id)
        if found is None:
            raise UserError(_("no such attachment in this conversation"))
        return found

    def image_data(self, attachment: Attachment) -> str:
        """The image's data: URL; any thread (reads the file)."""
        return self._attachments.data_url(attachment)

    async def cancel(self, channel_id: str) -> None:
        await self._turns.cancel(self._registry.get(channel_id))

    def new_session(self, channel_id: str) -> None:
        """The members start new sessions after a divider (issue 17): Sessions.start_afresh."""
        self._sessions.start_afresh(self._registry.get(channel_id), self._publisher)

    def answer_permission(self, request_id: str, option_id: str) -> None:
        request, kind = self._permissions.answer(request_id, option_id)
        state = self._registry.find(request.channel)
        if state is None:
            return
        if kind.startswith("reject"):
            state.scope.rejections += 1
        self._publisher.permissions_resolved(state, [request.id])
        if kind == "allow_always":
            self._rules.given(request)  # kept after the answer: a failed write loses no answer

    def permissions(self) -> list[PermissionRequested]:
        """Every channel's pending permission requests, oldest first."""
        return self._permissions.all()

    def permission_rules(self) -> list[PermissionRule]:
        return self._rules.all()

    def revoke_permission_rule(self, rule_id: str) -> list[PermissionRule]:
        return self._rules.revoke(rule_id)

    def commands(self, agent: str) -> list[Command]:
        return self._commands.of(self._membership.agent(agent))

    async def prepare(self, channel_id: str) -> None:
        """Starts the members that never announced commands and opens their sessions."""
        state = self._registry.get(channel_id)
        todo = [
            agent
            for agent in state.channel.members
            if agent in self._supervisor.names()
            and not self.commands(agent)
            and not self._turns.agent_lock(agent).locked()
        ]

        async def prepare_member(agent: str) -> None:
            try:
                conn = await self._supervisor.start(agent)
                await self._sessions.open(state, agent, conn)
            except Exception as err:
                log.info("could not prepare %s: %s", agent, err)

        await asyncio.gather(*(prepare_member(a) for a in todo))

    # ---- file changes ------------------------------------------------------------------------

    def changes(self, channel_id: str) -> list[FileChange]:
        return self._changes.changes(self._registry.get(channel_id).id)

    def revert(self, channel_id: str, change_ids: list[str]) -> list[FileChange]:
        return self._changes.revert(self._registry.get(channel_id).id, change_ids)

    # ---- session modes and options -----------------------------------------------------------

    async def set_mode(self, channel_id: str, agent: str, mode_id: str) -> SessionOffer:
        state, conn, session_id = await self._member_session(channel_id, agent)
        return await self._settings.set_mode(state, agent, conn, session_id, mode_id)

    async def set_option(
        self, channel_id: str, agent: str, option_id: str, value: str | bool
    ) -> SessionOffer:
        state, conn, session_id = await self._member_session(channel_id, agent)
        return await self._settings.set_option(state, agent, conn, session_id, option_id, value)

    async def _member_session(
        self, channel_id: str, agent: str
    ) -> tuple[ChannelState, AgentConnection, str]:
        """The member's open session, started and opened (like Prepare) if it is not."""
        state = self._registry.get(channel_id)
        if agent not in state.channel.members:
            raise UserError(_("{agent} is not a member of this channel").format(agent=agent))
        conn = await self._supervisor.start(agent)
        try:
            session_id = await self._sessions.open(state, agent, conn)
        except Exception as err:
            raise UserError(describe_error(err)) from None
        return state, conn, session_id

    def known_offer(self, agent: str) -> SessionOffer | None:
        """What the agent's sessions last offered, in any channel (for the presets' warnings)."""
        for state in self._registry.states.values():
            member = state.stored.sessions.get(agent)
            if member is not None and member.offer is not None:
                return member.offer
        return None

    def _preset(self, agent: str) -> Preset:
        """The agent's `mode:` and `options:` in the configuration."""
        if agent not in self._supervisor.names():
            return Preset()
        definition = self._supervisor.runtime(agent).definition
        return Preset(definition.mode or "", dict(definition.options))
