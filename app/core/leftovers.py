"""What killed earlier runs left behind, dealt with at start in one background thread (never
holding up the start): their processes are stopped (run_records.py, Linux only) and the temporary
files of their atomic writes removed (temp_files.py). Both live in the run folder, read once."""

from __future__ import annotations

import threading
from pathlib import Path

from app.core import run_records, temp_files
from app.paths import run_dir


def sweep_in_background() -> threading.Thread | None:
    """Starts the sweep of the run folder; None when there is nothing to sweep."""
    folder = run_dir()  # read now: the environment may change once start() has returned
    if not folder.is_dir():
        return None
    thread = threading.Thread(target=sweep, args=(folder,), name="sidekicks-sweep", daemon=True)
    thread.start()
    return thread


def sweep(folder: Path) -> None:
    if run_records.SUPPORTED:
        run_records.sweep_previous_runs(folder)
    temp_files.sweep(folder)
