"""Sidekicks' own notes in an agent's log, rate-limited by kind: the first note of a kind is
logged at once, later ones of that kind are counted and summed up at most once per period, so
a flood of bad output cannot flood the log (nor the page, which streams `agent:log`)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass

from app.i18n import _

PERIOD = 10.0  # seconds between two notes of the same kind
PREFIX = "[sidekicks] "


@dataclass
class _Kind:
    label: str
    quiet_until: float = 0.0
    skipped: int = 0
    flush: asyncio.TimerHandle | None = None


class Notices:
    def __init__(self, on_log: Callable[[str], None], period: float = PERIOD) -> None:
        self._on_log = on_log
        self._period = period
        self._kinds: dict[str, _Kind] = {}

    def report(self, kind: str, label: str, text: str) -> None:
        """`text` now if no note of `kind` was logged this period; else it is counted.
        `label` names the kind in the summary ("not JSON")."""
        state = self._kinds.setdefault(kind, _Kind(label))
        loop = asyncio.get_running_loop()
        now = loop.time()
        if state.skipped == 0 and now >= state.quiet_until:
            self._on_log(PREFIX + text)
            state.quiet_until = now + self._period
            return
        state.skipped += 1
        if state.flush is None:
            state.flush = loop.call_at(state.quiet_until, self._flush, state)

    def close(self) -> None:
        """Logs the counts still pending (the connection is ending)."""
        for state in self._kinds.values():
            self._flush(state)

    def _flush(self, state: _Kind) -> None:
        if state.flush is not None:
            state.flush.cancel()
            state.flush = None
        if not state.skipped:
            return
        count, state.skipped = state.skipped, 0
        self._on_log(
            PREFIX
            + _("{count} more lines were skipped for the same reason ({reason})").format(
                count=count, reason=state.label
            )
        )
        state.quiet_until = asyncio.get_running_loop().time() + self._period
