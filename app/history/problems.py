"""A history's `problem` (what `ConfigService.Current().historyProblem` shows) and who hears of
it when it appears after the history was opened: damage found by a read or a write."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from pathlib import Path

from app.i18n import _

log = logging.getLogger(__name__)

ProblemListener = Callable[[str], None]


class ProblemReport:
    """The first problem found is kept (the banner says one thing, and the first damage is
    the one to look at); each damage is logged once, however often it is read again. Any
    thread may report."""

    def __init__(self, problem: str = "") -> None:
        self._problem = problem
        self._listeners: list[ProblemListener] = []
        self._lock = threading.Lock()
        self._logged: set[str] = set()

    @property
    def problem(self) -> str:
        return self._problem

    def on_problem(self, listener: ProblemListener) -> None:
        """`listener(problem)` is called, from the thread that found it, when a problem
        appears; it must be quick (the core hops onto its loop)."""
        with self._lock:
            self._listeners.append(listener)

    def damaged(self, folder: Path, details: str, error: BaseException | None = None) -> None:
        with self._lock:
            first_time = details not in self._logged
            self._logged.add(details)
        if first_time:
            log.error("the history in %s is damaged: %s", folder, details, exc_info=error)
        self.report(
            _(
                "The history in {folder} is damaged ({details}). What cannot be read is left "
                "out and the file is kept as it is; to start a new history, close Sidekicks "
                "and move that folder away."
            ).format(folder=folder, details=details)
        )

    def report(self, problem: str) -> None:
        with self._lock:
            if self._problem:
                return
            self._problem = problem
            listeners = list(self._listeners)
        for listener in listeners:
            try:
                listener(problem)
            except Exception:
                log.exception("a history problem listener failed")
