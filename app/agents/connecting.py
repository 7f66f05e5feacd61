"""An agent's connection wired to the app: its log lines become `agent:log`, its exit or lost
connection and its need to sign in are told to the supervisor, which owns the agent's state."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from app.agents.runtime import AgentRuntime, launch
from app.config.model import AgentDef
from app.events import names
from app.events.bus import EventBus
from app.events.payloads import AgentLog
from app.i18n import N_
from app.i18n.text import Text, lazy

if TYPE_CHECKING:
    from app.acp.connection import AgentConnection

Failed = Callable[[AgentRuntime, "AgentConnection", Text], None]


def connection_for(
    runtime: AgentRuntime,
    definition: AgentDef,
    config_dir: Path,
    saved: dict[str, str],
    bus: EventBus,
    failed: Failed,
    announce: Callable[[AgentRuntime], None],
) -> AgentConnection:
    """The connection that starts `definition` (not yet started), with the saved sign-in
    values in its environment; `failed` is told when it exits by itself or is lost,
    `announce` when its need to sign in changes."""
    from app.agents.env_auth import EnvAuthConnection  # the SDK loads with the first agent

    command, env, cwd = launch(definition, config_dir)
    env = {**env, **saved}  # saved sign-in values override the YAML `env:` (newer intent)

    def on_log(line: str) -> None:
        bus.emit(names.AGENT_LOG, AgentLog(agent=definition.name, line=line))

    def on_exit(code: int | None) -> None:
        reason = lazy(N_("the agent stopped by itself (exit code {code})"), code=code)
        failed(runtime, conn, reason)

    def on_lost(reason: Text) -> None:
        failed(runtime, conn, reason)

    def on_sign_in_needed(needed: bool, hint: str = "") -> None:
        hint = hint if needed else ""
        if runtime.conn is conn and (runtime.needs_sign_in, runtime.sign_in_hint) != (needed, hint):
            runtime.needs_sign_in, runtime.sign_in_hint = needed, hint
            announce(runtime)

    conn = EnvAuthConnection(
        command,
        env,
        cwd,
        on_log,
        on_exit,
        definition.mcp_servers,
        runtime.logs,
        on_lost,
        on_sign_in_needed,
    )
    conn.yaml_env = frozenset(k for k, v in definition.env.items() if v)
    return conn
