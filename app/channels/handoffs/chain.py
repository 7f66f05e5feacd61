"""A channel's chain of hand-offs since the person's last message: who is due, how many went,
and those held at the budget for the person to decide (Continue) or drop (Stop, or a new
message of theirs). The worker (app/channels/turns.py) asks it for the next hop after the
recipients of the person's message answered, and tells it of each finished answer."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from app.acp.prompts import PromptResource
from app.channels.handoffs.material import handoff_text, material
from app.channels.handoffs.mentions import handed_to
from app.channels.publishing import Publisher, new_message
from app.channels.registry import ChannelRegistry
from app.channels.routing import Route
from app.channels.state import ChannelState
from app.models.changes import FileChange
from app.models.conversation import Handoff, Message, SystemCode

MAX_BUDGET = 50


@dataclass(frozen=True)
class Hop:
    """One hand-off: `to` answers `answer` (by `answer.agent`), hand-off `index` of `budget`."""

    to: str
    answer: Message
    index: int
    budget: int

    @property
    def handoff(self) -> Handoff:
        return Handoff(from_agent=self.answer.agent, index=self.index, budget=self.budget)

    def route(self) -> Route:
        return Route(recipients=[self.to], text=handoff_text(self.answer))


@dataclass
class Run:
    allowed: int  # the budget, and one more round per Continue
    count: int = 0  # hand-offs routed since the person's message
    due: list[Hop] = field(default_factory=list)
    held: list[tuple[str, Message]] = field(default_factory=list)  # at the budget


class HandoffChain:
    def __init__(
        self,
        registry: ChannelRegistry,
        publisher: Publisher,
        changes: Callable[[str], list[FileChange]],
    ) -> None:
        self._registry = registry
        self._publisher = publisher
        self._changes = changes  # a channel's change records (app/workspace/changes.py)
        self._runs: dict[str, Run] = {}
        registry.on_remove.append(self.forget)

    def forget(self, channel_id: str) -> None:
        self._runs.pop(channel_id, None)

    def begin(self, state: ChannelState) -> None:
        """A message of the person: the count starts again, what was held is dropped."""
        self._runs[state.id] = Run(allowed=state.channel.handoffs)

    def answered(self, state: ChannelState, answer: Message | None) -> None:
        """`answer` ended: the members its prose mentions are due, or held past the budget."""
        channel = state.channel
        if answer is None or channel.direct or channel.handoffs <= 0 or state.closing:
            return
        if answer.stop_reason != "end_turn" or answer.error or state.scope.cancelled:
            return
        to = handed_to(_text(answer), answer.agent, channel.members)
        if not to:
            return
        run = self._runs.setdefault(state.id, Run(allowed=channel.handoffs))
        held: list[str] = []
        for agent in to:
            if run.count < run.allowed:
                run.count += 1
                run.due.append(Hop(agent, answer, run.count, run.allowed))
            else:
                run.held.append((agent, answer))
                held.append(agent)
        if held:
            note = Handoff(from_agent=answer.agent, index=run.count, budget=channel.handoffs)
            self._post(state, "handoff-limit", answer.agent, note.model_copy(update={"to": held}))

    def next_hop(self, state: ChannelState) -> Hop | None:
        run = self._runs.get(state.id)
        if run is None or not run.due:
            return None
        hop = run.due.pop(0)
        return hop if hop.to in state.channel.members else self.next_hop(state)

    def blocks(self, state: ChannelState, hop: Hop) -> list[PromptResource]:
        """The previous answer's changes and plan, read when the hop's turn comes."""
        return material(hop.answer, self._changes(state.id))

    def resume(self, state: ChannelState) -> bool:
        """Continue: one more round, the held hand-offs due; False when none is held."""
        run = self._runs.get(state.id)
        if run is None or not run.held:
            return False
        run.allowed += len(run.held)
        for agent, answer in run.held:
            run.count += 1
            run.due.append(Hop(agent, answer, run.count, run.allowed))
        run.held = []
        return True

    def stop(self, state: ChannelState) -> None:
        """Stop: every hand-off due or held is dropped, and the channel says so."""
        run = self._runs.pop(state.id, None)
        if run is None or state.closing:
            return
        dropped = [h.to for h in run.due] + [agent for agent, _ in run.held]
        if dropped:
            names = list(dict.fromkeys(dropped))
            self._post(state, "handoffs-stopped", "", Handoff(from_agent="", to=names))

    def _post(self, state: ChannelState, code: SystemCode, agent: str, note: Handoff) -> None:
        message = new_message(state.id, "system", agent=agent, code=code, handoff=note)
        if state.turn is not None:
            state.held.append(message)
        else:
            self._registry.keep(message)
        self._publisher.message(message)


def _text(message: Message) -> str:
    return "".join(p.text for p in message.parts if p.kind == "text")
