"""Channels, messages and their parts, with the SPEC §4 field names (camelCase on the wire)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from app.models.wire import WireModel

Role = Literal["user", "agent", "system"]
StopReason = Literal["end_turn", "cancelled", "max_tokens", "max_turn_requests", "refusal"]
# "new-session" is an extension (issue 17): the divider after which members start afresh.
SystemCode = Literal[
    "agent-joined", "agent-left", "no-recipient", "agent-unavailable", "new-session", "restored"
]
ToolKind = Literal["read", "edit", "delete", "move", "search", "execute", "think", "fetch", "other"]
ToolStatus = Literal["pending", "in_progress", "completed", "failed"]
PartKind = Literal["text", "thought", "tool", "plan"]


class Channel(WireModel):
    id: str
    name: str = ""
    description: str = ""
    direct: str = ""
    members: list[str] = Field(default_factory=list)


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


class PlanEntry(WireModel):
    content: str
    status: Literal["pending", "in_progress", "completed"] = "pending"
    priority: Literal["high", "medium", "low"] = "medium"


class Part(WireModel):
    kind: PartKind
    text: str = ""
    tool: ToolCall | None = None
    plan: list[PlanEntry] | None = None


class Attachment(WireModel):
    """A file or an image attached to a user message (issue 15). `path` is absolute: the
    person's file, or for pasted/dropped images a copy in the configuration's data folder."""

    id: str
    kind: Literal["file", "image"]
    name: str
    path: str
    mime: str = ""
    size: int = 0


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
    code: SystemCode | None = None
    attachments: list[Attachment] = Field(default_factory=list)


class PermissionOption(WireModel):
    option_id: str
    name: str
    kind: Literal["allow_once", "allow_always", "reject_once", "reject_always"]


class Usage(WireModel):
    used: int
    size: int = 0


class Command(WireModel):
    name: str
    description: str = ""
    hint: str = ""
