"""A folder's tree as it is now, written through the shadow repository's index.

The index is the stat cache: libgit2 compares each file's stat data with its entry and reads only
the files whose data changed (or that are new), so a snapshot with nothing changed hashes
nothing. The changed files are then added one at a time (libgit2 reads and hashes each as a
stream of its own), never all at once.
"""

from __future__ import annotations

import os
import stat

import pygit2
from pygit2.enums import DeltaStatus, DiffOption

from app.checkpoints.model import Skipped

# Untracked files listed one by one (not their directory), type changes as such, no content read
# for a binary check, and the stat data of files found unchanged after all written back to the
# index (else a touched file would be hashed again at every snapshot).
WORKTREE_CHANGES = (
    DiffOption.INCLUDE_UNTRACKED
    | DiffOption.RECURSE_UNTRACKED_DIRS
    | DiffOption.INCLUDE_TYPECHANGE
    | DiffOption.SKIP_BINARY_CHECK
    | DiffOption.UPDATE_INDEX
)


def take(repo: pygit2.Repository, folder: str, max_file_bytes: int) -> tuple[str, list[Skipped]]:
    """Brings the index up to the folder and writes its tree; the tree id and what was left out."""
    index = repo.index
    skipped: list[Skipped] = []
    changed = False
    for delta in index.diff_to_workdir(WORKTREE_CHANGES).deltas:
        gone = delta.status == DeltaStatus.DELETED
        path = delta.old_file.path if gone else delta.new_file.path
        left_out = None if gone else _left_out(folder, path, max_file_bytes)
        if not gone and left_out is None:
            try:
                index.add(path)  # git_index_add_bypath: its blob and stat data; links as links
                changed = True
                continue
            except FileNotFoundError:
                pass  # deleted since the walk: its entry goes below
            except (OSError, pygit2.GitError):
                left_out = Skipped(path, 0, "unreadable")
        if left_out is not None:
            skipped.append(left_out)
        changed |= _remove(index, path)
    if not changed:
        return str(index.write_tree()), skipped
    # The tree first: writing it fills the index's tree cache, kept by the write that follows,
    # so the next snapshot rebuilds only the directories that changed.
    tree = index.write_tree()
    index.write()
    return str(tree), skipped


def _left_out(folder: str, path: str, max_file_bytes: int) -> Skipped | None:
    """Why `path` stays out of the snapshot, if it does (a file gone meanwhile is not skipped)."""
    if path.endswith("/"):
        # libgit2 lists an untracked directory whole only when it is a repository of its own.
        return Skipped(path, _size(folder, path), "nested repository")
    try:
        info = os.lstat(os.path.join(folder, path))
    except OSError:
        return None
    if stat.S_ISREG(info.st_mode) and info.st_size > max_file_bytes:
        return Skipped(path, info.st_size, "too large")
    return None


def _remove(index: pygit2.Index, path: str) -> bool:
    if path.endswith("/") or path not in index:
        return False
    index.remove(path)
    return True


def _size(folder: str, path: str) -> int:
    try:
        return os.lstat(os.path.join(folder, path)).st_size
    except OSError:
        return 0
