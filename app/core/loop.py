"""The one asyncio loop thread that owns all mutable core state.

Other threads (pywebview call threads, the watchdog thread, tests) never touch core state: they
hop onto this loop with `call` / `call_soon` and wait with a timeout.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import threading
from collections.abc import Awaitable, Callable
from typing import TypeVar

T = TypeVar("T")

DEFAULT_TIMEOUT = 30.0


class LoopThread:
    def __init__(self, name: str = "sidekicks-core") -> None:
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._run, name=name, daemon=True)
        self._started = threading.Event()

    @property
    def loop(self) -> asyncio.AbstractEventLoop:
        return self._loop

    def start(self) -> None:
        self._thread.start()
        self._started.wait()

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        self._loop.call_soon(self._started.set)
        self._loop.run_forever()

    async def _cancel_tasks(self) -> None:
        """Cancels what is still running (connection readers, timers) before the loop closes."""
        current = asyncio.current_task()
        tasks = [t for t in asyncio.all_tasks() if t is not current]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def in_loop(self) -> bool:
        return threading.current_thread() is self._thread

    def run(self, coro: Awaitable[T], timeout: float | None = DEFAULT_TIMEOUT) -> T:
        """Runs a coroutine on the loop from another thread and waits for its result."""
        if self.in_loop():
            raise RuntimeError("LoopThread.run called from the loop thread itself (deadlock)")

        async def wrapper() -> T:
            return await coro

        future = asyncio.run_coroutine_threadsafe(wrapper(), self._loop)
        try:
            return future.result(timeout)
        except concurrent.futures.TimeoutError:
            future.cancel()
            raise TimeoutError(f"the app did not answer within {timeout:g} s") from None

    def call(self, fn: Callable[[], T], timeout: float | None = DEFAULT_TIMEOUT) -> T:
        """Runs a plain function on the loop and waits for its result."""

        async def as_coro() -> T:
            return fn()

        return self.run(as_coro(), timeout)

    def call_soon(self, fn: Callable[[], object]) -> None:
        """Schedules `fn` on the loop from any thread, without waiting."""
        if not self._loop.is_closed():
            self._loop.call_soon_threadsafe(fn)

    def stop(self, timeout: float = 10.0) -> None:
        if self._loop.is_closed():
            return
        if self._thread.is_alive():
            with contextlib.suppress(Exception):
                self.run(self._cancel_tasks(), timeout)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout)
        if not self._thread.is_alive():
            self._loop.close()
