"""SPEC §1's maxRunningAgents: a start stops the least recently used idle agent to make room,
or is refused in the words of the Agents panel's header (a starting agent counts as running)."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from app.agents.runtime import AgentRuntime
from app.core.errors import UserError
from app.i18n import _

log = logging.getLogger(__name__)


async def make_room(
    agents: Callable[[], list[AgentRuntime]],
    starting: AgentRuntime,
    limit: int,
    stop: Callable[[AgentRuntime], Awaitable[None]],
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
        await stop(victim)


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
