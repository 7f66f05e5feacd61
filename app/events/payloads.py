"""The typed payload of every event (SPEC §2, §4). `EVENT_PAYLOADS` maps name → model."""

from __future__ import annotations

from pydantic import Field

from app.events import names
from app.models.agents import AgentState
from app.models.changes import FileChange
from app.models.conversation import (
    Channel,
    Command,
    Handoff,
    Message,
    Part,
    PartKind,
    PermissionOption,
    ToolCall,
    Usage,
)
from app.models.elicitation import ElicitationRequested, ElicitationResolved
from app.models.finding import AttentionCounts, NotificationOpened, PermissionRulesChanged
from app.models.gallery import InstallProgress
from app.models.problems import Problem
from app.models.sessions import MemberSession
from app.models.wire import WireModel


class ConfigChanged(WireModel):
    """The file was saved or reloaded. `problems` holds problems and warnings (see `warning`)."""

    path: str
    valid: bool
    problems: list[Problem] = Field(default_factory=list)


class AgentStateChanged(WireModel):
    agent: str
    state: AgentState
    error: str | None = None


class AgentEvicted(WireModel):
    """Extension (issue 29): `agent`, idle, was stopped so that `forAgent` could start without
    going over `limits.maxRunningAgents` (`limit`). Its newest direct conversation also gets a
    `made-room` system message."""

    agent: str
    for_agent: str
    limit: int


class AgentLog(WireModel):
    agent: str
    line: str


class ChannelsChanged(WireModel):
    channels: list[Channel]


class MessageUpdated(WireModel):
    channel: str
    message: Message


class MessageDelta(WireModel):
    """`text` is appended to part `index` (text, thought), or `part` replaces it (tool, plan)."""

    channel: str
    message_id: str
    index: int
    kind: PartKind
    text: str | None = None
    part: Part | None = None


class TurnChanged(WireModel):
    channel: str
    busy: bool
    queued: int
    answering: str = ""
    # Issue 28: the answer under way is this hand-off (its index, budget, and whose answer it
    # follows); null for a turn of the person's message.
    handoff: Handoff | None = None
    # Issue 29: the recipients of the message being answered still to answer it, in order, after
    # `answering` (the turn line's "then @alice").
    next: list[str] = Field(default_factory=list)


class PermissionRequested(WireModel):
    id: str
    channel: str
    agent: str
    message_id: str
    tool_call: ToolCall
    options: list[PermissionOption]
    rejections: int = 0
    # Sidekicks asks this itself (a write outside the agent's folders): an "always allow" rule
    # never answers it, and answering it gives none.
    asked_by_sidekicks: bool = False


class PermissionResolved(WireModel):
    id: str
    channel: str


class UsageChanged(WireModel):
    channel: str
    agent: str
    usage: Usage


class CommandsChanged(WireModel):
    agent: str
    commands: list[Command]


class SessionChanged(WireModel):
    """Extension: a member's session offers or is set to other modes or options."""

    channel: str
    agent: str
    session: MemberSession


class SignInTerminalOutput(WireModel):
    """Extension: output of a sign-in terminal (`terminal` sign-in methods), as text."""

    terminal: str
    data: str


class SignInTerminalExited(WireModel):
    """Extension: a sign-in terminal's command ended; the agent was restarted to use the new
    credentials when it ran. `code` is None when it was killed by a signal."""

    terminal: str
    agent: str
    code: int | None = None


class SignInPrompt(WireModel):
    """Extension: a sign-in in progress printed a web address to open and/or asks for a code
    (app/agents/sign_in_prompts.py): an `agent` method's agent on its stdout (`terminal` is
    ""), or a sign-in terminal's program. Sent again when either changes."""

    agent: str
    terminal: str = ""
    url: str = ""
    asks_code: bool = False


class TerminalOutput(WireModel):
    """Extension: new output of a command an agent runs (`data` as text, ANSI included)."""

    channel: str
    agent: str
    message_id: str
    terminal: str
    data: str


class TerminalExited(WireModel):
    """Extension: a command an agent ran ended (exit code, or the signal that killed it)."""

    channel: str
    agent: str
    message_id: str
    terminal: str
    exit_code: int | None = None
    signal: str | None = None


class ChangesChanged(WireModel):
    """Extension: file changes recorded or reverted in a channel (the changed records)."""

    channel: str
    changes: list[FileChange]
    # Records no longer kept: an answer's writes merged into one record per file when it ended.
    removed: list[str] = Field(default_factory=list)


class CheckpointsChanged(WireModel):
    """Extension: an answer of the channel was checkpointed (started or ended), or checkpoints
    were cleared (`channel` "": any channel's). CheckpointService.Checkpoints has the list."""

    channel: str


EVENT_PAYLOADS: dict[str, type[WireModel]] = {
    names.CONFIG_CHANGED: ConfigChanged,
    names.AGENT_STATE: AgentStateChanged,
    names.AGENT_LOG: AgentLog,
    names.CHANNELS_CHANGED: ChannelsChanged,
    names.MESSAGE_UPDATED: MessageUpdated,
    names.MESSAGE_DELTA: MessageDelta,
    names.TURN_CHANGED: TurnChanged,
    names.PERMISSION_REQUESTED: PermissionRequested,
    names.PERMISSION_RESOLVED: PermissionResolved,
    names.USAGE_CHANGED: UsageChanged,
    names.COMMANDS_CHANGED: CommandsChanged,
    names.SESSION_CHANGED: SessionChanged,
    names.SIGN_IN_TERMINAL_OUTPUT: SignInTerminalOutput,
    names.SIGN_IN_TERMINAL_EXITED: SignInTerminalExited,
    names.SIGN_IN_PROMPT: SignInPrompt,
    names.TERMINAL_OUTPUT: TerminalOutput,
    names.TERMINAL_EXITED: TerminalExited,
    names.CHANGES_CHANGED: ChangesChanged,
    names.CHECKPOINTS_CHANGED: CheckpointsChanged,
    names.ATTENTION_CHANGED: AttentionCounts,
    names.NOTIFICATION_OPENED: NotificationOpened,
    names.PERMISSION_RULES_CHANGED: PermissionRulesChanged,
    names.ELICITATION_REQUESTED: ElicitationRequested,
    names.ELICITATION_RESOLVED: ElicitationResolved,
    names.INSTALL_PROGRESS: InstallProgress,
    names.AGENT_EVICTED: AgentEvicted,
}
