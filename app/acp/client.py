"""Our side of ACP: what the agent may call on us, routed to the session it concerns.

We advertise no file-system or terminal capability, so the agent only sends session updates and
permission requests. The SDK runs each incoming message in its own task: `session_update` hands
the update over synchronously, before any await, so updates keep their arrival order.
Updates for a session whose `session/new` answer has not arrived yet are buffered by id.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from acp.schema import (
    DeniedOutcome,
    PermissionOption,
    RequestPermissionResponse,
    ToolCallUpdate,
)

log = logging.getLogger(__name__)


class SessionHandler(Protocol):
    def on_update(self, update: Any) -> None:
        """A `session/update` of this session, in arrival order (called synchronously)."""

    def on_permission(
        self, tool_call: ToolCallUpdate, options: list[PermissionOption]
    ) -> Awaitable[RequestPermissionResponse]:
        """The agent asks permission; resolves with the user's answer (or cancelled)."""


class SidekicksClient:
    def __init__(self, on_unknown_update: Callable[[str], None] | None = None) -> None:
        self._handlers: dict[str, SessionHandler] = {}
        self._early: dict[str, list[Any]] = {}
        self._on_unknown = on_unknown_update

    def attach(self, session_id: str, handler: SessionHandler) -> None:
        """Routes a session's updates to `handler`, first replaying any that arrived early."""
        self._handlers[session_id] = handler
        for update in self._early.pop(session_id, []):
            handler.on_update(update)

    def detach(self, session_id: str) -> None:
        self._handlers.pop(session_id, None)
        self._early.pop(session_id, None)

    async def session_update(self, session_id: str, update: Any, **kwargs: Any) -> None:
        handler = self._handlers.get(session_id)
        if handler is None:
            early = self._early.setdefault(session_id, [])
            if len(early) < 10_000:  # a session that never comes must not eat memory
                early.append(update)
            return
        handler.on_update(update)

    async def request_permission(
        self,
        session_id: str,
        tool_call: ToolCallUpdate,
        options: list[PermissionOption],
        **kwargs: Any,
    ) -> RequestPermissionResponse:
        handler = self._handlers.get(session_id)
        if handler is None:
            return RequestPermissionResponse(outcome=DeniedOutcome(outcome="cancelled"))
        return await handler.on_permission(tool_call, options)

    def on_connect(self, conn: Any) -> None:
        pass
