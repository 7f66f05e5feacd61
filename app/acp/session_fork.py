"""ACP `session/fork` (unstable in the 2026 schema): a new session holding the context of an
existing one, `{sessionId, cwd, mcpServers}` → `{sessionId, modes, configOptions}`. The pinned SDK
(0.12.1) types the request, its answer and `sessionCapabilities.fork`; its answer is read here
with the older `models` too, as `session/new`'s is (app/acp/session_models.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from acp.meta import AGENT_METHODS
from acp.schema import AgentCapabilities, ForkSessionRequest, ForkSessionResponse
from pydantic import ValidationError, field_validator

from app.acp import session_models
from app.acp.link import Link
from app.acp.session_models import SessionModelState
from app.acp.translate import session_setup
from app.acp.updates import SessionSetup

if TYPE_CHECKING:
    from app.acp.client import SessionHandler, SidekicksClient
    from app.acp.workspace import Workspace

FORK_TIMEOUT = 120.0  # as session/new's: the agent may copy a long session


class ForkSessionResponseWithModels(ForkSessionResponse):
    """`session/fork`'s answer with its `models` (remove when the SDK has it)."""

    models: SessionModelState | None = None

    @field_validator("models", mode="wrap")
    @classmethod
    def _salvage_models(cls, value: Any, handler: Any) -> Any:
        try:  # a malformed `models` field is as if the agent had sent none
            return handler(value)
        except ValidationError:
            return None


def forks(caps: AgentCapabilities | None) -> bool:
    """Whether the agent advertised `sessionCapabilities.fork` in `initialize`."""
    sessions = caps.session_capabilities if caps else None
    return bool(sessions and sessions.fork is not None)


async def fork_session(
    link: Link,
    client: SidekicksClient,
    cwd: str,
    mcp_servers: Callable[[], list[Any]],
    session_id: str,
    handler: SessionHandler,
    workspace: Workspace | None = None,
) -> SessionSetup:
    """ACP `session/fork` of `session_id`: the new session's id, modes and options; its events
    go to `handler` (those sent before the answer are replayed to it by the client)."""
    response = await link.request(
        session_models.request(
            link.conn,
            AGENT_METHODS["session_fork"],
            ForkSessionRequest(session_id=session_id, cwd=cwd, mcp_servers=mcp_servers()),
            ForkSessionResponseWithModels,
        ),
        FORK_TIMEOUT,
    )
    forked = str(response.session_id)
    client.attach(forked, handler, workspace)
    return session_setup(forked, response)
