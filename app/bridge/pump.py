"""The event pump: backend events to the page, in order, in batches (DESIGN §4 Events).

The bus calls `put` on the core loop thread (cheap: a queue put). One daemon thread drains the
queue: it takes what is waiting (up to 500 events), merges consecutive text deltas of the same
part, and sends the batch with one `evaluate_js`; while a batch is on its way the next one
builds up, so a burst costs few calls and a lone event goes out at once. It never runs on the
GUI thread (evaluate_js from there deadlocks) and stops when the window closes.

Answers keep the order too: `settle` waits until the events put so far have reached the page,
and each answer to the page waits on it (results.page_api). Answers go out on threads of their
own, so without it a call's answer often overtook the events the call itself had emitted (half
of 20 `ChannelService.Create` calls measured: their `channels:changed` came after the answer),
and events older than an answer arrived after it: a conversation opened on a snapshot then heard,
late, of messages already in it (a user message heard so scrolled the list back to its end).
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
SETTLE_SECONDS = 2.0  # the longest an answer waits for the events before it (a stuck page)
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
    def __init__(self, send: Callable[[str], object] | None = None) -> None:
        self._send = send
        self._queue: queue.SimpleQueue[tuple[str, dict[str, Any]]] = queue.SimpleQueue()
        self._page_ready = threading.Event()
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._run, name="sidekicks-events", daemon=True)
        # Events counted as they are put and as they reach the page (what `settle` waits on).
        self._counts = threading.Condition()
        self._put = 0
        self._delivered = 0

    def put(self, name: str, payload: dict[str, Any]) -> None:
        if not self._stopped.is_set():
            with self._counts:
                self._put += 1
            self._queue.put((name, payload))

    def start(self, send: Callable[[str], object] | None = None) -> None:
        """Starts sending, with `send` when given (the window's, made after the page's api)."""
        if send is not None:
            self._send = send
        if self._send is None:
            raise ValueError("the event pump has nothing to send with")
        self._thread.start()

    def settle(self, timeout: float = SETTLE_SECONDS) -> bool:
        """Waits until every event put before this call has reached the page (sent, and the
        page's dispatcher run); False when it gave up: no page yet, stopped, or `timeout`."""
        with self._counts:
            target = self._put
            if self._delivered >= target:
                return True
            if not self._page_ready.is_set() or self._stopped.is_set():
                return False
            self._counts.wait_for(
                lambda: self._delivered >= target or self._stopped.is_set(), timeout
            )
            return self._delivered >= target

    def page_loaded(self) -> None:
        """The page (re)loaded: its dispatcher exists, events can flow."""
        self._page_ready.set()

    def stop(self) -> None:
        self._stopped.set()
        self._page_ready.set()
        self._queue.put(_STOP)
        with self._counts:
            self._counts.notify_all()  # no answer waits on a pump that stopped

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
            with self._counts:
                self._delivered += len(batch)
                self._counts.notify_all()

    def _deliver(self, batch: list[tuple[str, dict[str, Any]]]) -> None:
        assert self._send is not None  # start() made sure
        try:
            self._send(script_for(batch))
        except Exception:
            if not self._stopped.is_set():
                log.exception("could not deliver %d events to the page", len(batch))
