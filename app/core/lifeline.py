"""Agents die with the app, even when the app is killed (SIGKILL, a crash): what the OS offers,
set up at spawn.

Linux — PR_SET_PDEATHSIG=SIGKILL, set in the child between fork and exec (`preexec_fn`). The
kernel sends it when the *thread* that forked the child exits: agents are spawned on the core
loop thread (asyncio forks on the thread running the loop), which lives as long as the app. It
reaches the agent only, not the agent's children: run_records.py stops those at the next start.
  Why preexec_fn and not a launcher: the docs call preexec_fn unsafe in a threaded program (a
  lock another thread held at fork stays held in the child). Ours calls one libc function
  resolved before the fork — no import, no lock, no logging, no allocation beyond ctypes'
  argument conversion — then exits if the app already died. Its cost: fork instead of vfork,
  which copies the page tables while the loop waits (a spawn took 3 ms; now 10 ms from a
  100 MB app, 40 ms from a 1 GB one — once per agent start). A launcher (a tiny program that
  sets the signal and execs the agent) would cost an interpreter start per agent, does not exist
  in the frozen app, and would turn "program not found" into a bare exit code.
Windows — Job Objects with JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE: each agent has one of its own
(process_tree_windows.py), and so has each command they run; the programs that have none
(sign-in terminals) are put in one app-wide job here (lifeline_windows.py), right after they
start (a child they start in that instant escapes). Their children join the job by
themselves. The app holds the jobs' only handles: when the app ends, however it ends, Windows
closes them and ends every process in them.
macOS — no equivalent: an agent that ignores stdin EOF and SIGTERM outlives a killed app.
"""

from __future__ import annotations

import ctypes
import logging
import os
import signal
import sys
from collections.abc import Callable

log = logging.getLogger(__name__)

PR_SET_PDEATHSIG = 1


def _load_prctl() -> Callable[..., int] | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        log.warning("prctl is not available: agents may outlive a killed app")
        return None
    prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong]
    prctl.restype = ctypes.c_int
    fn: Callable[..., int] = prctl
    return fn


_prctl = _load_prctl()


def preexec() -> Callable[[], None] | None:
    """The `preexec_fn` that ties the next agent's life to this app (None: nothing to do)."""
    prctl = _prctl
    if prctl is None or sys.platform == "win32":
        return None
    app_pid = os.getpid()

    def die_with_the_app() -> None:  # runs in the child, after fork: keep it to syscalls
        prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        if os.getppid() != app_pid:  # the app died before the signal was armed
            os._exit(1)

    return die_with_the_app


def adopt(pid: int) -> None:
    """Windows: puts a just-started program in the app's kill-on-close job (elsewhere: nothing).
    Agents do not need it: their own job does the same (process_tree_windows.py)."""
    if sys.platform == "win32":
        from app.core.lifeline_windows import assign_to_job

        assign_to_job(pid)
