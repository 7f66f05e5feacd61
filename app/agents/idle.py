"""SPEC §1's stopIdleAgentsAfter: a ready agent nobody used for that long is stopped.

A task on the core loop checks every `period` seconds (Tuning.idle_check_period); the time limit
is read at each check, so a new configuration applies at the next one.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from app.agents.runtime import AgentRuntime

log = logging.getLogger(__name__)


class IdleStops:
    def __init__(
        self,
        agents: Callable[[], list[AgentRuntime]],
        after: Callable[[], int],
        stop: Callable[[AgentRuntime], Awaitable[None]],
        period: float,
        clock: Callable[[], float],
    ) -> None:
        self._agents, self._after, self._stop = agents, after, stop
        self._period, self._clock = period, clock
        self._task: asyncio.Task[None] | None = None

    def watch(self) -> None:
        """Starts the periodic check, unless it runs already."""
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._every_period())

    def end(self) -> None:
        if self._task is not None:
            self._task.cancel()
            self._task = None

    async def _every_period(self) -> None:
        while True:
            await asyncio.sleep(self._period)
            await self.check()

    async def check(self) -> None:
        """Stops each agent ready and unused for the configuration's time (0: never)."""
        after = self._after()
        if after <= 0:
            return
        now = self._clock()
        for runtime in self._agents():
            idle = runtime.state == "ready" and runtime.users == 0
            if idle and now - runtime.last_used >= after:
                log.info("stopping %s: idle for %.0f s", runtime.name, now - runtime.last_used)
                await self._stop(runtime)
