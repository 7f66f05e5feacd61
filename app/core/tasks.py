"""Tasks run in the background on the core loop, held until they end.

asyncio keeps only weak references to tasks: one that nobody holds may vanish mid-run. A
`Background` holds them, and whoever closes waits for those still running (`wait`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any


class Background:
    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[Any]] = set()

    def start(self, work: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def wait(self) -> None:
        """Returns once every task started so far has ended (their errors are not raised)."""
        if self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)
