"""The closed, typed contract between ACP and the core: what an agent tells a session, as small
frozen values. app/acp/translate.py is the one place that reads the SDK's classes and makes
these; nothing past app/acp sees an `acp.schema` object (import-linter holds that line).

This module imports nothing from the SDK, so the core can use it without loading `acp` (~0.4 s).
Fields that an update may leave out are `None` ("unchanged"), as in ACP.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Literal

from app.models.conversation import ToolKind, ToolStatus

PlanStatus = Literal["pending", "in_progress", "completed"]
PlanPriority = Literal["high", "medium", "low"]
OptionKind = Literal["allow_once", "allow_always", "reject_once", "reject_always"]


@dataclass(frozen=True, slots=True)
class TextDelta:
    """A chunk of the agent's answer (`text`) or of its visible reasoning (`thought`)."""

    kind: Literal["text", "thought"]
    text: str
    message_id: str | None = None  # ACP `messageId`: chunks of one message share it


@dataclass(frozen=True, slots=True)
class ToolLocation:
    path: str
    line: int | None = None


@dataclass(frozen=True, slots=True)
class ToolDiff:
    path: str
    old_text: str | None  # None: a new file
    new_text: str


@dataclass(frozen=True, slots=True)
class ToolChange:
    """A tool call started (`started`) or changed; `None` fields are unchanged."""

    tool_call_id: str
    started: bool = False
    title: str | None = None
    kind: ToolKind | None = None
    status: ToolStatus | None = None
    input: str | None = None  # the raw input, as compact JSON
    locations: tuple[ToolLocation, ...] | None = None
    texts: tuple[str, ...] | None = None  # the content's text parts (None: content unchanged)
    diffs: tuple[ToolDiff, ...] | None = None
    terminals: tuple[str, ...] | None = None  # terminal ids shown in the content
    output: str | None = None  # the raw output, as text
    sessions: tuple[str, ...] | None = None  # `session` content: the sub-agent sessions it runs


@dataclass(frozen=True, slots=True)
class PlanItem:
    content: str
    status: PlanStatus = "pending"
    priority: PlanPriority = "medium"


@dataclass(frozen=True, slots=True)
class PlanChanged:
    """The whole plan, replacing the previous one."""

    entries: tuple[PlanItem, ...]


@dataclass(frozen=True, slots=True)
class AgentCommand:
    name: str
    description: str = ""
    hint: str = ""  # what to type after the command, when it takes input


@dataclass(frozen=True, slots=True)
class CommandsChanged:
    commands: tuple[AgentCommand, ...]


@dataclass(frozen=True, slots=True)
class UsageChanged:
    """Context window: tokens used of `size`."""

    used: int
    size: int
    cost: SessionCost | None = None  # ACP `cost`: the session's cumulative cost, when said
    rate_limits: tuple[RateLimit, ...] = ()  # claude's `_meta["_claude/rateLimit"]` windows


@dataclass(frozen=True, slots=True)
class ModeChanged:
    mode_id: str


@dataclass(frozen=True, slots=True)
class OptionChoice:
    value: str
    name: str
    description: str = ""


OptionVia = Literal["config_option", "set_model"]


@dataclass(frozen=True, slots=True)
class SessionOption:
    """A session configuration option (model, reasoning effort, …): a select or a boolean."""

    id: str
    name: str
    kind: Literal["select", "boolean"]
    value: str | bool
    description: str = ""
    category: str = ""
    choices: tuple[OptionChoice, ...] = ()
    # How it is set: `session/set_config_option`, or `session/set_model` for the models of
    # agents that offer them the older way (app/acp/session_models.py).
    via: OptionVia = "config_option"


@dataclass(frozen=True, slots=True)
class OptionsChanged:
    options: tuple[SessionOption, ...]


@dataclass(frozen=True, slots=True)
class SessionTitled:
    """`session_info_update`: the agent's title for the session (None: unchanged, "": cleared)."""

    title: str | None


@dataclass(frozen=True, slots=True)
class UserText:
    """A chunk of a person's message as the agent kept it (`user_message_chunk`: a
    `session/load` replays them)."""

    text: str


@dataclass(frozen=True, slots=True)
class Unhandled:
    """An update the core has no use for (its ACP name, for a log line)."""

    kind: str


# ---- the stream of 2026 (issue 26): cost, compaction, sub-agents, plans by id ---------------
# compaction_update, compaction_summary_chunk, subagent_update and session_message are not in the
# SDK 0.12.1: app/acp/stream_extensions.py parses them from the raw update (remove when the SDK
# has them).

CompactionStatus = Literal["in_progress", "completed", "failed", "cancelled"]
SubagentState = Literal["running", "requires_action", "idle", "unknown"]


@dataclass(frozen=True, slots=True)
class SessionCost:
    """ACP `usage_update.cost`: what the session cost so far."""

    amount: float
    currency: str


@dataclass(frozen=True, slots=True)
class RateLimit:
    """One of claude's rate-limit windows (`five_hour`, `seven_day`, …) as its last
    `rate_limit_event` said: `utilization` 0–1, `resets_at` in seconds since the epoch."""

    window: str
    status: str = "allowed"  # allowed, allowed_warning, rejected
    utilization: float | None = None
    resets_at: float | None = None


@dataclass(frozen=True, slots=True)
class PlanContentChanged:
    """ACP `plan_update`: the plan `plan_id`, replaced: its entries, its Markdown, or a file."""

    plan_id: str
    entries: tuple[PlanItem, ...] = ()
    markdown: str | None = None
    uri: str | None = None


@dataclass(frozen=True, slots=True)
class PlanRemoved:
    """ACP `plan_removed`."""

    plan_id: str


@dataclass(frozen=True, slots=True)
class CompactionChanged:
    """`compaction_update`: the agent compacts its context (`in_progress`) or is done; the
    summary when it comes whole with the end."""

    compaction_id: str
    status: CompactionStatus
    summary: str | None = None
    error: str | None = None


@dataclass(frozen=True, slots=True)
class CompactionChunk:
    """`compaction_summary_chunk`: a piece of the summary, streamed."""

    compaction_id: str
    text: str


@dataclass(frozen=True, slots=True)
class SubagentChanged:
    """`subagent_update`: a child session this session runs, announced or changed (`None`
    fields unchanged)."""

    session_id: str
    title: str | None = None
    description: str | None = None
    cwd: str | None = None
    state: SubagentState | None = None
    stop_reason: str | None = None
    error: str | None = None
    can_cancel: bool | None = None


@dataclass(frozen=True, slots=True)
class SessionMessage:
    """`session_message`: a message between two sessions (a prompt to a sub-agent, its
    reply)."""

    message_id: str
    text: str
    sender: str | None = None
    recipient: str | None = None


@dataclass(frozen=True, slots=True)
class ChildEvent:
    """An event of the sub-agent session `session_id`, handed to its parent's handler."""

    session_id: str
    event: SessionEvent


SessionEvent = (
    TextDelta
    | ToolChange
    | PlanChanged
    | CommandsChanged
    | UsageChanged
    | ModeChanged
    | OptionsChanged
    | SessionTitled
    | UserText
    | PlanContentChanged
    | PlanRemoved
    | CompactionChanged
    | CompactionChunk
    | SubagentChanged
    | SessionMessage
    | ChildEvent
    | Unhandled
)


@dataclass(frozen=True, slots=True)
class PermissionChoice:
    option_id: str
    name: str
    kind: OptionKind


@dataclass(frozen=True, slots=True)
class PermissionAsked:
    """The agent asks before running a tool. Whoever handles it sets `reply` to the chosen
    option id, or to None (cancelled); the agent gets that answer."""

    tool: ToolChange
    options: tuple[PermissionChoice, ...]
    reply: asyncio.Future[str | None] = field(compare=False)
    # Sidekicks' own question (a write outside the agent's folders), not the agent's: no
    # "always allow" rule answers it.
    own: bool = False
    session: str = ""  # a sub-agent's session that asks (shown in its parent), "" for its own


AuthType = Literal["agent", "env_var", "terminal"]


@dataclass(frozen=True, slots=True)
class AuthVar:
    """An environment variable an `env_var` sign-in method needs."""

    name: str
    secret: bool = True  # ACP's default: a variable holds a secret unless the agent says not
    label: str | None = None


@dataclass(frozen=True, slots=True)
class AuthMethod:
    """One way to sign in to an agent, from its `initialize` answer (`authMethods`)."""

    id: str
    name: str
    description: str = ""
    type: AuthType = "agent"  # ACP: a method without `type` is handled by the agent itself
    vars: tuple[AuthVar, ...] = ()
    link: str | None = None
    # `terminal` methods: what to run in a terminal where the person signs in. `command` is
    # None for ACP's own terminal methods (the agent's own command, with `args` appended);
    # claude and opencode name a command of their own in `_meta["terminal-auth"]`.
    command: str | None = None
    args: tuple[str, ...] = ()
    env: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class SessionMode:
    """A mode the agent offers for a session (ACP `modes.availableModes`)."""

    id: str
    name: str
    description: str = ""


@dataclass(frozen=True, slots=True)
class SessionSetup:
    """What `session/new` or `session/load` announced besides the id: modes and options."""

    session_id: str
    modes: tuple[SessionMode, ...] = ()
    mode_id: str | None = None
    options: tuple[SessionOption, ...] = ()
