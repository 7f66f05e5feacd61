"""What the checkpoint store hands out: a snapshot, a file it skipped, a file's difference."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

# Ignored in every folder on top of its own .gitignore files (the shadow gitdir's info/exclude):
# what tools regenerate and nobody reverts by hand.
DEFAULT_IGNORED: tuple[str, ...] = ("node_modules/", ".venv/", "__pycache__/", "*.pyc", ".DS_Store")
DEFAULT_MAX_FILE_BYTES = 5 * 1024 * 1024

# Why a path is not in a snapshot: over the size cap, a repository of its own inside the folder
# (a submodule, a cloned dependency: its files are its own Git's business), or unreadable.
SkipReason = Literal["too large", "nested repository", "unreadable"]
Status = Literal["added", "modified", "deleted", "renamed"]
# What a revert recreates: a regular file, an executable one, or a symbolic link (its target).
Kind = Literal["file", "executable", "link"]


@dataclass(frozen=True)
class Skipped:
    path: str  # relative to the folder, "/"-separated; a nested repository's ends with "/"
    size: int  # bytes (a directory's own size for a nested repository)
    reason: SkipReason


@dataclass(frozen=True)
class Snapshot:
    id: str  # the store's name for it (its ref is refs/sidekicks/<id>)
    tree_id: str  # the folder's tree, what `differences` compares
    commit_id: str  # the commit that keeps the tree (and the time) alive until forgotten
    taken_at: int  # seconds since the epoch
    skipped: tuple[Skipped, ...]


@dataclass(frozen=True)
class FileDifference:
    path: str  # the path after (a deleted file's own path)
    status: Status
    old_path: str | None  # a renamed file's path before, else None
    binary: bool
    additions: int  # lines; 0 for a binary file
    deletions: int
    old_blob: str | None  # the bytes before (None when added): what a revert writes back
    new_blob: str | None  # the bytes after (None when deleted): what "changed since" compares
    old_kind: Kind | None
    new_kind: Kind | None
