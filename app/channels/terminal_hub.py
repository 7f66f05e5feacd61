"""The commands agents run through Sidekicks (ACP `terminal/*`), seen from the channels.

Each member of a channel has its `Terminals` (app/workspace/terminals.py), made here for its
session's workspace. This is their feed: a command belongs to the answer in progress when it
started (its `messageId`); its live output goes to the page as `terminal:output`, its end as
`terminal:exited`, and a tool call that shows it carries its `TerminalView` — the command, then
the final output (the last 64 KiB) with the exit code or signal. A command that ends after its
answer was kept updates the kept message, so history always holds how it ended.

Commands are killed on Stop (the channel's), and killed and forgotten when the channel is
deleted, when the app closes, and when the agent's process ends (its sessions are gone).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from app.channels.publishing import Publisher
from app.channels.registry import ChannelRegistry
from app.events import names
from app.events.bus import EventBus
from app.events.payloads import TerminalExited, TerminalOutput
from app.models.conversation import Message, TerminalView
from app.paths import child_environment
from app.workspace.checkpointing import Checkpointing
from app.workspace.terminals import Terminals

if TYPE_CHECKING:
    from app.acp.connection import AgentConnection
    from app.channels.state import ActiveTurn

log = logging.getLogger(__name__)


@dataclass
class _Shown:
    channel: str
    agent: str
    message_id: str
    view: TerminalView
    kept: list[Message] = field(default_factory=list)  # answers kept showing it, running


class TerminalHub:
    def __init__(
        self,
        bus: EventBus,
        registry: ChannelRegistry,
        publisher: Publisher,
        checkpointing: Checkpointing | None = None,
    ) -> None:
        self._bus, self._registry, self._publisher = bus, registry, publisher
        self._checkpointing = checkpointing  # a command's changes are its answer's `command`s
        self._members: dict[tuple[str, str], Terminals] = {}
        self._shown: dict[str, _Shown] = {}
        self._closing: set[asyncio.Task[None]] = set()
        # An isolated member's folder in its worktree (app/channels/isolation.py, issue 28).
        self.member_cwd: Callable[[str, str], Path | None] = lambda channel, agent: None
        bus.subscribe(self._on_event)

    def of(self, channel_id: str, agent: str, conn: AgentConnection) -> Terminals:
        """The member's terminals (one set per channel and agent, made on first use): its
        commands run in the agent's folder, with the agent's environment."""
        terminals = self._members.get((channel_id, agent))
        cwd = self.member_cwd(channel_id, agent) or Path(conn.cwd)
        if terminals is None:
            terminals = Terminals(
                cwd,
                lambda: {**child_environment(), **conn.env},
                _Feed(self, channel_id, agent),
            )
            self._members[(channel_id, agent)] = terminals
        terminals.cwd = cwd  # an isolated member's worktree, or its folder again (issue 28)
        return terminals

    def view(self, terminal_id: str) -> TerminalView:
        """What a tool call naming this terminal shows now: the command's state while a member
        holds it, else how it ended."""
        for terminals in self._members.values():  # ids are unique across members
            current = terminals.view(terminal_id)
            if current is not None:
                return current
        shown = self._shown.get(terminal_id)
        if shown is None:  # not one of ours (the agent ran it itself): nothing to show
            return TerminalView(id=terminal_id, running=False)
        return shown.view

    # ---- the feed ----------------------------------------------------------------------------

    async def _starting(self, channel_id: str, agent: str, terminal_id: str) -> None:
        turn = self._turn(channel_id, agent)
        if self._checkpointing is not None and turn is not None:
            await self._checkpointing.command_started(turn.watch, terminal_id)

    def _turn(self, channel_id: str, agent: str) -> ActiveTurn | None:
        state = self._registry.find(channel_id)
        return state.answering_agent(agent) if state is not None else None

    def _started(self, channel_id: str, agent: str, terminal_id: str, view: TerminalView) -> None:
        state = self._registry.find(channel_id)
        turn = state.answering_agent(agent) if state is not None else None
        message_id = turn.answer.message.id if turn is not None else ""
        self._shown[terminal_id] = _Shown(channel_id, agent, message_id, view)

    def _output(self, terminal_id: str, data: str) -> None:
        shown = self._shown.get(terminal_id)
        if shown is not None:
            self._bus.emit(
                names.TERMINAL_OUTPUT,
                TerminalOutput(
                    channel=shown.channel,
                    agent=shown.agent,
                    message_id=shown.message_id,
                    terminal=terminal_id,
                    data=data,
                ),
            )

    def _exited(self, terminal_id: str, view: TerminalView) -> None:
        shown = self._shown.get(terminal_id)
        if shown is None:
            return
        shown.view = view
        turn = self._turn(shown.channel, shown.agent)
        if self._checkpointing is not None and turn is not None:
            self._checkpointing.command_ended(turn.watch, terminal_id)
        self._bus.emit(
            names.TERMINAL_EXITED,
            TerminalExited(
                channel=shown.channel,
                agent=shown.agent,
                message_id=shown.message_id,
                terminal=terminal_id,
                exit_code=view.exit_code,
                signal=view.signal,
            ),
        )
        state = self._registry.find(shown.channel)
        turn = state.answering_agent(shown.agent) if state is not None else None
        if turn is not None:  # the answer in progress, if it shows the command
            for delta in turn.answer.terminal(view):
                self._publisher.delta(delta)
        for kept in shown.kept:  # it outlived answers already kept
            self._update_kept(kept, view)
        if shown.kept or not shown.message_id:
            del self._shown[terminal_id]  # nothing more to tell (answer_kept forgets the rest)

    def _update_kept(self, kept: Message, view: TerminalView) -> None:
        """The command outlived an answer showing it: the kept answer gets how it ended."""
        message = kept.model_copy(deep=True)  # the kept one may be in a published view
        if not _replace_view(message, view) or not self._registry.find(message.channel):
            return
        try:
            self._registry.keep(message)
        except Exception:
            log.exception("could not keep a command's end in history")
            return
        self._publisher.message(message)

    # ---- answers -----------------------------------------------------------------------------

    def answer_kept(self, message: Message) -> None:
        """The answer is in history: what its commands still running later say updates it;
        what ended is forgotten here."""
        for terminal_id in _terminal_ids(message):
            shown = self._shown.get(terminal_id)
            if shown is None:
                continue
            if shown.view.running:
                shown.kept.append(message)
            else:
                del self._shown[terminal_id]

    # ---- ending ------------------------------------------------------------------------------

    async def kill_channel(self, channel_id: str) -> None:
        """Stop: every command in the channel is killed (their ids stay readable)."""
        members = [t for (c, _a), t in self._members.items() if c == channel_id]
        await asyncio.gather(*(t.kill_all() for t in members))

    async def close_channel(self, channel_id: str) -> None:
        """The channel is deleted or closed: its commands are killed and forgotten."""
        keys = [key for key in self._members if key[0] == channel_id]
        await asyncio.gather(*(self._members.pop(key).close() for key in keys))
        self._shown = {t: s for t, s in self._shown.items() if s.channel != channel_id}

    async def close_member(self, channel_id: str, agent: str) -> None:
        """The agent left the channel: its commands there end."""
        terminals = self._members.pop((channel_id, agent), None)
        if terminals is not None:
            await terminals.close()

    async def close_agent(self, agent: str) -> None:
        """The agent's process ended: so did its sessions, and their commands."""
        keys = [key for key in self._members if key[1] == agent]
        await asyncio.gather(*(self._members.pop(key).close() for key in keys))

    async def close_all(self) -> None:
        members, self._members = list(self._members.values()), {}
        await asyncio.gather(*(t.close() for t in members))
        await asyncio.gather(*self._closing)
        self._shown = {}

    def _on_event(self, name: str, payload: dict[str, Any]) -> None:
        if name != names.AGENT_STATE or payload.get("state") not in ("stopped", "error"):
            return
        agent = str(payload.get("agent", ""))
        if not any(key[1] == agent for key in self._members):
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # agent states come from the core loop; nothing to do elsewhere
            return
        task = loop.create_task(self.close_agent(agent))
        self._closing.add(task)
        task.add_done_callback(self._closing.discard)


class _Feed:
    """One member's `TerminalFeed`."""

    def __init__(self, hub: TerminalHub, channel_id: str, agent: str) -> None:
        self._hub, self._channel, self._agent = hub, channel_id, agent

    async def starting(self, terminal_id: str) -> None:
        await self._hub._starting(self._channel, self._agent, terminal_id)

    def started(self, terminal_id: str, view: TerminalView) -> None:
        self._hub._started(self._channel, self._agent, terminal_id, view)

    def output(self, terminal_id: str, data: str) -> None:
        self._hub._output(terminal_id, data)

    def exited(self, terminal_id: str, view: TerminalView) -> None:
        self._hub._exited(terminal_id, view)


def _terminal_ids(message: Message) -> list[str]:
    return [t.id for part in message.parts if part.tool for t in part.tool.terminals]


def _replace_view(message: Message, view: TerminalView) -> bool:
    replaced = False
    for part in message.parts:
        if part.tool is not None:
            for index, shown in enumerate(part.tool.terminals):
                if shown.id == view.id:
                    part.tool.terminals[index] = view
                    replaced = True
    return replaced
