"""Waiting on conditions with a timeout (tests never sleep a fixed time)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


def wait_for(condition: Callable[[], T], timeout: float = 5.0, what: str = "condition") -> T:
    """Polls `condition` until it returns something truthy; fails the test after `timeout`."""
    deadline = time.monotonic() + timeout
    delay = 0.005
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout}s waiting for {what}")
        time.sleep(delay)  # a poll interval, not a fixed wait: the loop ends on the condition
        delay = min(delay * 2, 0.05)


class EventLog:
    """Subscribes to a bus and records every event; waits for the ones a test expects."""

    def __init__(self) -> None:
        self.events: list[tuple[str, dict[str, Any]]] = []
        self._lock = threading.Lock()

    def __call__(self, name: str, payload: dict[str, Any]) -> None:
        with self._lock:
            self.events.append((name, payload))

    def named(self, name: str, since: int = 0) -> list[dict[str, Any]]:
        with self._lock:
            return [p for n, p in self.events[since:] if n == name]

    def mark(self) -> int:
        """A point in the log: `wait(..., since=mark)` only looks at later events."""
        with self._lock:
            return len(self.events)

    def wait(
        self,
        name: str,
        where: Callable[[dict[str, Any]], bool] = lambda _: True,
        timeout: float = 5.0,
        since: int = 0,
    ) -> dict[str, Any]:
        def found() -> dict[str, Any] | None:
            return next((p for p in self.named(name, since) if where(p)), None)

        result = wait_for(found, timeout, what=f"event {name}")
        assert result is not None
        return result
