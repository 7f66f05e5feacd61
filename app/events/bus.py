"""The event bus: the core emits typed payloads, subscribers get `(name, json_payload)` in order.

Subscribers are called synchronously on the emitting thread (the core loop), so they must be
quick: the window's event pump only puts the event on its own queue. A failing subscriber is
logged and never breaks the emitter or the other subscribers.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

from app.events.payloads import EVENT_PAYLOADS
from app.models.wire import WireModel

log = logging.getLogger(__name__)

Subscriber = Callable[[str, dict[str, Any]], None]


class EventBus:
    def __init__(self) -> None:
        self._subscribers: list[Subscriber] = []
        self._lock = threading.Lock()

    def subscribe(self, callback: Subscriber) -> Callable[[], None]:
        """Adds a subscriber; returns a function that removes it."""
        with self._lock:
            self._subscribers = [*self._subscribers, callback]

        def unsubscribe() -> None:
            with self._lock:
                self._subscribers = [s for s in self._subscribers if s is not callback]

        return unsubscribe

    def emit(self, name: str, payload: WireModel) -> None:
        expected = EVENT_PAYLOADS.get(name)
        if expected is None or not isinstance(payload, expected):
            raise TypeError(f"event {name!r} does not take a {type(payload).__name__}")
        data = payload.wire()
        for subscriber in self._subscribers:  # a snapshot: the list is replaced, never mutated
            try:
                subscriber(name, data)
            except Exception:
                log.exception("event subscriber failed on %s", name)
