"""POSIX process groups: whether one still has a member (agents' trees, sign-in terminals)."""

from __future__ import annotations

import os
import sys


def group_alive(pgid: int) -> bool:
    """Whether a process of group `pgid` still runs (signal 0 checks without sending). A group
    we may not signal (another user's process took the id) counts as alive: never assume gone."""
    if sys.platform == "win32":
        raise OSError("process groups are POSIX: Windows trees are Job Objects")
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
