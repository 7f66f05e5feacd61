"""Permission requests waiting for the person: each holds the agent's reply future.

Kept by channel, so a channel's view lists its own requests without walking everyone's.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass

from app.core.errors import UserError
from app.events.payloads import PermissionRequested
from app.i18n import _

# A real agent waits for each answer; one that asks more than this at once is flooding. The rest
# are answered "cancelled" at once, which keeps every view (and every page read) bounded.
MAX_PENDING_PER_CHANNEL = 64


@dataclass
class PendingPermission:
    request: PermissionRequested  # as the page was sent it
    reply: asyncio.Future[str | None]  # the option id, or None for cancelled


class PermissionBroker:
    def __init__(self) -> None:
        self._by_id: dict[str, PendingPermission] = {}
        self._by_channel: dict[str, dict[str, PendingPermission]] = {}
        # Told of a request the agent withdrew ($/cancel_request) or dropped (its reply
        # cancelled), and of each cancel (the channel's other questions go too: elicitations).
        self.on_withdrawn: Callable[[PermissionRequested], None] = lambda request: None
        self.on_cancel: list[Callable[[str, str], None]] = []

    def add(self, request: PermissionRequested, reply: asyncio.Future[str | None]) -> None:
        """Holds the request until it is answered, cancelled, or its reply is dropped (the agent
        went away: the SDK cancels the future)."""
        pending = PendingPermission(request, reply)
        self._by_id[request.id] = pending
        self._by_channel.setdefault(request.channel, {})[request.id] = pending
        reply.add_done_callback(lambda future: self._forget(request, future.cancelled()))

    def _forget(self, request: PermissionRequested, withdrawn: bool = False) -> None:
        if withdrawn and request.id in self._by_id:
            self.on_withdrawn(request)
        self._by_id.pop(request.id, None)
        channel = self._by_channel.get(request.channel)
        if channel is not None:
            channel.pop(request.id, None)
            if not channel:
                del self._by_channel[request.channel]

    def answer(self, request_id: str, option_id: str) -> tuple[PermissionRequested, str]:
        """Replies with one of the request's options; returns the request and the option's kind."""
        pending = self._by_id.get(request_id)
        if pending is None or pending.reply.done():
            raise UserError(_("there is no pending permission request {id}").format(id=request_id))
        request = pending.request
        option = next((o for o in request.options if o.option_id == option_id), None)
        if option is None:
            raise UserError(
                _("{option} is not one of this request's options ({options})").format(
                    option=option_id, options=", ".join(o.option_id for o in request.options)
                )
            )
        pending.reply.set_result(option.option_id)
        return request, option.kind

    def cancel(self, channel_id: str, agent: str = "") -> list[str]:
        """Replies "cancelled" to the channel's pending requests (of `agent`, if given)."""
        for cancel in self.on_cancel:
            cancel(channel_id, agent)
        resolved = []
        for pending in list(self._by_channel.get(channel_id, {}).values()):
            if agent and pending.request.agent != agent:
                continue
            if not pending.reply.done():
                pending.reply.set_result(None)
                resolved.append(pending.request.id)
        return resolved

    def count(self, channel_id: str) -> int:
        """How many of the channel's requests are held (answered ones go at the next loop turn)."""
        return len(self._by_channel.get(channel_id, ()))

    def all(self) -> list[PermissionRequested]:
        """Every channel's pending requests, oldest first (the order they were asked in)."""
        return [p.request for p in self._by_id.values() if not p.reply.done()]

    def pending(self, channel_id: str) -> list[PermissionRequested]:
        return [
            p.request for p in self._by_channel.get(channel_id, {}).values() if not p.reply.done()
        ]
