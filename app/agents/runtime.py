"""One configured agent at run time: its definition, state, process and log."""

from __future__ import annotations

import asyncio
from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from app.acp.stderr import LOG_LINES
from app.config.model import AgentDef
from app.models.agents import AgentInfo, AgentState, AuthMethodInfo, AuthVarInfo

if TYPE_CHECKING:
    from app.acp.connection import AgentConnection
    from app.acp.updates import AuthMethod


@dataclass
class AgentRuntime:
    definition: AgentDef
    state: AgentState = "stopped"
    error: str = ""
    conn: AgentConnection | None = None
    started_with: AgentDef | None = None  # the definition the running process was started from
    users: int = 0  # conversations using it right now
    last_used: float = 0.0
    start_task: asyncio.Task[AgentConnection] | None = None
    stop_after_start: bool = False
    removed: bool = False
    logs: deque[str] = field(default_factory=lambda: deque(maxlen=LOG_LINES))
    auth_methods: tuple[AuthMethod, ...] = ()  # from the last handshake
    needs_sign_in: bool = False

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
            and self.started_with != self.definition
        )

    def info(self) -> AgentInfo:
        d = self.definition
        return AgentInfo(
            name=d.name,
            title=d.display_title,
            icon=d.icon,
            description=d.description,
            state=self.state,
            error=self.error,
            outdated=self.outdated,
            auth_methods=[_auth_info(m) for m in self.auth_methods],
            needs_sign_in=self.needs_sign_in,
        )


def _auth_info(method: AuthMethod) -> AuthMethodInfo:
    return AuthMethodInfo(
        id=method.id,
        name=method.name,
        description=method.description,
        type=method.type,
        vars=[AuthVarInfo(name=v.name, secret=v.secret, label=v.label or "") for v in method.vars],
        link=method.link or "",
    )
