"""Checkpoints of the agents' folders (issue 25): snapshots of a folder as it is, kept in an object
store of Sidekicks' own (one shadow Git repository per folder, through pygit2/libgit2), the
differences between two snapshots, and the stored bytes a revert or restore writes back.

The store never writes in the folder it snapshots and never reads or writes the person's `.git`:
see docs/checkpoints.md.
"""

from typing import TYPE_CHECKING, Any

from app.checkpoints.model import (
    DEFAULT_IGNORED,
    DEFAULT_MAX_FILE_BYTES,
    FileDifference,
    Skipped,
    Snapshot,
)

if TYPE_CHECKING:
    from app.checkpoints.store import CheckpointError, CheckpointStore


def __getattr__(name: str) -> Any:
    # The store (and pygit2 with it, ~3 MB and 0.1-0.4 s) loads with the first checkpoint, not
    # with the idle window: importing app.checkpoints.model must not pull it in.
    if name in ("CheckpointError", "CheckpointStore"):
        from app.checkpoints import store

        return getattr(store, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "DEFAULT_IGNORED",
    "DEFAULT_MAX_FILE_BYTES",
    "CheckpointError",
    "CheckpointStore",
    "FileDifference",
    "Skipped",
    "Snapshot",
]
