"""The event pump: backend events to the page, in order, in batches (DESIGN §4 Events).

The bus calls `put` on the core loop thread (cheap: a queue put). One daemon thread drains the
queue: it takes what is waiting (up to 500 events), merges consecutive text deltas of the same
part, and sends the batch with one `evaluate_js`; while a batch is on its way the next one
builds up, so a burst costs few calls and a lone event goes out at once. It never runs on the
GUI thread (evaluate_js from there deadlocks) and stops when the window closes.
"""

from __future__ import annotations

import json
import logging
import queue
import threading
from collections.abc import Callable
from typing import Any

from app.events import names

log = logging.getLogger(__name__)

MAX_BATCH = 500
WAIT_SECONDS = 0.004  # the longest a lone event waits for company (well under ~16 ms)
_STOP: tuple[str, dict[str, Any]] = ("", {})


def coalesce(batch: list[tuple[str, dict[str, Any]]]) -> list[tuple[str, dict[str, Any]]]:
    """Merges consecutive text appends to the same part; keeps everything else as it is."""
    out: list[tuple[str, dict[str, Any]]] = []
    for name, payload in batch:
        if name == names.MESSAGE_DELTA and payload.get("text") is not None and out:
            last_name, last = out[-1]
            if (
                last_name == names.MESSAGE_DELTA
                and last.get("text") is not None
                and last["messageId"] == payload["messageId"]
                and last["index"] == payload["index"]
                and last["channel"] == payload["channel"]
            ):
                out[-1] = (name, {**last, "text": last["text"] + payload["text"]})
                continue
        out.append((name, payload))
    return out


def script_for(batch: list[tuple[str, dict[str, Any]]]) -> str:
    data = json.dumps([[n, p] for n, p in batch], ensure_ascii=False, separators=(",", ":"))
    return f"window.__sidekicks&&window.__sidekicks.dispatch({data})"


class EventPump:
    def __init__(self, send: Callable[[str], object]) -> None:
        self._send = send
        self._queue: queue.SimpleQueue[tuple[str, dict[str, Any]]] = queue.SimpleQueue()
        self._page_ready = threading.Event()
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._run, name="sidekicks-events", daemon=True)

    def put(self, name: str, payload: dict[str, Any]) -> None:
        if not self._stopped.is_set():
            self._queue.put((name, payload))

    def start(self) -> None:
        self._thread.start()

    def page_loaded(self) -> None:
        """The page (re)loaded: its dispatcher exists, events can flow."""
        self._page_ready.set()

    def stop(self) -> None:
        self._stopped.set()
        self._page_ready.set()
        self._queue.put(_STOP)

    def join(self, timeout: float = 2.0) -> None:
        if self._thread.is_alive():
            self._thread.join(timeout)

    def _run(self) -> None:
        self._page_ready.wait()
        while not self._stopped.is_set():
            first = self._queue.get()
            if first is _STOP or self._stopped.is_set():
                return
            batch = [first]
            try:
                while len(batch) < MAX_BATCH:
                    item = self._queue.get(timeout=WAIT_SECONDS if len(batch) == 1 else 0)
                    if item is _STOP:
                        self._stopped.set()
                        break
                    batch.append(item)
            except queue.Empty:
                pass
            self._deliver(coalesce(batch))

    def _deliver(self, batch: list[tuple[str, dict[str, Any]]]) -> None:
        try:
            self._send(script_for(batch))
        except Exception:
            if not self._stopped.is_set():
                log.exception("could not deliver %d events to the page", len(batch))
