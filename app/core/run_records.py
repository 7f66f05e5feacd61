"""What this app runs, on disk, so that the next start can stop what a killed app left behind.

PDEATHSIG (lifeline.py) ends an agent when the app dies, not the agent's children. So each agent
is recorded at spawn — its process group, pid, start time and command — in
`<config dir>/sidekicks/run/agents-<app pid>.json` (written atomically; removed with the last
agent that stops). At start, `sweep_previous_runs` reads the files of apps that are gone (pid
dead, or reused by a process with another start time) and stops their groups: SIGTERM, a short
grace, SIGKILL; then deletes the file.

A process is only signalled when it is provably ours: a member of a recorded group, started no
earlier than the agent, whose environment carries that run's mark (RUN_MARK=<app pid>:<app start
time>, given to every agent and inherited by its children). A recycled pid or group id is
never killed. Linux only (/proc). Elsewhere nothing is written and nothing swept: on Windows each
agent's kill-on-close job ends its whole tree with the app (process_tree_windows.py); macOS has
no equivalent (lifeline.py).
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
from pathlib import Path
from typing import Any

from app.paths import run_dir

log = logging.getLogger(__name__)

RUN_MARK = "SIDEKICKS_RUN"
TERM_GRACE = 2.0
POLL_SECONDS = 0.05
SUPPORTED = sys.platform.startswith("linux")


def start_time(pid: int) -> int | None:
    """The process's start time (clock ticks after boot, /proc/<pid>/stat field 22); None if
    it is gone or a zombie."""
    fields = _stat(pid)
    return int(fields[19]) if fields and fields[0] != "Z" else None


def _stat(pid: int) -> list[str] | None:
    """The fields of /proc/<pid>/stat after the command name (state first)."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text.rsplit(")", 1)[1].split()


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


def sweep_in_background() -> threading.Thread | None:
    """Stops what earlier, killed runs left behind, without holding up the start."""
    if not SUPPORTED:
        return None
    folder = run_dir()  # read now: the environment may change once start() has returned
    if not folder.is_dir():
        return None
    thread = threading.Thread(
        target=sweep_previous_runs, args=(folder,), name="sidekicks-sweep", daemon=True
    )
    thread.start()
    return thread


def sweep_previous_runs(folder: Path, grace: float = TERM_GRACE) -> list[int]:
    """Stops the recorded groups of apps that are gone; the process groups it signalled."""
    stale = [(path, data) for path, data in _read_runs(folder) if not _app_alive(data)]
    if not stale:
        return []
    members = _processes()
    groups: set[int] = set()
    for _path, data in stale:
        groups |= _our_groups(data, members)
    _stop_groups(groups, grace)
    for path, _data in stale:
        with contextlib.suppress(OSError):
            path.unlink()
    if groups:
        log.info("stopped %d agent process group(s) left by a previous run", len(groups))
    return sorted(groups)


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


def _processes() -> dict[int, tuple[int, int]]:
    """Every live process: pid → (process group, start time)."""
    found = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            fields = _stat(int(entry.name))
            if fields and fields[0] != "Z":
                found[int(entry.name)] = (int(fields[2]), int(fields[19]))
    return found


def _our_groups(data: dict[str, Any], members: dict[int, tuple[int, int]]) -> set[int]:
    mark = f"{RUN_MARK}={data['app']['pid']}:{data['app']['start']}".encode()
    groups = set()
    for agent in data.get("agents", []):
        pgid, started = agent.get("pgid"), agent.get("start")
        if not isinstance(pgid, int) or not isinstance(started, int):
            continue
        for pid, (group, pid_start) in members.items():
            if group == pgid and pid_start >= started and _has_mark(pid, mark):
                groups.add(pgid)
                break
    return groups


def _has_mark(pid: int, mark: bytes) -> bool:
    try:
        return mark in Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    except OSError:
        return False


def _stop_groups(groups: set[int], grace: float) -> None:
    if sys.platform == "win32":  # never called there (SUPPORTED): Windows has no groups to kill
        return
    for sig in (signal.SIGTERM, signal.SIGKILL):
        for pgid in groups:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(pgid, sig)
        deadline = time.monotonic() + grace
        while groups and time.monotonic() < deadline:
            alive = {group for group, _start in _processes().values()}
            groups = groups & alive
            if groups:
                time.sleep(POLL_SECONDS)  # polling the groups' end, bounded by the grace
        if not groups:
            return
