"""Our side of ACP: what the agent may call on us, turned into the core's typed events
(app/acp/updates.py) and routed to the session they concern.

Besides session updates and permission requests, the agent may read and write files and run
commands (ACP `fs/*`, `terminal/*`) in a session that was attached with a `Workspace`
(app/acp/workspace_calls.py answers those). The SDK runs each incoming message in its own task:
`session_update` hands the event over synchronously, before any await, so events keep their
arrival order.
Updates for a session whose `session/new` answer has not arrived yet are buffered by id, within
bounds: an agent sending updates for sessions nobody opened must not eat memory.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any, Protocol

from acp.schema import (
    AllowedOutcome,
    DeniedOutcome,
    PermissionOption,
    RequestPermissionResponse,
    ToolCallUpdate,
)

from app.acp.cancel_request import Cancels
from app.acp.elicitation import (
    ElicitationAsked,
    ElicitationCompleted,
    ElicitationReply,
    Unusable,
    elicitation_asked,
    sdk_response,
)
from app.acp.notices import PREFIX
from app.acp.translate import permission_choices, session_event, tool_change
from app.acp.updates import ChildEvent, PermissionAsked, SessionEvent, SubagentChanged
from app.acp.workspace import Workspace
from app.acp.workspace_calls import WorkspaceCalls
from app.i18n import _

log = logging.getLogger(__name__)

# Updates kept for sessions not attached yet. Legitimately a few, for one session being opened;
# the most recent sessions are kept, the oldest dropped first.
EARLY_LIMIT = 10_000  # per session
EARLY_SESSIONS = 16
EARLY_TOTAL = 20_000  # over all sessions
MAX_CHILDREN = 256  # sub-agent sessions routed to their parent, per connection


class SessionHandler(Protocol):
    def on_event(
        self, event: SessionEvent | PermissionAsked | ElicitationAsked | ElicitationCompleted
    ) -> None:
        """An event of this session, in arrival order (called synchronously). A
        `PermissionAsked` is answered by setting its `reply`."""


class SidekicksClient(WorkspaceCalls):
    def __init__(self, on_log: Callable[[str], None] = lambda line: None) -> None:
        self._handlers: dict[str, SessionHandler] = {}
        self._workspaces: dict[str, Workspace] = {}
        self._early: dict[str, list[SessionEvent]] = {}  # oldest session first
        self._early_total = 0
        self._on_log = on_log
        self._dropped_logged = False
        self.cancels: Cancels | None = None  # the connection's, once it has started
        # Sub-agent sessions (`subagent_update`) → the attached session they are shown in;
        # those that said they take `session/cancel` (their `cancel` capability).
        self._parents: dict[str, str] = {}
        self._cancellable: set[str] = set()

    def attach(
        self, session_id: str, handler: SessionHandler, workspace: Workspace | None = None
    ) -> None:
        """Routes a session's events to `handler`, first replaying any that arrived early, and
        its file and terminal requests to `workspace` (refused without one)."""
        self._handlers[session_id] = handler
        if workspace is not None:
            self._workspaces[session_id] = workspace
        for event in self._take_early(session_id):
            handler.on_event(event)

    def buffered(self) -> dict[str, int]:
        """Updates waiting per session nobody attached yet, oldest session first."""
        return {sid: len(events) for sid, events in self._early.items()}

    def detach(self, session_id: str) -> None:
        self._handlers.pop(session_id, None)
        self._workspaces.pop(session_id, None)
        self._take_early(session_id)
        for child in self.children(session_id):
            self._parents.pop(child, None)
            self._workspaces.pop(child, None)
            self._cancellable.discard(child)

    def children(self, session_id: str) -> list[str]:
        """The sub-agent sessions shown in this session (Stop cancels them too)."""
        return [child for child, parent in self._parents.items() if parent == session_id]

    def cancellable(self, session_id: str) -> list[str]:
        """Its sub-agents that take `session/cancel` (Stop cancels them with it)."""
        return [child for child in self.children(session_id) if child in self._cancellable]

    async def session_update(self, session_id: str, update: Any, **kwargs: Any) -> None:
        event = session_event(update)
        parent = self._parents.get(session_id)
        if isinstance(event, SubagentChanged):
            session_id, parent = parent or session_id, None  # a sub-agent's own: flattened
            if (announcer := self._handlers.get(session_id)) is not None:
                announcer.on_event(event)
                self._adopt(session_id, event.session_id)
                if event.can_cancel is not None and event.session_id in self._parents:
                    if event.can_cancel:
                        self._cancellable.add(event.session_id)
                    else:
                        self._cancellable.discard(event.session_id)
                return
        if parent is not None and session_id not in self._handlers:
            parent_handler = self._handlers.get(parent)
            if parent_handler is not None:
                parent_handler.on_event(ChildEvent(session_id, event))
                return
        handler = self._handlers.get(session_id)
        if handler is None:
            self._keep_early(session_id, event)
            return
        handler.on_event(event)

    def _adopt(self, parent: str, child: str) -> None:
        """Routes the sub-agent session `child` to `parent`'s handler, with its workspace."""
        handler = self._handlers.get(parent)
        if handler is None or child in self._handlers or child == parent:
            return
        if child not in self._parents and len(self._parents) >= MAX_CHILDREN:
            return
        self._parents[child] = parent
        if parent in self._workspaces:
            self._workspaces[child] = self._workspaces[parent]
        for event in self._take_early(child):
            handler.on_event(ChildEvent(child, event))

    def _keep_early(self, session_id: str, event: SessionEvent) -> None:
        early = self._early.pop(session_id, None)
        if early is None:
            early = []
            if len(self._early) >= EARLY_SESSIONS:
                self._drop_oldest()
        self._early[session_id] = early  # (re)inserted last: the most recent session
        if len(early) >= EARLY_LIMIT:
            self._dropped()
            return
        while self._early_total >= EARLY_TOTAL and len(self._early) > 1:
            self._drop_oldest()
        early.append(event)
        self._early_total += 1

    def _take_early(self, session_id: str) -> list[SessionEvent]:
        events = self._early.pop(session_id, [])
        self._early_total -= len(events)
        return events

    def _drop_oldest(self) -> None:
        self._take_early(next(iter(self._early)))
        self._dropped()

    def _dropped(self) -> None:
        if not self._dropped_logged:  # once per connection: the agent is misbehaving
            self._dropped_logged = True
            self._on_log(PREFIX + _("updates for sessions nobody opened were dropped"))

    async def request_permission(
        self,
        session_id: str,
        tool_call: ToolCallUpdate,
        options: list[PermissionOption],
        **kwargs: Any,
    ) -> RequestPermissionResponse:
        # A sub-agent's request is asked in the session that shows it.
        handler = self._handlers.get(session_id) or self._handlers.get(
            self._parents.get(session_id, "")
        )
        if handler is None:
            return RequestPermissionResponse(outcome=DeniedOutcome(outcome="cancelled"))
        asked = PermissionAsked(
            tool=tool_change(tool_call, started=False),
            options=permission_choices(options),
            reply=asyncio.get_running_loop().create_future(),
            session=session_id if session_id in self._parents else "",
        )
        with self._on_cancel(asked.reply.cancel):  # withdrawn: answered -32800, prompt gone
            handler.on_event(asked)
            choice = await asked.reply
        if choice is None:
            return RequestPermissionResponse(outcome=DeniedOutcome(outcome="cancelled"))
        return RequestPermissionResponse(
            outcome=AllowedOutcome(outcome="selected", option_id=choice)
        )

    def on_connect(self, conn: Any) -> None:
        pass

    # ---- elicitation (form and url modes) ----------------------------------------------------

    def _on_cancel(self, callback: Callable[[], object]) -> contextlib.AbstractContextManager[None]:
        """Within: the agent's `$/cancel_request` of the request being handled runs callback."""
        return self.cancels.on_cancel(callback) if self.cancels else contextlib.nullcontext()

    async def create_elicitation(self, message: str, mode: Any, **kwargs: Any) -> Any:
        """ACP `elicitation/create`: the person's answer (accept with content, decline,
        cancel). A session-scoped request goes to its session; a request-scoped one to the
        session of our request it names (a prompt in progress); otherwise it is cancelled."""
        session_id = getattr(mode, "session_id", None)
        if session_id is None and self.cancels is not None:
            session_id = self.cancels.session_of(getattr(mode, "request_id", None))
        # A sub-agent's question is asked in the session that shows it, like its permissions.
        handler = self._handlers.get(session_id or "") or self._handlers.get(
            self._parents.get(session_id or "", "")
        )
        if handler is None:
            return sdk_response(ElicitationReply("cancel"))
        reply: asyncio.Future[ElicitationReply] = asyncio.get_running_loop().create_future()
        try:
            asked = elicitation_asked(message, mode, reply)
        except Unusable as why:
            self._on_log(
                PREFIX + _("a question Sidekicks cannot show was declined: {why}").format(why=why)
            )
            return sdk_response(ElicitationReply("decline"))
        with self._on_cancel(reply.cancel):  # withdrawn: answered -32800, the form goes away
            handler.on_event(asked)
            answer = await reply
        return sdk_response(answer)

    async def complete_elicitation(self, elicitation_id: str, **kwargs: Any) -> None:
        """ACP `elicitation/complete`: a url-mode elicitation is over (its prompt goes)."""
        # Every session of this connection is the same agent's: one handler finds it.
        handler = next(iter(self._handlers.values()), None)
        if handler is not None:
            handler.on_event(ElicitationCompleted(elicitation_id))
