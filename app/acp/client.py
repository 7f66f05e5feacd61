"""Our side of ACP: what the agent may call on us, turned into the core's typed events
(app/acp/updates.py) and routed to the session they concern.

We advertise no file-system or terminal capability, so the agent only sends session updates and
permission requests. The SDK runs each incoming message in its own task: `session_update` hands
the event over synchronously, before any await, so events keep their arrival order.
Updates for a session whose `session/new` answer has not arrived yet are buffered by id.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Protocol

from acp.schema import (
    AllowedOutcome,
    DeniedOutcome,
    PermissionOption,
    RequestPermissionResponse,
    ToolCallUpdate,
)

from app.acp.translate import permission_choices, session_event, tool_change
from app.acp.updates import PermissionAsked, SessionEvent

log = logging.getLogger(__name__)

EARLY_LIMIT = 10_000  # updates kept for a session that has not been attached yet


class SessionHandler(Protocol):
    def on_event(self, event: SessionEvent | PermissionAsked) -> None:
        """An event of this session, in arrival order (called synchronously). A
        `PermissionAsked` is answered by setting its `reply`."""


class SidekicksClient:
    def __init__(self) -> None:
        self._handlers: dict[str, SessionHandler] = {}
        self._early: dict[str, list[SessionEvent]] = {}

    def attach(self, session_id: str, handler: SessionHandler) -> None:
        """Routes a session's events to `handler`, first replaying any that arrived early."""
        self._handlers[session_id] = handler
        for event in self._early.pop(session_id, []):
            handler.on_event(event)

    def detach(self, session_id: str) -> None:
        self._handlers.pop(session_id, None)
        self._early.pop(session_id, None)

    async def session_update(self, session_id: str, update: Any, **kwargs: Any) -> None:
        event = session_event(update)
        handler = self._handlers.get(session_id)
        if handler is None:
            early = self._early.setdefault(session_id, [])
            if len(early) < EARLY_LIMIT:  # a session that never comes must not eat memory
                early.append(event)
            return
        handler.on_event(event)

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
        asked = PermissionAsked(
            tool=tool_change(tool_call, started=False),
            options=permission_choices(options),
            reply=asyncio.get_running_loop().create_future(),
        )
        handler.on_event(asked)
        choice = await asked.reply
        if choice is None:
            return RequestPermissionResponse(outcome=DeniedOutcome(outcome="cancelled"))
        return RequestPermissionResponse(
            outcome=AllowedOutcome(outcome="selected", option_id=choice)
        )

    def on_connect(self, conn: Any) -> None:
        pass
