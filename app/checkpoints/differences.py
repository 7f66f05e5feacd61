"""The differences between two snapshots of a folder: each changed path once, renames found."""

from __future__ import annotations

from collections.abc import Iterator

import pygit2
from pygit2.enums import DeltaStatus, DiffFind, DiffOption, FileMode

from app.checkpoints.model import FileDifference, Kind, Status

STATUSES: dict[DeltaStatus, Status] = {
    DeltaStatus.ADDED: "added",
    DeltaStatus.DELETED: "deleted",
    DeltaStatus.MODIFIED: "modified",
    DeltaStatus.TYPECHANGE: "modified",  # a file become a link (or back) is one path changed
    DeltaStatus.RENAMED: "renamed",
}
KINDS: dict[int, Kind] = {
    FileMode.BLOB: "file",
    FileMode.BLOB_EXECUTABLE: "executable",
    FileMode.LINK: "link",
}
ZERO = "0" * 40


def between(repo: pygit2.Repository, before: str, after: str) -> Iterator[FileDifference]:
    """One FileDifference per changed path, files read one pair at a time (a patch each)."""
    old = repo.revparse_single(before).peel(pygit2.Tree)
    new = repo.revparse_single(after).peel(pygit2.Tree)
    diff = old.diff_to_tree(new, flags=DiffOption.INCLUDE_TYPECHANGE)
    diff.find_similar(DiffFind.FIND_RENAMES)
    for patch in diff:
        if patch is None:
            continue  # an unchanged entry: none in a tree-to-tree diff
        delta = patch.delta
        status = STATUSES.get(delta.status)
        if status is None:
            continue  # unmodified, ignored, untracked: never in a tree-to-tree diff
        _context, additions, deletions = patch.line_stats
        binary = bool(delta.is_binary)
        yield FileDifference(
            path=delta.new_file.path if status != "deleted" else delta.old_file.path,
            status=status,
            old_path=delta.old_file.path if status == "renamed" else None,
            binary=binary,
            additions=0 if binary else additions,
            deletions=0 if binary else deletions,
            old_blob=_blob(delta.old_file) if status != "added" else None,
            new_blob=_blob(delta.new_file) if status != "deleted" else None,
            old_kind=KINDS.get(delta.old_file.mode) if status != "added" else None,
            new_kind=KINDS.get(delta.new_file.mode) if status != "deleted" else None,
        )


def _blob(file: pygit2.DiffFile) -> str | None:
    blob = str(file.id)
    return None if blob == ZERO else blob
