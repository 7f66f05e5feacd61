"""Watches the configuration file with watchdog.

The folder is watched, not the file: editors often save by writing a temporary file and renaming
it over the original, which a file watch would lose. Bursts of events are debounced by the store.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from watchdog.events import FileSystemEvent, FileSystemEventHandler
from watchdog.observers import Observer


def _same(a: str | bytes, b: str) -> bool:
    a = os.fsdecode(a)
    return os.path.normcase(os.path.abspath(a)) == os.path.normcase(b)


class _Handler(FileSystemEventHandler):
    def __init__(self, target: Path, on_change: Callable[[], None]) -> None:
        self._target = os.path.abspath(target)
        self._real = os.path.realpath(target)
        self._on_change = on_change

    def on_any_event(self, event: FileSystemEvent) -> None:
        if event.event_type in ("opened", "closed_no_write"):
            return
        paths = [event.src_path, getattr(event, "dest_path", "") or ""]
        if any(p and (_same(p, self._target) or _same(p, self._real)) for p in paths):
            self._on_change()


class ConfigWatcher:
    def __init__(self, path: Path, on_change: Callable[[], None]) -> None:
        self._observer = Observer()
        folders = {path.parent, Path(os.path.realpath(path)).parent}
        handler = _Handler(path, on_change)
        for folder in folders:
            self._observer.schedule(handler, str(folder), recursive=False)
        self._observer.daemon = True

    def start(self) -> None:
        self._observer.start()

    def stop(self) -> None:
        self._observer.stop()
        if self._observer.is_alive():
            self._observer.join(timeout=5)
