"""Linux's process table, read from /proc: who runs, in which group, since when, carrying which
mark in its environment; and a signal that reaches exactly the process that was read.

Shared by the process trees (process_tree_posix.py) and the start's sweep (run_records.py): one
scan (`processes`) lists every live process; an environment is read only for the processes a
caller still considers (those started late enough), so a scan costs one small read per process.

- Start times are clock ticks after boot (/proc/<pid>/stat field 22): a process started later
  has a larger or equal one. `ticks_now` gives the same clock's present, to stamp a mark before
  the process that will carry it exists.
- `signal_exact` opens a pidfd first, then checks that the pid still has the start time that
  was read: a pid recycled between the scan and the signal is never signalled.
- A zombie has ended (it only waits to be reaped): it is never listed as alive.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

SUPPORTED = sys.platform.startswith("linux")


@dataclass(frozen=True, slots=True)
class Proc:
    pid: int
    ppid: int
    pgid: int
    start: int  # clock ticks after boot


def _read(path: str, whole: bool = True) -> bytes | None:
    """The file (its first 4 KiB unless `whole`: a stat line is shorter); None if it cannot be
    read. os.open: a scan reads hundreds of them, and the built-in open's buffered file costs
    half as much again."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return None
    try:
        chunks = [os.read(fd, 4096)]
        while whole and chunks[-1]:
            chunks.append(os.read(fd, 65536))
        return b"".join(chunks)
    except OSError:
        return None
    finally:
        os.close(fd)


def _fields(pid: int) -> list[bytes] | None:
    """The fields of /proc/<pid>/stat after the command name (state first); None if gone."""
    text = _read(f"/proc/{pid}/stat", whole=False)
    if text is None:
        return None
    fields = text.rsplit(b")", 1)[-1].split()
    return fields if len(fields) > 19 else None


def read(pid: int) -> Proc | None:
    """The live process `pid` (None if gone or a zombie)."""
    fields = _fields(pid)
    if fields is None or fields[0] == b"Z":
        return None
    return Proc(pid, int(fields[1]), int(fields[2]), int(fields[19]))


def start_time(pid: int) -> int | None:
    """The process's start time; None if it is gone or a zombie."""
    proc = read(pid)
    return proc.start if proc else None


def processes() -> dict[int, Proc]:
    """Every live process, by pid: one pass over /proc."""
    found = {}
    with os.scandir("/proc") as entries:
        for entry in entries:
            if entry.name.isdigit():
                proc = read(int(entry.name))
                if proc is not None:
                    found[proc.pid] = proc
    return found


def carries(pid: int, mark: bytes) -> bool:
    """Whether the process's environment holds `mark` (b"NAME=value") as one whole entry. Another
    user's process cannot be read: it carries nothing of ours."""
    environ = _read(f"/proc/{pid}/environ")
    entry = mark + b"\0"
    return environ is not None and (environ.startswith(entry) or b"\0" + entry in environ)


def tree(
    table: dict[int, Proc], mark: bytes, not_before: int, leaders: Iterable[tuple[int, int]] = ()
) -> list[Proc]:
    """A tree's live processes in `table`: those carrying `mark` that started at or after
    `not_before`; the members of each leader's group (`leaders`: the pid and start time of
    processes started in a group of their own) that started no earlier than it — a group counts
    only while its leader runs or a member carries the mark: its id cannot have been reused
    then; and all their descendants (a child that cleared its environment is still found while
    its parent lives). Never this process. Environments are read only for the processes that
    started late enough."""
    me = os.getpid()
    late = [proc for proc in table.values() if proc.start >= not_before and proc.pid != me]
    roots = {proc.pid for proc in late if carries(proc.pid, mark)}
    for pid, started in leaders:
        group = [proc.pid for proc in late if proc.pgid == pid and proc.start >= started]
        leader = table.get(pid)
        if (leader is not None and leader.start == started) or roots.intersection(group):
            roots.update(group)
    children: defaultdict[int, list[int]] = defaultdict(list)
    for proc in table.values():
        children[proc.ppid].append(proc.pid)
    found, stack = set(roots), list(roots)
    while stack:
        for child in children.get(stack.pop(), ()):
            if child not in found and child != me:
                found.add(child)
                stack.append(child)
    return [table[pid] for pid in sorted(found)]


def still(proc: Proc) -> bool:
    """The same process (same start time, not a recycled pid) still runs."""
    now = read(proc.pid)
    return now is not None and now.start == proc.start


def ticks_now() -> int:
    """The start-time clock's present (from /proc/uptime; CLOCK_BOOTTIME, as start times), one
    tick early: whatever starts after this call has a start time no smaller."""
    if sys.platform != "linux":
        return 0
    try:
        uptime = float(Path("/proc/uptime").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 0  # unknown: no bound (the random tree mark alone then tells ours)
    return max(0, int(uptime * os.sysconf("SC_CLK_TCK")) - 1)


def signal_exact(proc: Proc, sig: int) -> None:
    """Sends `sig` to `proc` if it is still that process (never to a recycled pid)."""
    if sys.platform != "linux":
        return
    try:
        fd = os.pidfd_open(proc.pid)
    except ProcessLookupError:
        return
    except OSError:  # no pidfd (a kernel before 5.3): the start time check alone
        if still(proc):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(proc.pid, sig)
        return
    try:
        now = _fields(proc.pid)  # the pidfd holds the process: a match now is that process
        if now is not None and int(now[19]) == proc.start:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                signal.pidfd_send_signal(fd, sig)
    finally:
        os.close(fd)
