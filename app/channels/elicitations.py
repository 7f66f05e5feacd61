"""The agents' questions to the person (ACP elicitation) waiting in the conversations.

Each is shown on the answer that asked it and in the inbox (`elicitation:requested`), and waits
until the person answers (`ChannelService.AnswerElicitation`: accept with the form's content,
decline, cancel), the answer ends (Stop, the agent's exit: cancel), the channel goes, the agent
withdraws it (`$/cancel_request`) or says it is over (`elicitation/complete`, url mode). However
it ends, `elicitation:resolved` tells the page. A flood is capped as permissions are
(MAX_PENDING_PER_CHANNEL): the rest are cancelled at once.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from app.acp.elicitation import (
    ElicitationAsked,
    ElicitationCompleted,
    ElicitationReply,
    check_content,
)
from app.channels.permissions import MAX_PENDING_PER_CHANNEL
from app.channels.registry import ChannelRegistry
from app.core.errors import UserError
from app.core.ids import new_id
from app.events import names
from app.events.bus import EventBus
from app.i18n import _
from app.models.elicitation import ElicitationAction, ElicitationRequested, ElicitationResolved

log = logging.getLogger(__name__)

ACTIONS: tuple[ElicitationAction, ...] = ("accept", "decline", "cancel")


@dataclass
class PendingElicitation:
    request: ElicitationRequested  # as the page was sent it
    asked: ElicitationAsked  # its fields and the agent's reply future
    elicitation_id: str  # url mode: what `elicitation/complete` names


class ElicitationDesk:
    def __init__(self, registry: ChannelRegistry, bus: EventBus) -> None:
        self._registry, self._bus = registry, bus
        self._by_id: dict[str, PendingElicitation] = {}
        self._flooded: set[str] = set()  # answers whose flood was logged

    def on_event(
        self, channel_id: str, agent: str, event: ElicitationAsked | ElicitationCompleted
    ) -> None:
        if isinstance(event, ElicitationAsked):
            self.ask(channel_id, agent, event)
        else:
            self.complete(agent, event.elicitation_id)

    def ask(self, channel_id: str, agent: str, asked: ElicitationAsked) -> None:
        """Shows the question on the agent's answer in progress; without one (a late or
        replayed request, a Stop under way) it is cancelled at once."""
        state = self._registry.find(channel_id)
        turn = state.answering_agent(agent) if state is not None else None
        if state is None or turn is None or state.scope.cancelled:
            _reply(asked, ElicitationReply("cancel"))
            return
        if self.count(channel_id) >= MAX_PENDING_PER_CHANNEL:
            _reply(asked, ElicitationReply("cancel"))
            if turn.answer.message.id not in self._flooded:
                self._flooded.add(turn.answer.message.id)
                log.warning(
                    "%s asked more than %d questions at once: the rest are cancelled",
                    agent,
                    MAX_PENDING_PER_CHANNEL,
                )
            return
        request = ElicitationRequested(
            id=new_id(),
            channel=channel_id,
            agent=agent,
            message_id=turn.answer.message.id,
            mode=asked.mode,
            message=asked.message,
            title=asked.title,
            description=asked.description,
            fields=[f.model_copy(deep=True) for f in asked.fields],
            url=asked.url,
        )
        self._by_id[request.id] = PendingElicitation(request, asked, asked.elicitation_id)
        # However it ends (answered, cancelled, withdrawn by the agent), the page hears of it.
        asked.reply.add_done_callback(lambda _done: self._resolved(request))
        self._bus.emit(names.ELICITATION_REQUESTED, request)

    def _resolved(self, request: ElicitationRequested) -> None:
        if self._by_id.pop(request.id, None) is not None:
            self._bus.emit(
                names.ELICITATION_RESOLVED,
                ElicitationResolved(id=request.id, channel=request.channel),
            )

    def answer(self, request_id: str, action: str, content: dict[str, Any] | None) -> None:
        """The person's answer: `accept` (a form's content checked against its fields first),
        `decline` or `cancel`."""
        pending = self._by_id.get(request_id)
        if pending is None or pending.asked.reply.done():
            raise UserError(_("there is no pending question {id}").format(id=request_id))
        if action not in ACTIONS:
            raise UserError(
                _("{action} is not an answer to a question (accept, decline, cancel)").format(
                    action=action
                )
            )
        reply = ElicitationReply(action)  # checked just above
        if action == "accept" and pending.asked.mode == "form":
            try:
                checked = check_content(pending.asked.fields, content or {})
            except ValueError as err:
                raise UserError(str(err)) from None
            reply = ElicitationReply("accept", checked)
        _reply(pending.asked, reply)

    def complete(self, agent: str, elicitation_id: str) -> None:
        """The agent says its url-mode question is over: still unanswered, it is cancelled."""
        for pending in list(self._by_id.values()):
            if pending.request.agent == agent and pending.elicitation_id == elicitation_id:
                _reply(pending.asked, ElicitationReply("cancel"))

    def cancel(self, channel_id: str, agent: str = "") -> None:
        """Cancels the channel's questions (of `agent`, if given): Stop, the answer's end,
        the channel deleted."""
        for pending in list(self._by_id.values()):
            request = pending.request
            if request.channel == channel_id and (not agent or request.agent == agent):
                _reply(pending.asked, ElicitationReply("cancel"))

    def count(self, channel_id: str) -> int:
        return sum(1 for p in self._by_id.values() if p.request.channel == channel_id)

    def all(self) -> list[ElicitationRequested]:
        """Every channel's pending questions, oldest first."""
        return [p.request for p in self._by_id.values() if not p.asked.reply.done()]


def _reply(asked: ElicitationAsked, reply: ElicitationReply) -> None:
    if not asked.reply.done():
        asked.reply.set_result(reply)
