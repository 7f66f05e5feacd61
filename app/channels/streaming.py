"""What an agent's session events do to its channel: the live answer grows, usage and commands
are kept, permission requests wait for the person. One `match` over the closed set of typed
events of app/acp/updates.py."""

from __future__ import annotations

import asyncio
import dataclasses
import logging

from app.acp.elicitation import ElicitationAsked, ElicitationCompleted, ElicitationReply
from app.acp.updates import (
    ChildEvent,
    CommandsChanged,
    CompactionChanged,
    CompactionChunk,
    ModeChanged,
    OptionsChanged,
    PermissionAsked,
    PlanChanged,
    PlanContentChanged,
    PlanRemoved,
    SessionEvent,
    SessionMessage,
    SubagentChanged,
    TextDelta,
    ToolChange,
    Unhandled,
    UsageChanged,
)
from app.channels.answer import AnswerEvent
from app.channels.commands import CommandCatalog
from app.channels.elicitations import ElicitationDesk
from app.channels.permission_rules import PermissionRules, option_a_rule_gives
from app.channels.permissions import MAX_PENDING_PER_CHANNEL, PermissionBroker
from app.channels.publishing import Publisher
from app.channels.registry import ChannelRegistry
from app.channels.session_settings import SessionSettings
from app.core.ids import new_id
from app.events.payloads import PermissionRequested
from app.models.conversation import Cost, PermissionOption, RateLimit, ToolCall, Usage
from app.workspace.checkpointing import Checkpointing

log = logging.getLogger(__name__)


class Streaming:
    def __init__(
        self,
        registry: ChannelRegistry,
        publisher: Publisher,
        permissions: PermissionBroker,
        commands: CommandCatalog,
        settings: SessionSettings,
        rules: PermissionRules,
        checkpointing: Checkpointing | None = None,
    ) -> None:
        self._checkpointing = checkpointing  # an answer's commands and the paths it names
        self._registry = registry
        self._rules = rules
        self._settings = settings
        self._publisher = publisher
        self._permissions = permissions
        self._commands = commands
        self._ignored: set[str] = set()
        self.elicitations: ElicitationDesk | None = None  # the agents' questions (parts.py)

    def on_elicitation(
        self, channel_id: str, agent: str, event: ElicitationAsked | ElicitationCompleted
    ) -> None:
        if self.elicitations is not None:
            self.elicitations.on_event(channel_id, agent, event)
        elif isinstance(event, ElicitationAsked) and not event.reply.done():
            event.reply.set_result(ElicitationReply("cancel"))

    def on_event(
        self, channel_id: str, agent: str, event: SessionEvent | PermissionAsked, replay: bool
    ) -> None:
        match event:
            case UsageChanged():
                self._usage(channel_id, agent, event)
            case CommandsChanged():
                self._commands.announce(agent, event)
            case PermissionAsked():
                self._ask(channel_id, agent, event)
            case (
                TextDelta()
                | ToolChange()
                | PlanChanged()
                | PlanContentChanged()
                | PlanRemoved()
                | CompactionChanged()
                | CompactionChunk()
                | SubagentChanged()
                | SessionMessage()
                | ChildEvent()
            ):
                if not replay:  # a replayed update: history already has what it says
                    self._answer(channel_id, agent, event)
            case ModeChanged():
                self._settings.mode_changed(channel_id, agent, event.mode_id)
            case OptionsChanged():
                self._settings.options_changed(channel_id, agent, event.options)
            case Unhandled():
                self._ignore(event.kind)

    def _answer(self, channel_id: str, agent: str, event: AnswerEvent) -> None:
        state = self._registry.find(channel_id)
        turn = state.answering_agent(agent) if state is not None else None
        if turn is None:
            return  # a late update: the answer it belonged to is over
        deltas = turn.answer.apply(event)
        tool = None
        if isinstance(event, ToolChange):
            tool = turn.answer.tool_call(event.tool_call_id)
        elif isinstance(event, ChildEvent) and isinstance(event.event, ToolChange):
            tool = turn.answer.subagents.tool_call(event.session_id, event.event.tool_call_id)
        if self._checkpointing is not None and tool is not None:
            self._checkpointing.tool(turn.watch, tool)
        for delta in deltas:
            self._publisher.delta(delta)

    def _usage(self, channel_id: str, agent: str, event: UsageChanged) -> None:
        state = self._registry.find(channel_id)
        if state is None:
            return
        member = state.member(agent)
        usage = usage_kept(member.usage, event)
        member.usage = usage
        self._publisher.usage(state, agent, usage)

    def _ask(self, channel_id: str, agent: str, asked: PermissionAsked) -> None:
        state = self._registry.find(channel_id)
        turn = state.answering_agent(agent) if state is not None else None
        if state is None or turn is None or state.scope.cancelled:
            asked.reply.set_result(None)
            return
        if self._permissions.count(channel_id) >= MAX_PENDING_PER_CHANNEL:
            asked.reply.set_result(None)  # a flood: see MAX_PENDING_PER_CHANNEL
            flood = f"flood:{turn.answer.message.id}"
            if flood not in self._ignored:
                self._ignored.add(flood)
                log.warning(
                    "%s asked more than %d permissions at once: the rest are answered cancelled",
                    agent,
                    MAX_PENDING_PER_CHANNEL,
                )
            return
        # Show (or update) the tool the request is about: with the rule that allowed it, if one.
        if asked.session:  # a sub-agent's: its tool call is shown in its part
            deltas = turn.answer.apply(ChildEvent(asked.session, asked.tool))
            found = turn.answer.subagents.tool_call(asked.session, asked.tool.tool_call_id)
        else:
            deltas = turn.answer.tool(asked.tool)
            found = turn.answer.tool_call(asked.tool.tool_call_id)
        tool = found or ToolCall(id="?")
        if self._checkpointing is not None and tool.id != "?":
            # Some agents announce a command only in its permission request: its folders'
            # checkpoint is taken now, and the agent hears the answer once it is taken, so the
            # command's changes are the command's however fast it runs.
            taken = self._checkpointing.tool(turn.watch, tool)
            if taken is not None and not taken.done():
                asked = dataclasses.replace(asked, reply=_relayed(asked.reply, taken))
        options = [
            PermissionOption(option_id=o.option_id, name=o.name, kind=o.kind) for o in asked.options
        ]
        allowed = self._allowed_by_rule(agent, tool, options, asked)
        for delta in deltas:
            self._publisher.delta(delta)
        if allowed:
            return
        request = PermissionRequested(
            id=new_id(),
            channel=channel_id,
            agent=agent,
            message_id=turn.answer.message.id,
            tool_call=tool.model_copy(deep=True),
            options=options,
            rejections=state.scope.rejections,
            asked_by_sidekicks=asked.own,
        )
        self._permissions.add(request, asked.reply)
        self._publisher.permission_requested(state, request)

    def _allowed_by_rule(
        self, agent: str, tool: ToolCall, options: list[PermissionOption], asked: PermissionAsked
    ) -> bool:
        """Answers at once when the person always allows this agent this kind of tool, and
        marks the tool call with the rule (its card says so; no prompt is shown)."""
        if asked.own:
            return False  # Sidekicks' own question: only the person answers it
        rule = self._rules.matching(agent, tool.kind)
        if rule is None:
            return False
        option = option_a_rule_gives(options)
        if option is None:
            return False  # it offers no way to allow: the person is asked
        tool.allowed_by_rule = rule.id
        asked.reply.set_result(option.option_id)
        return True

    def _ignore(self, kind: str) -> None:
        if kind not in self._ignored:
            self._ignored.add(kind)
            log.info("ignoring session updates of kind %r", kind)


def _relayed(
    reply: asyncio.Future[str | None], after: asyncio.Future[None]
) -> asyncio.Future[str | None]:
    """A future whose result goes on to `reply` once `after` is done."""
    relay: asyncio.Future[str | None] = asyncio.get_running_loop().create_future()

    async def forward(result: str | None) -> None:
        await asyncio.wait({after})
        if not reply.done():
            reply.set_result(result)

    def on_done(done: asyncio.Future[str | None]) -> None:
        result = None if done.cancelled() or done.exception() else done.result()
        task = asyncio.ensure_future(forward(result))
        _forwarding.add(task)
        task.add_done_callback(_forwarding.discard)

    relay.add_done_callback(on_done)
    # The agent withdrew its request ($/cancel_request): the prompt the relay holds goes too.
    reply.add_done_callback(lambda done: relay.cancel() if done.cancelled() else None)
    return relay


_forwarding: set[asyncio.Future[None]] = set()


def usage_kept(before: Usage | None, event: UsageChanged) -> Usage:
    """The usage an update says, keeping what it leaves out: the cost (cumulative, sent when
    the agent knows it) and each rate-limit window (claude sends one at a time)."""
    cost = before.cost if before is not None else None
    if event.cost is not None:
        cost = Cost(amount=event.cost.amount, currency=event.cost.currency)
    windows = {w.window: w for w in (before.rate_limits if before is not None else [])}
    for limit in event.rate_limits:
        windows[limit.window] = RateLimit(
            window=limit.window,
            status=limit.status,
            utilization=limit.utilization,
            resets_at=limit.resets_at,
        )
    return Usage(used=event.used, size=event.size, cost=cost, rate_limits=list(windows.values()))
