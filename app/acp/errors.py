"""Agent errors, typed, and as sentences for a person. Kept apart from the SDK (importing `acp`
costs ~0.4 s), so the app starts without loading it; the SDK is imported when the first agent
starts, and app/acp/connection.py turns the SDK's errors into these at the boundary."""

from __future__ import annotations

import asyncio
from typing import overload

from app.acp.ansi import strip_ansi
from app.core.errors import UserError
from app.core.text import valid_text
from app.i18n import _
from app.i18n.text import Text

AUTH_REQUIRED = -32000  # ACP: "Authentication required"


class AgentStartError(Exception):
    """The start failed; the message is the reason followed by the last stderr lines (a Text:
    said in the language current when it is read)."""

    def __init__(self, reason: str | Text) -> None:
        super().__init__(reason)
        self.reason = reason

    def __str__(self) -> str:
        return str(self.reason)


class AgentRequestError(Exception):
    """The agent answered a request with a JSON-RPC error."""

    def __init__(self, code: int, message: str, data: object = None) -> None:
        super().__init__(message)
        self.code = code
        self.data = data

    @property
    def auth_required(self) -> bool:
        return self.code == AUTH_REQUIRED


@overload
def with_stderr(reason: str, lines: list[str]) -> str: ...
@overload
def with_stderr(reason: Text, lines: list[str]) -> Text: ...
def with_stderr(reason: str | Text, lines: list[str]) -> str | Text:
    if not lines:
        return reason
    detail = "\n".join(strip_ansi(line) for line in lines)
    if isinstance(reason, Text):
        return reason.with_detail(detail)
    return reason + "\n" + detail


# JSON-RPC's own texts for its codes: they say nothing the code does not.
GENERIC_MESSAGES = frozenset(
    {"internal error", "invalid params", "invalid request", "method not found", "parse error"}
)
# Where adapters put their explanation in `data`, most telling first (Claude: details, Codex:
# message); any other string value comes after.
EXPLANATION_KEYS = ("message", "details", "error")


def describe_error(err: BaseException) -> str:
    """An agent's JSON-RPC error, or a dead connection, as a sentence for a person."""
    if isinstance(err, AgentRequestError):
        return valid_text(_describe_request_error(err))
    if isinstance(err, ConnectionError):
        return _("the agent's connection closed (it stopped or crashed)")
    if isinstance(err, TimeoutError | asyncio.TimeoutError):
        return _("the agent did not answer in time")
    if isinstance(err, UserError):  # already a sentence (an attached file refused, …)
        return str(err)
    return f"{type(err).__name__}: {err}"


def _describe_request_error(err: AgentRequestError) -> str:
    message = strip_ansi(str(err)).strip()
    words = _unsaid([message, *_explanations(err.data)])
    if err.auth_required and not words:
        return _("the agent needs you to sign in")
    if err.auth_required:
        return _("the agent needs you to sign in ({words})").format(words="; ".join(words))
    if len(words) > 1 and message.lower() in GENERIC_MESSAGES:
        words = [*words[1:], message]  # the explanation leads, the generic text follows
    if not words:
        return message
    lead, *rest = words
    return f"{lead} ({'; '.join(rest)})" if rest else lead


def _explanations(data: object) -> list[str]:
    """The strings in `data` an agent may explain itself with, without escape codes."""
    if isinstance(data, str):
        return [strip_ansi(data).strip()]
    if not isinstance(data, dict):
        return []
    known = [data.get(key) for key in EXPLANATION_KEYS]
    others = [value for key, value in data.items() if key not in EXPLANATION_KEYS]
    return [strip_ansi(value).strip() for value in [*known, *others] if isinstance(value, str)]


def _unsaid(texts: list[str]) -> list[str]:
    """`texts` without empty ones and those already contained in an earlier one."""
    kept: list[str] = []
    for text in texts:
        if text and not any(text.lower() in said.lower() for said in kept):
            kept.append(text)
    return kept
