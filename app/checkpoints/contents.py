"""What one snapshot holds, file by file, and which paths it leaves out (read helpers: a fork's
worktree is given a snapshot's files, issue 28). Each takes the folder's shadow repository,
opened and locked by CheckpointStore.read."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass

import pygit2

from app.checkpoints.model import Kind

_KINDS: dict[int, Kind] = {
    pygit2.enums.FileMode.BLOB: "file",
    pygit2.enums.FileMode.BLOB_EXECUTABLE: "executable",
    pygit2.enums.FileMode.LINK: "link",
}


@dataclass(frozen=True, slots=True)
class StoredFile:
    blob: str  # its bytes' id in the shadow repository (Git's blob id: the same in any repo)
    kind: Kind


def files(repo: pygit2.Repository, commit_id: str) -> dict[str, StoredFile]:
    """Every file of the snapshot by its path (relative, "/"-separated). KeyError: not held."""
    tree = repo[commit_id].peel(pygit2.Tree)
    found: dict[str, StoredFile] = {}
    walk(repo, tree, "", found)
    return found


def walk(
    repo: pygit2.Repository, tree: pygit2.Tree, prefix: str, found: dict[str, StoredFile]
) -> None:
    """Adds the files of `tree` (below `prefix`) to `found`."""
    for entry in tree:
        path = prefix + str(entry.name)
        if entry.filemode == pygit2.enums.FileMode.TREE:
            walk(repo, repo[entry.id].peel(pygit2.Tree), path + "/", found)
        elif entry.filemode in _KINDS:
            found[path] = StoredFile(str(entry.id), _KINDS[entry.filemode])


def left_out(repo: pygit2.Repository, commit_id: str, paths: Iterable[str]) -> set[str]:
    """Which of these paths the snapshot does not cover: ignored in the folder (its .gitignore
    files, the store's defaults) or skipped by it (too large, a nested repository, unreadable,
    as its commit's message lists them). A path absent from the snapshot and not left out was
    absent from the folder."""
    skipped = _skipped(repo, commit_id)
    nested = tuple(path for path in skipped if path.endswith("/"))
    return {
        path
        for path in paths
        if path in skipped or path.startswith(nested) or repo.path_is_ignored(path)
    }


def _skipped(repo: pygit2.Repository, commit_id: str) -> set[str]:
    message = repo[commit_id].peel(pygit2.Commit).message
    try:
        body = json.loads(message.split("\n\n", 1)[1])
        return {str(s["path"]) for s in body.get("skipped", [])}
    except (IndexError, ValueError, KeyError, TypeError, AttributeError):
        return set()
