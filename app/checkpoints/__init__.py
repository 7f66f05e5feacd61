"""Checkpoints of the agents' folders (issue 25): snapshots of a folder as it is, kept in an object
store of Sidekicks' own (one shadow Git repository per folder, through pygit2/libgit2), the
differences between two snapshots, and the stored bytes a revert or restore writes back.

The store never writes in the folder it snapshots and never reads or writes the person's `.git`:
see docs/checkpoints.md.
"""

from app.checkpoints.model import (
    DEFAULT_IGNORED,
    DEFAULT_MAX_FILE_BYTES,
    FileDifference,
    Skipped,
    Snapshot,
)
from app.checkpoints.store import CheckpointError, CheckpointStore

__all__ = [
    "DEFAULT_IGNORED",
    "DEFAULT_MAX_FILE_BYTES",
    "CheckpointError",
    "CheckpointStore",
    "FileDifference",
    "Skipped",
    "Snapshot",
]
