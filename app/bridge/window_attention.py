"""The window's side of being told (issue 17): its title counts what waits ("(3) Sidekicks"), and a
clicked notification brings it to the front.

Bus subscribers run on the core loop and must be quick, and pywebview's window calls wait for the
GUI thread: so events only go on a queue here, and a thread of our own makes the window calls
(the latest title wins when several changes are queued).
"""

from __future__ import annotations

import logging
import queue
import sys
import threading
from typing import Any

from app.attention.title import window_title
from app.events import names

log = logging.getLogger(__name__)

_STOP = ("stop", "")


class WindowAttention:
    def __init__(self, window: Any) -> None:
        self._window = window
        self._queue: queue.SimpleQueue[tuple[str, str]] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name="sidekicks-window", daemon=True)
        self._minimized = False
        self._raiser: Any = None
        window.events.minimized += self._on_minimized
        window.events.restored += self._on_restored
        window.events.maximized += self._on_restored

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._queue.put(_STOP)

    def on_event(self, name: str, payload: dict[str, Any]) -> None:
        """A bus subscriber (on the core loop): queues, never waits."""
        if name == names.ATTENTION_CHANGED:
            self._queue.put(("title", window_title(int(payload["total"]))))
        elif name == names.NOTIFICATION_OPENED:
            self._queue.put(("front", ""))

    def _on_minimized(self) -> None:
        self._minimized = True

    def _on_restored(self) -> None:
        self._minimized = False

    def _run(self) -> None:
        shown = window_title(0)
        while True:
            kind, value = self._queue.get()
            if (kind, value) == _STOP:
                return
            try:
                if kind == "title":
                    while not self._queue.empty():  # only the latest title matters
                        later = self._queue.get()
                        if later == _STOP:
                            return
                        if later[0] == "title":
                            value = later[1]
                        else:
                            self._front()
                    if value != shown:
                        self._window.set_title(value)  # waits until the window is shown
                        shown = value
                        log.info("window title: %s", value)
                else:
                    self._front()
            except Exception:
                log.warning("the window could not be updated", exc_info=True)

    def _front(self) -> None:
        """Shows the window, restores it when minimized (a maximized one stays maximized) and,
        on Qt, raises and activates it."""
        if self._minimized:
            self._window.restore()
        self._window.show()
        if sys.platform.startswith("linux"):
            if self._raiser is None:
                self._raiser = _qt_raiser(self._window)
            if self._raiser is not None:
                self._raiser.requested.emit()
        log.info("window brought to the front")


def _qt_raiser(window: Any) -> Any:
    """A QObject living on the GUI thread whose signal, emitted from any thread, raises and
    activates the window there (pywebview's restore() would also un-maximize it)."""
    try:
        from PyQt6.QtCore import QObject, Qt, pyqtSignal, pyqtSlot
        from PyQt6.QtWidgets import QApplication
        from webview.platforms.qt import BrowserView
    except ImportError:
        return None
    found = BrowserView.instances.get(window.uid)
    app = QApplication.instance()
    if found is None or app is None:
        return None
    widget: Any = found

    class Raiser(QObject):
        requested = pyqtSignal()

        @pyqtSlot()
        def raise_window(self) -> None:
            state = widget.windowState() & ~Qt.WindowState.WindowMinimized
            widget.setWindowState(state | Qt.WindowState.WindowActive)
            widget.raise_()
            widget.activateWindow()
            log.info("window raised and activated")

    raiser = Raiser()
    raiser.moveToThread(app.thread())
    raiser.requested.connect(raiser.raise_window)
    return raiser
