"""What this app runs, on disk, so that the next start can stop what a killed app left behind.

PDEATHSIG (lifeline.py) ends an agent when the app dies, not the agent's children. So each
program the app starts (an agent, an agent's command, a sign-in terminal) is recorded at spawn —
its process group, pid, start time and command — in `<config dir>/sidekicks/run/agents-<app
pid>.json` (written atomically; removed with the last one that stops). At start,
`sweep_previous_runs` reads the files of apps that are gone (pid dead, or reused by a process
with another start time) and stops what they left: SIGTERM, a short grace, SIGKILL, scanning
again until nothing is left; then deletes the file.

What a run left is whatever carries its mark (RUN_MARK=<app pid>:<app start time>, in every
program's environment and inherited by everything they start, process_tree.TreeMark) and started
no earlier than the app — wherever it went: a child that called `setsid` is in no recorded group
but still carries the mark — plus their live descendants, plus the members of a recorded group
one of whose members carries the mark (a member that cleared its environment). A process without
the mark, or older than the run, is never signalled; signals go by pidfd after the start time is
checked (process_table.py), so a recycled pid or group id is never killed. Linux only (/proc).
Elsewhere nothing is written and nothing swept: on Windows each tree's kill-on-close job ends it
with the app (process_tree_windows.py); macOS has no equivalent (lifeline.py).
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from app.core import process_table
from app.core.process_table import Proc, start_time
from app.paths import run_dir

log = logging.getLogger(__name__)

RUN_MARK = "SIDEKICKS_RUN"
TERM_GRACE = 2.0
POLL_SECONDS = 0.05
KILL_ROUNDS = 8  # SIGKILL, then a scan for what forked meanwhile, at most this many times
SUPPORTED = process_table.SUPPORTED


def run_mark() -> str:
    """This app's mark, put in every agent's environment."""
    return f"{os.getpid()}:{start_time(os.getpid()) if SUPPORTED else 0}"


class RunRecords:
    """This app's agents, one JSON file per app process and config folder (the folder is read
    at each spawn: tests give each app its own)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()  # several apps (loop threads) may share one process
        self._files: dict[Path, dict[int, dict[str, Any]]] = {}

    def add(self, pid: int, command: list[str]) -> None:
        if not SUPPORTED:
            return
        path = run_dir() / f"agents-{os.getpid()}.json"
        record = {"pid": pid, "pgid": pid, "start": start_time(pid), "command": command}
        with self._lock:
            agents = self._files.setdefault(path, {})
            agents[pid] = record
            self._write(path, agents)

    def remove(self, pid: int) -> None:
        with self._lock:
            for path, agents in list(self._files.items()):
                if agents.pop(pid, None) is not None:
                    self._write(path, agents)
                if not agents:
                    del self._files[path]

    def _write(self, path: Path, agents: dict[int, dict[str, Any]]) -> None:
        try:
            if not agents:
                path.unlink(missing_ok=True)
                return
            path.parent.mkdir(parents=True, exist_ok=True)
            app = {"pid": os.getpid(), "start": start_time(os.getpid())}
            text = json.dumps({"app": app, "agents": list(agents.values())})
            temporary = path.with_suffix(".tmp")
            temporary.write_text(text, encoding="utf-8")
            os.replace(temporary, path)  # a reader sees the old file or the new one, whole
        except OSError as err:
            log.warning("could not record the running agents in %s: %s", path, err)


records = RunRecords()


def sweep_previous_runs(folder: Path, grace: float = TERM_GRACE) -> list[int]:
    """Stops what the apps that are gone left running; the pids it signalled."""
    stale = [(path, data) for path, data in _read_runs(folder) if not _app_alive(data)]
    if not stale:
        return []
    signalled = _stop(lambda: _leftovers([data for _path, data in stale]), grace)
    for path, _data in stale:
        with contextlib.suppress(OSError):
            path.unlink()
    if signalled:
        log.info("stopped %d process(es) left by a previous run", len(signalled))
    return signalled


def _read_runs(folder: Path) -> list[tuple[Path, dict[str, Any]]]:
    runs = []
    for path in folder.glob("agents-*.json"):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            if isinstance(data, dict) and isinstance(data.get("app"), dict):
                runs.append((path, data))
                continue
        except (OSError, ValueError):
            pass
        with contextlib.suppress(OSError):
            path.unlink()  # unreadable: there is nothing we could safely do with it
    return runs


def _app_alive(data: dict[str, Any]) -> bool:
    app = data["app"]
    pid, started = app.get("pid"), app.get("start")
    return isinstance(pid, int) and started is not None and start_time(pid) == started


def _leftovers(runs: list[dict[str, Any]]) -> list[Proc]:
    """What the runs left, from one scan (process_table.tree): every process carrying a run's
    mark that started no earlier than that run's app (wherever it went: `setsid` included),
    the members of its recorded groups that still hold a marked member (one may have cleared
    its environment), and their descendants."""
    table = process_table.processes()
    found: dict[int, Proc] = {}
    for data in runs:
        app = data["app"]
        if not isinstance(app.get("pid"), int) or not isinstance(app.get("start"), int):
            continue
        mark = f"{RUN_MARK}={app['pid']}:{app['start']}".encode()
        leaders = [
            (agent["pgid"], agent["start"])
            for agent in data.get("agents", [])
            if isinstance(agent.get("pgid"), int) and isinstance(agent.get("start"), int)
        ]
        found.update((p.pid, p) for p in process_table.tree(table, mark, app["start"], leaders))
    return list(found.values())


def _stop(scan: Callable[[], list[Proc]], grace: float) -> list[int]:
    """SIGTERM to what `scan` finds, up to `grace` for it to end, then SIGKILL, scanning again
    until nothing is found (a process may fork while it is being stopped)."""
    if sys.platform == "win32":  # never called there (SUPPORTED): Windows trees are jobs
        return []
    signalled: set[int] = set()
    for sig, wait in ((signal.SIGTERM, grace), *[(signal.SIGKILL, grace)] * KILL_ROUNDS):
        targets = scan()
        if not targets:
            break
        for proc in targets:
            process_table.signal_exact(proc, sig)
        signalled.update(proc.pid for proc in targets)
        deadline = time.monotonic() + wait
        while any(map(process_table.still, targets)) and time.monotonic() < deadline:
            time.sleep(POLL_SECONDS)  # polling their end, bounded by the grace
    return sorted(signalled)
