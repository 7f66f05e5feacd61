"""Telling the page what changed: the SPEC's events on the bus, and each channel's latest view
for the reads that do not wait for the core loop (app/channels/reading.py).

A view is published before the event that announces the change, so a page reacting to the event
reads at least what the event said.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from app.channels.permissions import PermissionBroker
from app.channels.reading import ChannelView, ConversationHead
from app.channels.registry import ChannelRegistry
from app.channels.state import ChannelState
from app.core.ids import new_id
from app.events import names
from app.events.bus import EventBus
from app.events.payloads import (
    ChannelsChanged,
    MessageDelta,
    MessageUpdated,
    PermissionRequested,
    PermissionResolved,
    SessionChanged,
    TurnChanged,
    UsageChanged,
)
from app.models.conversation import Channel, Message, Role, SystemCode, Usage
from app.models.sessions import MemberSession


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def new_message(channel_id: str, role: Role, **fields: Any) -> Message:
    """A message with a new time-sortable id, created now."""
    return Message(id=new_id(), channel=channel_id, created_at=now_iso(), role=role, **fields)


class Publisher:
    def __init__(
        self, bus: EventBus, registry: ChannelRegistry, permissions: PermissionBroker
    ) -> None:
        self._bus = bus
        self._registry = registry
        self._permissions = permissions
        # Read from any thread: entries are replaced, never changed.
        self._views: dict[str, ChannelView] = {}
        self._channel_list: tuple[Channel, ...] = ()  # the same: replaced, never changed

    def view(self, channel_id: str) -> ChannelView | None:
        """The channel's latest published view; any thread."""
        return self._views.get(channel_id)

    def channel_list(self) -> list[Channel]:
        """Every channel as last published (copies the core loop never changes); any thread.
        ChannelService.List reads it without waiting for the loop, which 8 agents streaming at
        once keep busy for hundreds of milliseconds (bench/list_while_streaming.py)."""
        return list(self._channel_list)

    def forget_views(self) -> None:
        self._views = {}
        self._channel_list = ()

    def channels(self) -> None:
        """After any change of a channel's record (created, renamed, members, deleted) or of the
        history: the views and the list, then `channels:changed`."""
        self._views = {id: self._view(state) for id, state in self._registry.states.items()}
        listed = tuple(c.model_copy(deep=True) for c in self._registry.channels())
        self._channel_list = listed
        self._bus.emit(names.CHANNELS_CHANGED, ChannelsChanged(channels=list(listed)))

    def message(self, message: Message) -> None:
        if state := self._registry.find(message.channel):
            self.publish(state)
        self._bus.emit(
            names.MESSAGE_UPDATED, MessageUpdated(channel=message.channel, message=message)
        )

    def delta(self, delta: MessageDelta) -> None:
        self._bus.emit(names.MESSAGE_DELTA, delta)

    def turn(self, state: ChannelState) -> None:
        self.publish(state)
        self._bus.emit(
            names.TURN_CHANGED,
            TurnChanged(
                channel=state.id,
                busy=state.busy,
                queued=len(state.queue_view()),
                answering=state.answering,
                handoff=state.handoff,
                next=list(state.due),
            ),
        )

    def usage(self, state: ChannelState, agent: str, usage: Usage) -> None:
        self.publish(state)
        self._bus.emit(
            names.USAGE_CHANGED, UsageChanged(channel=state.id, agent=agent, usage=usage)
        )

    def session(self, state: ChannelState, agent: str, session: MemberSession) -> None:
        self.publish(state)
        self._bus.emit(
            names.SESSION_CHANGED,
            SessionChanged(channel=state.id, agent=agent, session=session.model_copy(deep=True)),
        )

    def permission_requested(self, state: ChannelState, request: PermissionRequested) -> None:
        self.publish(state)
        self._bus.emit(names.PERMISSION_REQUESTED, request)

    def permissions_resolved(self, state: ChannelState, request_ids: list[str]) -> None:
        if not request_ids:
            return
        self.publish(state)  # once, before the page hears of them
        for request_id in request_ids:
            self._bus.emit(
                names.PERMISSION_RESOLVED, PermissionResolved(id=request_id, channel=state.id)
            )

    def system(
        self,
        state: ChannelState,
        code: SystemCode,
        agent: str,
        error: str = "",
        dropped: list[str] | None = None,
    ) -> None:
        """Posts a system message: kept now, or after the answer being streamed (shown below
        it, so kept after it)."""
        message = new_message(
            state.id, "system", agent=agent, code=code, error=error, dropped=dropped or []
        )
        if state.turn is not None:
            state.held.append(message)
        else:
            self._registry.keep(message)
        self.message(message)

    def publish(self, state: ChannelState) -> None:
        """Publishes the channel's view for reads from other threads (a deleted channel's
        state, still finishing its answer, publishes nothing)."""
        if self._registry.is_current(state):
            self._views[state.id] = self._view(state)

    def _view(self, state: ChannelState) -> ChannelView:
        queued = state.queue_view()
        head = ConversationHead(
            channel=state.channel,
            busy=state.busy,
            queued=len(queued),
            answering=state.answering,
            next=list(state.due),
            usage=state.usage(),
            permissions=self._permissions.pending(state.id),
            sessions=state.offers(),
        )
        answer = state.turn.answer.message if state.turn is not None else None
        return ChannelView.of(head, self._registry.history, answer, [*state.held, *queued])
