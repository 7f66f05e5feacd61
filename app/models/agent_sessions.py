"""An agent's own session as the page sees it (AgentService.Sessions, issue 26)."""

from __future__ import annotations

from app.models.wire import WireModel


class AgentSession(WireModel):
    """One of the sessions the agent keeps (ACP `session/list`): its id, title (may be empty),
    folder (the session's working directory) and last activity (ISO 8601, or empty)."""

    id: str
    title: str = ""
    folder: str = ""
    updated_at: str = ""
