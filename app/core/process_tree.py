"""A program Sidekicks starts and everything it starts in turn (an agent, an agent's command, a
sign-in terminal), as the stop sequences see it: four operations whose meaning is the same
everywhere, done the way each system can, and `end`, the sequence built on them.

- POSIX (`PosixTree`, process_tree_posix.py): the program leads a process group of its own
  (start_new_session), and its environment carries the tree's mark (SIDEKICKS_TREE, `TreeMark`),
  inherited by everything it starts. soft = SIGTERM, kill = SIGKILL, to the group and, on Linux,
  to every process carrying the mark — a child that left the group and the session with
  `setsid` included; alive = any of them left. macOS: the group alone (why: the module's
  docstring).
- Windows (`JobTree`, process_tree_windows.py): the program leads a console process group
  (CREATE_NEW_PROCESS_GROUP) and is put in a kill-on-close Job Object of its own right after it
  starts; soft = CTRL_BREAK_EVENT to the group, kill = TerminateJobObject, alive = the job's
  active processes, close = the job's handle (which ends whatever is left in it). A job holds
  what a setsid-like child would escape with: a process leaves its job only if the job allows
  breakaway (JOB_OBJECT_LIMIT_BREAKAWAY_OK or SILENT_BREAKAWAY_OK, which winjob.py never sets;
  CREATE_BREAKAWAY_FROM_JOB is then refused with access denied), and a new console group or
  DETACHED_PROCESS stays in the job. What escapes: a process a service starts on the tree's
  behalf (Task Scheduler, WMI's Win32_Process.Create), as on Linux (process_tree_posix.py).

The mark is a random value made before the spawn, with the boot clock's time then: a process
carrying it that started earlier cannot be the tree's (process_table.py). It goes in the
environment last, after the run mark (run_records.py), so that neither an agent nor a request's
`env` can set either.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Protocol

from app.core import process_table
from app.core.run_records import RUN_MARK, run_mark

log = logging.getLogger(__name__)

TREE_MARK = "SIDEKICKS_TREE"
POLL_SECONDS = 0.05
KILL_AGAIN_SECONDS = 1.0  # a tree still there after a kill is killed again (it forked meanwhile)
KILL_PATIENCE = 10.0


class ProcessTree(Protocol):
    pid: int

    def signal_soft(self) -> None:
        """Asks the whole tree to end (SIGTERM; CTRL_BREAK on Windows)."""

    def kill(self) -> None:
        """Ends the whole tree now."""

    def alive(self) -> bool:
        """Whether any process of the tree still runs (the program or anything it started)."""

    def close(self) -> None:
        """Releases what the tree holds (idempotent); called once the program is stopped."""


@dataclass(frozen=True)
class TreeMark:
    """What a tree's processes carry in their environment: made before the program starts."""

    value: str = field(default_factory=lambda: secrets.token_hex(12))
    not_before: int = field(default_factory=process_table.ticks_now)  # 0 without /proc

    def environment(self, env: Mapping[str, str]) -> dict[str, str]:
        """`env` with the run's mark and this tree's, set last (nothing given overrides them)."""
        return {**env, RUN_MARK: run_mark(), TREE_MARK: self.value}

    def entry(self) -> bytes:
        return f"{TREE_MARK}={self.value}".encode()


def adopt(pid: int, exited: Callable[[], bool], mark: TreeMark) -> ProcessTree:
    """The tree of a program that has just started with `mark`'s environment (`exited` tells
    whether the program itself has ended, for when Windows cannot count the job's processes)."""
    if sys.platform == "win32":
        from app.core.process_tree_windows import JobTree

        return JobTree.adopt(pid, exited)
    else:  # noqa: RET505 (the else tells mypy this is POSIX only)
        return posix_tree(pid, mark)


def posix_tree(pid: int, mark: TreeMark) -> ProcessTree:
    """POSIX: the group `pid` leads and what carries `mark` (sign-in terminals use it alone:
    on Windows their programs are in the app's job, lifeline_windows.py)."""
    if sys.platform == "win32":
        raise OSError("process groups are POSIX: Windows trees are Job Objects")
    else:  # noqa: RET506 (the else tells mypy this is POSIX only)
        from app.core.process_tree_posix import PosixTree

        return PosixTree(pid, mark.entry(), mark.not_before)


def spawn_options() -> dict[str, object]:
    """What `create_subprocess_exec` needs for the tree to be one (besides lifeline's preexec)."""
    if sys.platform == "win32":
        from app.core.process_tree_windows import creation_flags

        return {"creationflags": creation_flags()}
    return {"start_new_session": True}


async def end(tree: ProcessTree, grace: float, done: Callable[[], bool] = lambda: True) -> None:
    """Ends the whole tree: the soft request, up to `grace` for it to go, then a kill, repeated
    each second until nothing of it is left — for KILL_PATIENCE at most: a process stuck in the
    kernel (uninterruptible I/O) ignores even SIGKILL, and must not hold up a Stop or the app's
    close for ever. `done`: whether the program itself was seen to end (a tree whose program
    still runs is not gone, whatever the scan says)."""

    def gone() -> bool:
        return done() and not tree.alive()

    if gone():
        return
    tree.signal_soft()
    if await _within(gone, grace):
        return
    deadline = asyncio.get_running_loop().time() + KILL_PATIENCE
    while asyncio.get_running_loop().time() < deadline:
        tree.kill()
        if await _within(gone, KILL_AGAIN_SECONDS):
            return
    log.warning(
        "the process tree of %d is still there %.0f s after its kill", tree.pid, KILL_PATIENCE
    )


async def _within(condition: Callable[[], bool], timeout: float) -> bool:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        if loop.time() >= deadline:
            return False
        await asyncio.sleep(POLL_SECONDS)
    return True
