"""Agent errors, typed, and as sentences for a person. Kept apart from the SDK (importing `acp`
costs ~0.4 s), so the app starts without loading it; the SDK is imported when the first agent
starts, and app/acp/connection.py turns the SDK's errors into these at the boundary."""

from __future__ import annotations

import asyncio

from app.core.text import valid_text
from app.i18n import _

AUTH_REQUIRED = -32000  # ACP: "Authentication required"


class AgentStartError(Exception):
    """The start failed; the message is the reason followed by the last stderr lines."""


class AgentRequestError(Exception):
    """The agent answered a request with a JSON-RPC error."""

    def __init__(self, code: int, message: str, data: object = None) -> None:
        super().__init__(message)
        self.code = code
        self.data = data

    @property
    def auth_required(self) -> bool:
        return self.code == AUTH_REQUIRED


def with_stderr(reason: str, lines: list[str]) -> str:
    if not lines:
        return reason
    return reason + "\n" + "\n".join(lines)


def describe_error(err: BaseException) -> str:
    """An agent's JSON-RPC error, or a dead connection, as a sentence for a person."""
    if isinstance(err, AgentRequestError):
        data = err.data
        details = data.get("details") if isinstance(data, dict) else data
        extra = f" ({details})" if details and str(details) not in str(err) else ""
        return valid_text(f"{err}{extra}")
    if isinstance(err, ConnectionError):
        return _("the agent's connection closed (it stopped or crashed)")
    if isinstance(err, TimeoutError | asyncio.TimeoutError):
        return _("the agent did not answer in time")
    return f"{type(err).__name__}: {err}"
