"""HandoffService (issue 28): a channel's budget of hand-offs per message of the person, and
Continue past it. The chain itself is chain.py's; the worker that runs it, turns.py's."""

from __future__ import annotations

from app.channels.handoffs.chain import MAX_BUDGET, HandoffChain
from app.channels.publishing import Publisher
from app.channels.registry import ChannelRegistry
from app.channels.turns import Turns
from app.core.errors import UserError
from app.core.expose import exposed
from app.core.loop import LoopThread
from app.i18n import _
from app.models.conversation import Channel


class HandoffService:
    def __init__(
        self,
        registry: ChannelRegistry,
        publisher: Publisher,
        chain: HandoffChain,
        turns: Turns,
        core: LoopThread,
    ) -> None:
        self._registry = registry
        self._publisher = publisher
        self._chain = chain
        self._turns = turns
        self._core = core

    @exposed
    def SetHandoffs(self, id: str, budget: int) -> Channel:
        """Extension: how many hand-offs between agents a message of the person may start in
        this channel (0 = none: agents' mentions of each other are plain text); the channel."""
        return self._core.call(lambda: self._set(id, budget))

    @exposed
    def ContinueHandoffs(self, id: str) -> None:
        """Extension: past the budget, one more round: the hand-offs held go to their agents."""
        self._core.call(lambda: self._continue(id))

    def _set(self, channel_id: str, budget: int) -> Channel:
        state = self._registry.get(channel_id)
        if state.channel.direct:
            raise UserError(_("hand-offs are between the agents of a channel"))
        if not 0 <= budget <= MAX_BUDGET:
            raise UserError(
                _("the hand-off budget is a number from 0 to {most}").format(most=MAX_BUDGET)
            )
        state.channel.handoffs = budget
        self._registry.save(state)
        self._publisher.channels()
        return state.channel

    def _continue(self, channel_id: str) -> None:
        state = self._registry.get(channel_id)
        if not self._chain.resume(state):
            raise UserError(_("no hand-off is waiting: the chain ended or went on"))
        self._turns.run_handoffs(state)
