"""The agent's own sessions (ACP `session/list`, `session/resume`, `session/close`, `logout`):
what the agent advertises of them, and its list of sessions read page by page.

`session/list` is paged: each answer may give a `nextCursor`, sent back for the next page until
there is none. A cap holds against an agent that never stops (or repeats a cursor).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from acp.meta import AGENT_METHODS
from acp.schema import (
    AgentCapabilities,
    ListSessionsResponse,
    LogoutRequest,
    LogoutResponse,
    ResumeSessionRequest,
    SessionInfo,
)
from acp.utils import request_model_from_dict

from app.acp import session_models
from app.acp.link import Link
from app.acp.session_fork import fork_session, forks
from app.acp.session_titles import title_text
from app.acp.translate import session_setup
from app.acp.updates import SessionSetup
from app.acp.workspace import session_cwd
from app.core.text import valid_text

if TYPE_CHECKING:
    from app.acp.client import SessionHandler, SidekicksClient
    from app.acp.workspace import Workspace

SESSION_TIMEOUT = 120.0  # as app/acp/connection.py's

MAX_PAGES = 20
MAX_SESSIONS = 500
CLOSE_TIMEOUT = 5.0


@dataclass(frozen=True, slots=True)
class ListedSession:
    """One of the agent's sessions, as `session/list` describes it."""

    session_id: str
    cwd: str
    title: str = ""
    updated_at: str = ""  # ISO 8601, as the agent gives it ("" when it does not)


@dataclass(frozen=True, slots=True)
class SessionSupport:
    """Which of the session lifecycle methods the agent advertised in `initialize`."""

    list: bool = False
    resume: bool = False
    close: bool = False
    logout: bool = False
    fork: bool = False  # `session/fork` (app/acp/session_fork.py)


def session_support(caps: AgentCapabilities | None) -> SessionSupport:
    sessions = caps.session_capabilities if caps else None
    auth = caps.auth if caps else None
    return SessionSupport(
        list=bool(sessions and sessions.list is not None),
        resume=bool(sessions and sessions.resume is not None),
        close=bool(sessions and sessions.close is not None),
        logout=bool(auth is not None and getattr(auth, "logout", None) is not None),
        fork=forks(caps),
    )


def listed(info: SessionInfo) -> ListedSession:
    return ListedSession(
        session_id=valid_text(str(info.session_id)),
        cwd=valid_text(info.cwd),
        title=title_text(info.title),
        updated_at=valid_text(info.updated_at or ""),
    )


async def all_sessions(
    page: Callable[[str | None], Awaitable[ListSessionsResponse]],
) -> tuple[ListedSession, ...]:
    """Every session the agent lists, following `nextCursor` until it is absent — at most
    MAX_PAGES pages and MAX_SESSIONS sessions; a cursor seen before ends the list too."""
    found: list[ListedSession] = []
    seen_ids: set[str] = set()
    cursors: set[str] = set()
    cursor: str | None = None
    for _ in range(MAX_PAGES):
        response = await page(cursor)
        for info in response.sessions:
            session = listed(info)
            if session.session_id and session.session_id not in seen_ids:
                seen_ids.add(session.session_id)
                found.append(session)
        cursor = response.next_cursor
        if not cursor or cursor in cursors or len(found) >= MAX_SESSIONS:
            break
        cursors.add(cursor)
    return tuple(found[:MAX_SESSIONS])


async def logout(conn: Any) -> None:
    """ACP `logout`. Remove when the SDK has it: its ClientSideConnection (0.12.1) has the
    method's name and types (meta.py, schema.py) but no `logout`, so the request is sent
    through its JSON-RPC connection (`_conn`, a private attribute) with the SDK's own types."""
    rpc = conn._conn  # private (see above)
    await request_model_from_dict(rpc, AGENT_METHODS["logout"], LogoutRequest(), LogoutResponse)


class OwnSessions:
    """The requests of the agent's own sessions, on one connection (AgentConnection's
    `own_sessions`)."""

    def __init__(
        self,
        link: Link,
        client: SidekicksClient,
        cwd: str,
        mcp_servers: Callable[[], list[Any]],
        on_sign_in_needed: Callable[[bool], None],
    ) -> None:
        self._link, self._client, self._cwd = link, client, cwd
        self._mcp_servers, self._on_sign_in_needed = mcp_servers, on_sign_in_needed

    async def list(self) -> tuple[ListedSession, ...]:
        """ACP `session/list` for the agent's folder, every page."""
        link, cwd = self._link, self._cwd
        return await all_sessions(
            lambda cursor: link.request(
                link.conn.list_sessions(cwd=cwd, cursor=cursor), SESSION_TIMEOUT
            )
        )

    async def resume(
        self, session_id: str, handler: SessionHandler, workspace: Workspace | None = None
    ) -> SessionSetup:
        """ACP `session/resume`: the session goes on without replaying its history (the
        conversation already has it). The modes and options it has."""
        link = self._link
        self._client.attach(session_id, handler, workspace)
        try:
            response = await link.request(
                session_models.request(
                    link.conn,
                    AGENT_METHODS["session_resume"],
                    ResumeSessionRequest(
                        session_id=session_id,
                        cwd=session_cwd(workspace, Path(self._cwd)),
                        mcp_servers=self._mcp_servers(),
                    ),
                    session_models.ResumeSessionResponseWithModels,  # with the older `models`
                ),
                SESSION_TIMEOUT,
            )
        except BaseException:
            self._client.detach(session_id)
            raise
        return session_setup(session_id, response)

    async def fork(
        self, session_id: str, handler: SessionHandler, workspace: Workspace | None = None
    ) -> SessionSetup:
        """ACP `session/fork`: a new session with `session_id`'s context (session_fork.py)."""
        return await fork_session(
            self._link,
            self._client,
            session_cwd(workspace, Path(self._cwd)),
            self._mcp_servers,
            session_id,
            handler,
            workspace,
        )

    async def close(self, session_id: str) -> None:
        """ACP `session/close`: the agent may free the session (errors are the caller's)."""
        try:
            await self._link.request(
                self._link.conn.close_session(session_id=session_id), CLOSE_TIMEOUT
            )
        finally:
            self._client.detach(session_id)

    async def logout(self) -> None:
        """ACP `logout`: the agent forgets its sign-in."""
        await self._link.request(logout(self._link.conn), SESSION_TIMEOUT)
        self._on_sign_in_needed(True)
