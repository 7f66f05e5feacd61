"""An agent and everything it started, as the stop sequence sees it: four operations whose
meaning is the same everywhere, done the way each system can (process.py holds the sequence).

- POSIX (`ProcessGroup`, process_tree_posix.py): the agent leads a process group of its own
  (start_new_session); soft = SIGTERM to the group, kill = SIGKILL to the group, alive = any
  member left.
- Windows (`JobTree`, process_tree_windows.py): the agent leads a console process group
  (CREATE_NEW_PROCESS_GROUP) and is put in a kill-on-close Job Object of its own right after it
  starts; soft = CTRL_BREAK_EVENT to the group, kill = TerminateJobObject, alive = the job's
  active processes, close = the job's handle (which ends whatever is left in it).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Protocol


class ProcessTree(Protocol):
    pid: int

    def signal_soft(self) -> None:
        """Asks the whole tree to end (SIGTERM; CTRL_BREAK on Windows)."""

    def kill(self) -> None:
        """Ends the whole tree now."""

    def alive(self) -> bool:
        """Whether any process of the tree still runs (the agent or anything it started)."""

    def close(self) -> None:
        """Releases what the tree holds (idempotent); called once the agent is stopped."""


def adopt(pid: int, exited: Callable[[], bool]) -> ProcessTree:
    """The tree of an agent that has just started (`exited` tells whether the agent itself has
    ended, for when Windows cannot count the job's processes)."""
    if sys.platform == "win32":
        from app.core.process_tree_windows import JobTree

        return JobTree.adopt(pid, exited)
    else:  # noqa: RET505 (the else tells mypy this is POSIX only)
        from app.core.process_tree_posix import ProcessGroup

        return ProcessGroup(pid)


def spawn_options() -> dict[str, object]:
    """What `create_subprocess_exec` needs for the tree to be one (besides lifeline's preexec)."""
    if sys.platform == "win32":
        from app.core.process_tree_windows import creation_flags

        return {"creationflags": creation_flags()}
    return {"start_new_session": True}
