"""What agents stream in 2026 that the pinned SDK (0.12.1) does not type: a typed extension.

The SDK validates every `session/update` against its closed union and drops a variant it does
not know (`compaction_update`, `compaction_summary_chunk`, `subagent_update`, `session_message`)
before our client sees it, and it drops a tool call's `session` content item. Our transport
(app/acp/lines.py) therefore hands such an update to the SDK as a `session_info_update` that
carries the agent's update, untouched, in `_meta` (`RAW`), in its place in the stream; the
`session` items of a tool call ride in its `_meta` (`SESSIONS`). translate.py finds them there
and `stream_event` makes the typed events of app/acp/updates.py.

The capabilities that tell agents we handle these (`session.compaction`, `subagents`) are not in
the SDK's ClientCapabilities either: `outgoing` adds them to our `initialize` request.

Remove when the SDK has them (each piece names what replaces it).
"""

from __future__ import annotations

from typing import Any, cast, get_args

from acp.schema import SessionNotification

from app.acp.updates import (
    CompactionChanged,
    CompactionChunk,
    CompactionStatus,
    RateLimit,
    SessionMessage,
    SubagentChanged,
    SubagentState,
    Unhandled,
)
from app.core.text import valid_text

RAW = "_sidekicks/update"  # the agent's own update, for a variant the SDK does not know
SESSIONS = "_sidekicks/sessions"  # the session ids of a tool call's `session` content
RATE_LIMIT = "_claude/rateLimit"  # claude-agent-acp's usage_update `_meta`
# Handed on; anything else the SDK does not know is left to it (it logs and drops it).
EXTENSIONS = frozenset(
    {"compaction_update", "compaction_summary_chunk", "subagent_update", "session_message"}
)
# What the initialize request adds to clientCapabilities (the RFDs' shapes: claude-agent-acp
# reads `session.compaction` and `subagents` as objects).
CAPABILITIES: dict[str, Any] = {"session": {"compaction": {}}, "subagents": {}}

COMPACTION_STATUSES = frozenset(get_args(CompactionStatus))
SUBAGENT_STATES = frozenset(get_args(SubagentState))


def _sdk_updates() -> frozenset[str]:
    """The `sessionUpdate` names the SDK's SessionNotification accepts."""
    names: set[str] = set()
    for model in get_args(SessionNotification.model_fields["update"].annotation):
        field = model.model_fields.get("session_update")
        if field is not None:
            names.update(get_args(field.annotation))
    return frozenset(names)


SDK_UPDATES = _sdk_updates()


# ---- on the wire ----------------------------------------------------------------------------


def incoming(message: dict[str, Any]) -> dict[str, Any]:
    """A message from the agent, as the SDK can take it without losing what we handle."""
    if message.get("method") != "session/update":
        return message
    params = message.get("params")
    update = params.get("update") if isinstance(params, dict) else None
    if not isinstance(params, dict) or not isinstance(update, dict):
        return message
    kind = update.get("sessionUpdate")
    if kind in EXTENSIONS and kind not in SDK_UPDATES:
        carried = {"sessionUpdate": "session_info_update", "_meta": {RAW: update}}
        return {**message, "params": {**params, "update": carried}}
    if kind in ("tool_call", "tool_call_update") and isinstance(update.get("content"), list):
        sessions = [
            str(item["sessionId"])
            for item in update["content"]
            if isinstance(item, dict)
            and item.get("type") == "session"
            and isinstance(item.get("sessionId"), str)
        ]
        if sessions:
            meta = update.get("_meta") if isinstance(update.get("_meta"), dict) else {}
            update = {**update, "_meta": {**cast(dict[str, Any], meta), SESSIONS: sessions}}
            return {**message, "params": {**params, "update": update}}
    return message


def outgoing(message: dict[str, Any]) -> dict[str, Any]:
    """A message to the agent: `initialize` says the capabilities the SDK cannot."""
    params = message.get("params")
    if message.get("method") != "initialize" or not isinstance(params, dict):
        return message
    capabilities = params.get("clientCapabilities")
    merged = _merge(capabilities if isinstance(capabilities, dict) else {}, CAPABILITIES)
    return {**message, "params": {**params, "clientCapabilities": merged}}


def _merge(base: dict[str, Any], extra: dict[str, Any]) -> dict[str, Any]:
    merged = dict(base)
    for key, value in extra.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = _merge(merged[key], value)
        elif key not in merged:
            merged[key] = value
    return merged


# ---- typed ----------------------------------------------------------------------------------


def carried(meta: dict[str, Any] | None) -> dict[str, Any] | None:
    """The agent's update an SDK `session_info_update` carries, if it is one of ours."""
    raw = (meta or {}).get(RAW)
    return cast(dict[str, Any], raw) if isinstance(raw, dict) else None


def tool_sessions(meta: dict[str, Any] | None) -> tuple[str, ...] | None:
    ids = (meta or {}).get(SESSIONS)
    return tuple(str(i) for i in ids) if isinstance(ids, list) else None


def stream_event(
    raw: dict[str, Any],
) -> CompactionChanged | CompactionChunk | SubagentChanged | SessionMessage | Unhandled:
    kind = str(raw.get("sessionUpdate"))
    if kind == "compaction_update" and isinstance(raw.get("compactionId"), str):
        status = raw.get("status")
        summary = raw.get("summary")
        return CompactionChanged(
            raw["compactionId"],
            cast(CompactionStatus, status) if status in COMPACTION_STATUSES else "in_progress",
            summary=_blocks_text(summary) if summary is not None else None,
            error=_error_text(raw.get("error")),
        )
    if kind == "compaction_summary_chunk" and isinstance(raw.get("compactionId"), str):
        return CompactionChunk(raw["compactionId"], _blocks_text(raw.get("content")))
    if kind == "subagent_update" and isinstance(raw.get("sessionId"), str):
        return _subagent(raw)
    if kind == "session_message" and isinstance(raw.get("messageId"), str):
        return SessionMessage(
            raw["messageId"],
            _blocks_text(raw.get("content")),
            sender=_opt_str(raw.get("senderSessionId")),
            recipient=_opt_str(raw.get("recipientSessionId")),
        )
    return Unhandled(kind)


def _subagent(raw: dict[str, Any]) -> SubagentChanged:
    state = raw.get("state")
    work = state.get("state") if isinstance(state, dict) else None
    capabilities = raw.get("capabilities")
    return SubagentChanged(
        raw["sessionId"],
        title=_opt_text(raw.get("title")),
        description=_opt_text(raw.get("description")),
        cwd=_opt_text(raw.get("cwd")),
        state=cast(SubagentState, work) if work in SUBAGENT_STATES else None,
        stop_reason=_opt_str(state.get("stopReason")) if isinstance(state, dict) else None,
        error=_error_text(state.get("error")) if isinstance(state, dict) else None,
        can_cancel=(
            isinstance(capabilities.get("cancel"), dict) if isinstance(capabilities, dict) else None
        ),
    )


def rate_limits(meta: dict[str, Any] | None) -> tuple[RateLimit, ...]:
    """claude's rate-limit window in a usage_update's `_meta` (one per `rate_limit_event`)."""
    info = (meta or {}).get(RATE_LIMIT)
    if not isinstance(info, dict):
        return ()
    window = info.get("rateLimitType")
    return (
        RateLimit(
            window=valid_text(window) if isinstance(window, str) and window else "unknown",
            status=valid_text(str(info.get("status") or "allowed")),
            utilization=_number(info.get("utilization")),
            resets_at=_number(info.get("resetsAt")),
        ),
    )


def _blocks_text(content: object) -> str:
    """The text of one content block or a list of them."""
    blocks = content if isinstance(content, list) else [content]
    return valid_text(
        "".join(
            str(b.get("text", "")) if isinstance(b, dict) and b.get("type") == "text" else ""
            for b in blocks
        )
    )


def _error_text(error: object) -> str | None:
    if isinstance(error, str):
        return valid_text(error)
    if isinstance(error, dict) and isinstance(error.get("message"), str):
        return valid_text(error["message"])
    return None


def _opt_str(value: object) -> str | None:
    return value if isinstance(value, str) else None


def _opt_text(value: object) -> str | None:
    return valid_text(value) if isinstance(value, str) else None


def _number(value: object) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)
