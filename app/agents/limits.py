"""SPEC §1's maxRunningAgents: a start stops the least recently used idle agent to make room,
or is refused in the words of the Agents panel's header (a starting agent counts as running).
Each agent stopped so is said (`evicted`: the supervisor's `agent:evicted`, issue 29): an agent
that stops without a word looks broken."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from app.agents.runtime import AgentRuntime
from app.core.errors import UserError
from app.events import names
from app.events.bus import EventBus
from app.events.payloads import AgentEvicted
from app.i18n import _

log = logging.getLogger(__name__)


class Evictions:
    """Says each agent stopped to make room: `agent:evicted` for the page (its toast), and the
    `listeners` (agent, for agent, limit): the channels post the line in its conversation
    (app/channels/made_room.py)."""

    def __init__(self, bus: EventBus) -> None:
        self._bus = bus
        self.listeners: list[Callable[[str, str, int], None]] = []

    def said(self, victim: AgentRuntime, starting: AgentRuntime, limit: int) -> None:
        event = AgentEvicted(agent=victim.name, for_agent=starting.name, limit=limit)
        self._bus.emit(names.AGENT_EVICTED, event)
        for listener in self.listeners:
            listener(victim.name, starting.name, limit)


async def make_room(
    agents: Callable[[], list[AgentRuntime]],
    starting: AgentRuntime,
    limit: int,
    stop: Callable[[AgentRuntime], Awaitable[None]],
    evicted: Callable[[AgentRuntime, AgentRuntime, int], None] = lambda *_: None,
) -> None:
    """Returns once `starting` fits under the limit; `agents` is read again after each stop."""
    while True:
        running = [r for r in agents() if r.running and r is not starting]
        if len(running) < limit:
            return
        idle = [r for r in running if r.state == "ready" and r.users == 0]
        if not idle:
            raise UserError(limit_refusal(running, starting, limit))
        victim = min(idle, key=lambda r: r.last_used)
        log.info("stopping %s, the least recently used idle agent, to start %s",
                 victim.name, starting.name)  # fmt: skip
        # Two starts making room at once pick the same victim: its stop is said once, by the
        # one that began it (a stop under way has already let go of the connection).
        first = victim.conn is not None
        await stop(victim)
        if first:
            evicted(victim, starting, limit)


def limit_refusal(running: list[AgentRuntime], starting: AgentRuntime, limit: int) -> str:
    """Counted and worded as the Agents panel's header: a starting agent is running."""
    names = ", ".join(
        _("{agent} (starting)").format(agent=r.name) if r.state == "starting" else r.name
        for r in running
    )
    if len(running) == 1:
        text = _("1 agent is already running (the limit is {limit}): {names}.")
    else:
        text = _("{count} agents are already running (the limit is {limit}): {names}.")
    stop = _("Stop one of them to start {agent}.").format(agent=starting.name)
    return text.format(count=len(running), limit=limit, names=names) + " " + stop
