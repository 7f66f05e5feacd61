"""One configured agent at run time: its definition, state, process and log."""

from __future__ import annotations

import asyncio
import os
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from app.acp.stderr import LOG_LINES
from app.agents.builtin import builtin_command
from app.config.model import AgentDef
from app.i18n import _
from app.i18n.text import Text
from app.models.agents import AgentInfo, AgentState, AuthMethodInfo, AuthVarInfo
from app.paths import find_program, resolve_cwd

# How the app shows an agent: the process never sees these, so changing them needs no restart.
PRESENTATION_FIELDS = frozenset({"title", "icon", "description"})


def process_sees_change(before: AgentDef, after: AgentDef) -> bool:
    """Whether `after` differs from `before` in something the agent's process is started with
    (command, env, cwd, folders, MCP servers, presets…), not only in how the app shows it."""
    return before.model_dump(exclude=set(PRESENTATION_FIELDS)) != after.model_dump(
        exclude=set(PRESENTATION_FIELDS)
    )


if TYPE_CHECKING:
    from app.acp.connection import AgentConnection
    from app.acp.updates import AuthMethod


@dataclass
class AgentRuntime:
    definition: AgentDef
    state: AgentState = "stopped"
    # Why it failed: a Text is said in the language current when the info is read (a language
    # switch re-announces the agents in error, see Supervisor.apply_config).
    error: str | Text = ""
    conn: AgentConnection | None = None
    started_with: AgentDef | None = None  # the definition the running process was started from
    users: int = 0  # conversations using it right now
    last_used: float = 0.0
    start_task: asyncio.Task[AgentConnection] | None = None
    stop_after_start: bool = False
    removed: bool = False
    logs: deque[str] = field(default_factory=lambda: deque(maxlen=LOG_LINES))
    auth_methods: tuple[AuthMethod, ...] = ()  # from the last handshake
    lists_sessions: bool | None = None  # whether it offers session/list; None: not started yet
    logs_out: bool = False  # it advertised ACP `logout` at its last start
    needs_sign_in: bool = False
    sign_in_hint: str = ""  # the agent's error when the need is only likely (AgentInfo's)
    saved_method: str | None = None  # the `env_var` method whose values are saved
    auth_failure: str = ""  # why `authenticate` with the saved values failed at the last start
    config_dir: Path | None = None  # the configuration file's folder (relative cwd, programs)

    @property
    def name(self) -> str:
        return self.definition.name

    @property
    def running(self) -> bool:
        return self.state in ("starting", "ready", "busy")

    @property
    def outdated(self) -> bool:
        return (
            self.state in ("ready", "busy")
            and self.started_with is not None
            and process_sees_change(self.started_with, self.definition)
        )

    def info(self) -> AgentInfo:
        d = self.definition
        return AgentInfo(
            name=d.name,
            title=d.display_title,
            icon=d.icon,
            description=d.description,
            state=self.state,
            error=str(self.error),
            outdated=self.outdated,
            command_missing=self.command_missing(),
            auth_methods=[self._auth_info(m) for m in self.auth_methods],
            needs_sign_in=self.needs_sign_in,
            sign_in_hint=self.sign_in_hint if self.needs_sign_in else "",
            lists_sessions=self.lists_sessions,
        )

    def command_missing(self) -> str:
        """Said on the card before a start that would fail: the program is looked up as the
        start would (the agent's PATH and folder), each time, so installing it clears this."""
        d = self.definition
        if self.running or d.builtin is not None or not d.command or self.config_dir is None:
            return ""
        command, env, cwd = launch(d, self.config_dir)
        path_var = env.get("PATH", os.environ.get("PATH", ""))
        if find_program(command[0], cwd, path_var) is not None:
            return ""
        return _("{program} was not found on PATH: the agent will not start").format(
            program=f"`{command[0]}`"
        )

    def terminal_command(self, method: AuthMethod) -> list[str]:
        """What a `terminal` method runs: the command it names (claude, opencode), else the
        agent's own command with the method's `args`; [] for a built-in agent."""
        if method.command:
            return [method.command, *method.args]
        if self.definition.builtin is not None or not self.definition.command:
            return []
        return [*self.definition.command, *method.args]

    def _auth_info(self, method: AuthMethod) -> AuthMethodInfo:
        return AuthMethodInfo(
            id=method.id,
            name=method.name,
            description=method.description,
            type=method.type,
            vars=[
                AuthVarInfo(name=v.name, secret=v.secret, label=v.label or "") for v in method.vars
            ],
            link=method.link or "",
            command=self.terminal_command(method) if method.type == "terminal" else [],
            saved=method.type == "env_var" and method.id == self.saved_method,
        )


def launch(definition: AgentDef, config_dir: Path) -> tuple[list[str], dict[str, str], Path]:
    """The agent's command, its environment on top of ours (the YAML `env:`), its folder."""
    if definition.builtin is not None:
        command, env = builtin_command(definition.builtin)
    else:
        command, env = list(definition.command or []), {}
    env = {**env, **definition.env}
    cwd = resolve_cwd(definition.cwd, config_dir) if definition.cwd else Path.home()
    return command, env, cwd
