"""Agent errors, typed, and as sentences for a person. Kept apart from the SDK (importing `acp`
costs ~0.4 s), so the app starts without loading it; the SDK is imported when the first agent
starts, and app/acp/connection.py turns the SDK's errors into these at the boundary."""

from __future__ import annotations

import asyncio
import json
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
# message); any other value in words (with a space) comes after. Single tokens there (an error
# kind, a class or a code: `other`, `APIError`, `ECONNRESET`) are for machines: left out of the
# sentence, kept in the details.
EXPLANATION_KEYS = ("message", "details", "error")
# What a message may start with before the agent's own words ("Internal error: <words>", as
# RequestError.internalError(data, words) of the TypeScript SDK makes it), or before a JSON body.
GENERIC_PREFIXES = ("internal error", "error", "api error", "[api error")


def describe_error(err: BaseException) -> str:
    """An agent's JSON-RPC error, or a dead connection, as a sentence for a person: the agent's
    own words once, without the codes and kinds of its `data` (error_details keeps those)."""
    if isinstance(err, AgentRequestError):
        return valid_text(_describe_request_error(err))
    if isinstance(err, ConnectionError):
        return _("the agent's connection closed (it stopped or crashed)")
    if isinstance(err, TimeoutError | asyncio.TimeoutError):
        return _("the agent did not answer in time")
    if isinstance(err, UserError):  # already a sentence (an attached file refused, …)
        return str(err)
    return f"{type(err).__name__}: {err}"


def error_details(err: BaseException) -> str:
    """What describe_error leaves out of an agent's error, for a "details" fold and the agent's
    log: its code, message and `data` as the agent sent them ("" when the sentence says it all).
    Not redacted: a caller that may hold secrets in it (sign-in) does not show it."""
    if not isinstance(err, AgentRequestError):
        return ""
    message = strip_ansi(str(err)).strip()
    if err.data is None and _describe_request_error(err) == message:
        return ""
    details = f"{err.code} {message}"
    if err.data is not None:
        details += " " + _compact(err.data)
    return valid_text(details)


def _describe_request_error(err: AgentRequestError) -> str:
    raw = strip_ansi(str(err)).strip()
    message = _own_words(raw)
    generic = not message or message.lower() in GENERIC_MESSAGES
    words = _unsaid([message, *[_own_words(text) for text in _explanations(err.data)]])
    if err.auth_required and not words:
        return _("the agent needs you to sign in")
    if err.auth_required:
        return _("the agent needs you to sign in ({words})").format(words="; ".join(words))
    if generic and len(words) > 1:
        words = words[1:]  # the explanation says it: the generic text is left to the details
    if not words:
        return raw
    lead, *rest = words
    return f"{lead} ({'; '.join(rest)})" if rest else lead


def _own_words(text: str) -> str:
    """`text` without a generic lead ("Internal error: …"), a JSON error body as its message."""
    text = _json_message(text)
    lower = text.lower()
    for prefix in GENERIC_PREFIXES:
        rest = text[len(prefix) :]
        if lower.startswith(prefix) and rest.startswith(":") and rest[1:].strip():
            return _json_message(rest[1:].strip())
    return text


def _json_message(text: str) -> str:
    """A JSON error body (`{"error":{"code":401,"message":"…"}}`, after a generic lead or not)
    as its message; any other text as it is."""
    start = min((i for i in (text.find("{"), text.find("[")) if i >= 0), default=-1)
    if start < 0:
        return text
    try:
        body = json.loads(text[start:])
    except ValueError:
        return text
    found = _body_message(body)
    if not found:
        return text
    lead = text[:start].strip().rstrip(":").strip()
    if not lead or lead.lower() in GENERIC_PREFIXES or lead.lower() in GENERIC_MESSAGES:
        return found
    return f"{lead}: {found}"


def _body_message(body: object, depth: int = 0) -> str:
    """The message of a JSON error body: `error.message`, `message`, the first of a list; a
    message that is JSON again is read too (Gemini nests them)."""
    if depth > 4:
        return ""
    if isinstance(body, list):
        return _body_message(body[0], depth + 1) if body else ""
    if not isinstance(body, dict):
        return ""
    inner = body.get("error")
    if isinstance(inner, dict | list):
        return _body_message(inner, depth + 1)
    message = body.get("message")
    if not isinstance(message, str) or not message.strip():
        return inner.strip() if isinstance(inner, str) else ""
    message = strip_ansi(message).strip()
    nested = _json_message(message)
    return nested if nested != message else message


def _explanations(data: object) -> list[str]:
    """The words in `data` an agent may explain itself with, without escape codes: the
    explanation keys' strings, then other values that are words (not a single token)."""
    if isinstance(data, str):
        return [strip_ansi(data).strip()]
    if not isinstance(data, dict):
        return []
    found: list[str] = []
    for key in EXPLANATION_KEYS:
        value = data.get(key)
        if isinstance(value, dict | list):
            value = _body_message(value)
        if isinstance(value, str):
            found.append(strip_ansi(value).strip())
    for key, value in data.items():
        if key not in EXPLANATION_KEYS and isinstance(value, str):
            text = strip_ansi(value).strip()
            if len(text.split()) > 1:
                found.append(text)
    return found


def _unsaid(texts: list[str]) -> list[str]:
    """`texts` without empty ones and those already contained in an earlier one."""
    kept: list[str] = []
    for text in texts:
        if text and not any(text.lower() in said.lower() for said in kept):
            kept.append(text)
    return kept


def _compact(value: object) -> str:
    try:
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        return str(value)
