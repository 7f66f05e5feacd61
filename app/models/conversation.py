"""Channels, messages and their parts, with the SPEC §4 field names (camelCase on the wire)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from app.models.wire import WireModel

Role = Literal["user", "agent", "system"]
StopReason = Literal["end_turn", "cancelled", "max_tokens", "max_turn_requests", "refusal"]
# "new-session" is an extension (issue 17): the divider after which members start afresh.
# "handoff-limit" and "handoffs-stopped" are issue 28's: a chain of hand-offs held at its budget
# (Continue sends it on), and one Stop ended (app/channels/handoffs/). "made-room" is issue 29's:
# the agent, idle, was stopped so that another could start (`madeRoom` says which, and the limit).
# "recipients-dropped" is issue 29's: Stop ended a message before these recipients (`dropped`)
# answered it.
SystemCode = Literal[
    "agent-joined",
    "agent-left",
    "no-recipient",
    "agent-unavailable",
    "new-session",
    "restored",
    "handoff-limit",
    "handoffs-stopped",
    "recipients-dropped",
    "made-room",
]
ToolKind = Literal["read", "edit", "delete", "move", "search", "execute", "think", "fetch", "other"]
ToolStatus = Literal["pending", "in_progress", "completed", "failed"]
# "compaction" and "subagent" are of the stream of 2026 (issue 26).
PartKind = Literal["text", "thought", "tool", "plan", "compaction", "subagent"]
CompactionStatus = Literal["in_progress", "completed", "failed", "cancelled"]
SubagentState = Literal["running", "requires_action", "idle", "unknown"]


class Channel(WireModel):
    id: str
    name: str = ""
    description: str = ""
    direct: str = ""
    members: list[str] = Field(default_factory=list)
    # Issue 28, a direct conversation's title (app/channels/conversations.py; "" = none yet) and
    # when it was made and last written to by the person (ISO UTC): the sidebar's order.
    title: str = ""
    created_at: str = ""
    last_activity: str = ""
    # Issue 28: hand-offs allowed per message of the person (0 = off; app/channels/handoffs/).
    handoffs: int = 3
    # Issue 28: the channel and message it was forked from (ForkService.Fork), None otherwise.
    forked_from: ForkOrigin | None = None


class ForkOrigin(WireModel):
    """Where a fork began: the source channel's id and shown name then (it may be renamed or
    deleted since), and the message it was forked at (the source's id of it)."""

    channel: str
    message: str
    name: str = ""


class Handoff(WireModel):
    """Issue 28: an agent's answer that mentioned other members, routed to them. On an answer:
    it is hand-off `index` of `budget`, from `fromAgent`. On a `handoff-limit` or
    `handoffs-stopped` system message: the members `to` it was not sent to."""

    from_agent: str
    index: int = 0
    budget: int = 0
    to: list[str] = Field(default_factory=list)


class Diff(WireModel):
    path: str
    old_text: str = ""
    new_text: str = ""
    new_file: bool = False


class Location(WireModel):
    path: str
    line: int | None = None


class TerminalView(WireModel):
    """A command an agent ran through Sidekicks (ACP `terminal/*`), shown in its tool call.
    `output` is the tail kept (ANSI sequences included: the page renders them); `exitCode` or
    `signal` once it ended."""

    id: str
    command: str = ""
    output: str = ""
    truncated: bool = False
    running: bool = True
    exit_code: int | None = None
    signal: str | None = None


class ToolCall(WireModel):
    id: str
    title: str = ""
    kind: ToolKind = "other"
    status: ToolStatus = "pending"
    input: str = ""
    output: str = ""
    locations: list[Location] = Field(default_factory=list)
    diffs: list[Diff] = Field(default_factory=list)
    terminals: list[TerminalView] = Field(default_factory=list)
    # Extension (issue 17): the id of the "always allow" rule that answered this tool call's
    # permission request without asking the person ("" when none did): its card says so.
    allowed_by_rule: str = ""
    # Extension (issue 29): the person answered this tool call's permission request with a
    # reject option (`reject_once`, `reject_always`): its card says "rejected", not "failed"
    # (the agent then reports it `failed`). An allow given to a later request clears it.
    rejected: bool = False
    # The sub-agent sessions this tool call runs (ACP `session` content, issue 26): their
    # parts are shown in its card.
    sessions: list[str] = Field(default_factory=list)


class PlanEntry(WireModel):
    content: str
    status: Literal["pending", "in_progress", "completed"] = "pending"
    priority: Literal["high", "medium", "low"] = "medium"


class Compaction(WireModel):
    """The agent compacting its context (`compaction_update`), with the summary it kept."""

    id: str
    status: CompactionStatus = "in_progress"
    summary: str = ""
    error: str = ""


class Part(WireModel):
    kind: PartKind
    text: str = ""
    tool: ToolCall | None = None
    plan: list[PlanEntry] | None = None
    # Issue 26. The ACP `messageId` of a text or thought part ("" when the agent gave none);
    # the id of a `plan_update` plan (its Markdown in `text`, or a file's URI in `planUri`),
    # `removed` once `plan_removed` said so; a compaction; a sub-agent session.
    message_id: str = ""
    plan_id: str = ""
    plan_uri: str = ""
    removed: bool = False
    compaction: Compaction | None = None
    subagent: Subagent | None = None


class Subagent(WireModel):
    """A child session the agent runs (`subagent_update`), its messages nested: the prompt it
    was given, its own parts as they stream, its reply to the parent."""

    session_id: str
    title: str = ""
    description: str = ""
    cwd: str = ""
    state: SubagentState = "running"
    stop_reason: str = ""
    error: str = ""
    can_cancel: bool = False
    prompt: str = ""
    reply: str = ""
    parts: list[Part] = Field(default_factory=list)


class Attachment(WireModel):
    """A file or an image attached to a user message (issue 15). `path` is absolute: the
    person's file, or for pasted/dropped images a copy in the configuration's data folder."""

    id: str
    kind: Literal["file", "image"]
    name: str
    path: str
    mime: str = ""
    size: int = 0


class MadeRoom(WireModel):
    """A `made-room` line: the agent was stopped to start `forAgent` under the limit."""

    for_agent: str
    limit: int


class Message(WireModel):
    id: str
    channel: str
    created_at: str
    role: Role
    agent: str = ""
    parts: list[Part] = Field(default_factory=list)
    done: bool = True
    queued: bool = False
    stop_reason: StopReason | None = None
    error: str = ""
    # What the failure's sentence leaves out (the agent's code, message and `data` as sent):
    # shown folded under it ("" when the sentence says it all).
    error_details: str = ""
    code: SystemCode | None = None
    attachments: list[Attachment] = Field(default_factory=list)
    handoff: Handoff | None = None  # issue 28 (see Handoff)
    # Issue 29, on a `recipients-dropped` line: the recipients Stop left without answering.
    dropped: list[str] = Field(default_factory=list)
    made_room: MadeRoom | None = None  # issue 29 (see MadeRoom)


class PermissionOption(WireModel):
    option_id: str
    name: str
    kind: Literal["allow_once", "allow_always", "reject_once", "reject_always"]


class Cost(WireModel):
    """What a session cost so far (ACP `usage_update.cost`)."""

    amount: float
    currency: str


class RateLimit(WireModel):
    """A rate-limit window of the agent's account (claude's `_claude/rateLimit`): `window` is
    five_hour, seven_day, …; `utilization` 0–1; `resetsAt` in seconds since the epoch."""

    window: str
    status: str = "allowed"
    utilization: float | None = None
    resets_at: float | None = None


class Usage(WireModel):
    used: int
    size: int = 0
    cost: Cost | None = None
    rate_limits: list[RateLimit] = Field(default_factory=list)


class Command(WireModel):
    name: str
    description: str = ""
    hint: str = ""


Part.model_rebuild()  # Part and Subagent name each other
