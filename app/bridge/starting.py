"""The backend started on a thread of its own while the window opens.

Importing the backend (pydantic, ruamel.yaml, asyncio, the features: ~250 ms of a 2-core
machine's CPU) used to come before the window: the window's own start (Qt's import, QtWebEngine's
processes, the renderer loading the page) waited for it. Most of the window's start runs outside
the interpreter (Qt releases the GIL; the renderer is another process), so the two now overlap:
the page loads while the backend starts, and pywebview gives the page its api once the backend
is there (late_api.py). docs/benchmarks.md has the figures.

The configuration is resolved before either starts (app/config/startup.py, which imports no
validation): a file that cannot be read is still said with no window.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from app.sidekicks import Sidekicks

log = logging.getLogger(__name__)
Started = Callable[["Sidekicks"], None]


class BackgroundStart:
    """`start` runs once on its own thread; `when_started` callbacks run after it (on that
    thread, or at once if it is over), `failed` ones when it raised (or a callback did)."""

    def __init__(self, start: Callable[[], Sidekicks]) -> None:
        self._start = start
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._run, name="backend-start", daemon=True)
        self._done = False
        self._backend: Sidekicks | None = None
        self._error: BaseException | None = None
        self._waiting: list[tuple[Started, Callable[[], None]]] = []

    def begin(self) -> BackgroundStart:
        self._thread.start()
        return self

    def when_started(self, started: Started, failed: Callable[[], None]) -> None:
        with self._lock:
            if not self._done:
                self._waiting.append((started, failed))
                return
        self._tell(started, failed)

    def _run(self) -> None:
        backend: Sidekicks | None = None
        try:
            backend = self._start()
        except BaseException as err:  # raised again by result(), on the main thread
            self._error = err
        with self._lock:
            self._done = True
            self._backend = backend
            waiting, self._waiting = self._waiting, []
        for started, failed in waiting:
            self._tell(started, failed)

    def _tell(self, started: Started, failed: Callable[[], None]) -> None:
        """Once the start ended: `started` with the backend, else (or if it raises) `failed`."""
        if self._backend is None:
            failed()
            return
        try:
            started(self._backend)
        except Exception as err:
            log.exception("the window could not be connected to the backend")
            self._error = self._error or err
            failed()

    def wait(self) -> None:
        """Until the start ended (at once if it never began)."""
        if self._thread.ident is not None:
            self._thread.join()

    def result(self) -> Sidekicks:
        """The started backend, once its start ended (raises what the start raised)."""
        self.wait()
        if self._error is not None:
            raise self._error
        assert self._backend is not None
        return self._backend

    def close(self) -> None:
        """Once its start ended (a window closed early waits for it), closes what started."""
        self.wait()
        if self._backend is not None:
            self._backend.close()
