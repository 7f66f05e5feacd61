"""What the UI sees of an agent (SPEC §1, §3 AgentService.List)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from app.models.wire import WireModel

AgentState = Literal["stopped", "starting", "ready", "busy", "error"]
AuthType = Literal["agent", "env_var", "terminal"]


class AuthVarInfo(WireModel):
    """An environment variable an `env_var` sign-in method needs."""

    name: str
    secret: bool = True
    label: str = ""


class AuthMethodInfo(WireModel):
    """One way to sign in to the agent, as it announced it (`authMethods` of `initialize`)."""

    id: str
    name: str
    description: str = ""
    type: AuthType = "agent"
    vars: list[AuthVarInfo] = Field(default_factory=list)
    link: str = ""
    # `terminal` methods: the command line the sign-in terminal runs (shown before it runs).
    command: list[str] = Field(default_factory=list)
    # `env_var` methods: values are saved (keychain or owner-only file) and given at each start.
    saved: bool = False


class SignInTerminalInfo(WireModel):
    """Extension: a sign-in terminal that was opened (`SignInService.SignInTerminal`). Its
    output arrives as `signin:output`, its end as `signin:exited`."""

    terminal: str
    agent: str
    command: list[str] = Field(default_factory=list)


class AgentInfo(WireModel):
    name: str
    title: str
    icon: str = ""
    description: str = ""
    state: AgentState = "stopped"
    error: str = ""
    outdated: bool = False
    # Why the agent cannot start as configured (its program is not found), checked while it is
    # stopped or failed; "" when the program is there, or for a built-in agent.
    command_missing: str = ""
    # Known once the agent has started (its last start); empty before.
    auth_methods: list[AuthMethodInfo] = Field(default_factory=list)
    # The agent answered "authentication required" since its last sign-in or new session.
    needs_sign_in: bool = False
    # Why a sign-in may be needed when the agent did not say so: its error on a session or a
    # prompt that failed before any sign-in succeeded, while it announced sign-in methods
    # (claude-agent-acp without credentials: -32603 "Claude Code process exited with code 1").
    # "" when it said "authentication required" itself, or needs nothing.
    sign_in_hint: str = ""
    # Whether it lists its own sessions (ACP session/list), known once it has started (null
    # before): the card offers its Sessions only when it may.
    lists_sessions: bool | None = None
