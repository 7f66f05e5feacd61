"""Merge into the folder: each file the worktree changed, merged three ways (base = the
worktree's base commit, ours = the folder's file now, theirs = the worktree's file) and written
into the folder when no region conflicts. A file with a conflict is not written: its hunks are
listed and the person picks per hunk (`resolve`), which writes it then — nothing in the folder
is overwritten without a choice. Writes go through the workspace's located path (no link
followed out of the repository, atomic replace)."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path

from app.core.errors import UserError
from app.i18n import _
from app.models.worktrees import ConflictHunk, MergeOutcome, WorktreeConflict, WorktreeFile
from app.workspace import located_io
from app.workspace.changes import unified_diff
from app.workspace.located import located
from app.workspace.roots import Roots
from app.workspace.worktrees import git, merge3


def listing(path: Path, base: str, root: Path) -> list[WorktreeFile]:
    """The worktree's changed files against its base, with their diffs."""
    return [_listed(changed) for changed in git.changed_files(path, base, root)]


def _listed(changed: git.Changed) -> WorktreeFile:
    status = (
        "added" if changed.base is None else "deleted" if changed.theirs is None else "modified"
    )
    before, after = _text(changed.base), _text(changed.theirs)
    if (changed.base is not None and before is None) or (
        changed.theirs is not None and after is None
    ):
        return WorktreeFile(path=changed.path, status=status, binary=True)
    diff, additions, deletions = unified_diff("/" + changed.path, before, after or "")
    return WorktreeFile(
        path=changed.path, status=status, diff=diff, additions=additions, deletions=deletions
    )


def merge(agent: str, worktree: Path, base: str, root: Path) -> MergeOutcome:
    """Merges every changed file of the worktree into the repository's working tree `root`."""
    outcome = MergeOutcome(agent=agent)
    for changed in git.changed_files(worktree, base, root):
        target = root / changed.path
        ours = _current(target, root)
        if ours == changed.theirs:
            outcome.unchanged.append(changed.path)
            continue
        if ours == changed.base:
            _write(target, root, ours, changed.theirs)
            outcome.merged.append(changed.path)
            continue
        conflict, chunks = _conflict(changed, ours)
        if conflict is None:
            data = merge3.resolved(chunks, [])
            if data == ours:  # the folder has the worktree's changes already (merged before)
                outcome.unchanged.append(changed.path)
                continue
            _write(target, root, ours, data)
            outcome.merged.append(changed.path)
        else:
            outcome.conflicts.append(conflict)
    return outcome


def resolve(
    worktree: Path, base: str, root: Path, path: str, version: str, choices: Sequence[str]
) -> None:
    """Writes the conflicting file `path` with one choice per conflict hunk (one for the
    whole file); refused when the folder's file is no longer the one listed (`version`)."""
    changed = next((c for c in git.changed_files(worktree, base, root) if c.path == path), None)
    if changed is None:
        raise UserError(_("{path} is no longer changed in the worktree").format(path=path))
    target = root / changed.path
    ours = _current(target, root)
    if _version(ours) != version:
        raise UserError(
            _("{path} changed in the folder since the merge listed it: merge again").format(
                path=path
            )
        )
    conflict, chunks = _conflict(changed, ours)
    count = 1 if conflict is None or conflict.whole else len(conflict.hunks)
    if len(choices) != count or any(c not in ("theirs", "ours", "both") for c in choices):
        raise UserError(
            _("{path} has {count} conflicts: choose for each").format(path=path, count=count)
        )
    if conflict is not None and conflict.whole:
        if choices[0] == "ours":
            return
        if choices[0] == "theirs" or changed.theirs is None or ours is None:
            _write(target, root, ours, changed.theirs)
            return
    _write(target, root, ours, merge3.resolved(chunks, choices))


def _conflict(
    changed: git.Changed, ours: bytes | None
) -> tuple[WorktreeConflict | None, list[merge3.Chunk]]:
    """The file's conflict (None when its three-way merge is clean) and its merged chunks."""
    whole = WorktreeConflict(
        path=changed.path,
        version=_version(ours),
        whole=True,
        ours_deleted=ours is None,
        theirs_deleted=changed.theirs is None,
    )
    texts = [_text(changed.base or b""), _text(ours), _text(changed.theirs)]
    if ours is None or changed.theirs is None:
        return whole, []
    if any(text is None for text in texts):
        whole.binary = True
        return whole, []
    chunks = merge3.merge(
        merge3.lines(changed.base or b""), merge3.lines(ours), merge3.lines(changed.theirs)
    )
    if not merge3.conflicts(chunks):
        return None, chunks
    hunks: list[ConflictHunk] = []
    line = 1
    for chunk in chunks:
        if chunk.merged is not None:
            line += len(chunk.merged)
            continue
        hunks.append(
            ConflictHunk(
                index=len(hunks),
                line=line,
                base=_joined(chunk.base),
                ours=_joined(chunk.ours),
                theirs=_joined(chunk.theirs),
            )
        )
        line += len(chunk.ours)
    return WorktreeConflict(path=changed.path, version=_version(ours), hunks=hunks), chunks


def _joined(lines: tuple[bytes, ...]) -> str:
    return b"".join(lines).decode("utf-8", errors="replace")


def _text(data: bytes | None) -> str | None:
    if data is None:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _version(data: bytes | None) -> str:
    return hashlib.sha256(data).hexdigest() if data is not None else ""


def _current(target: Path, root: Path) -> bytes | None:
    with located(target) as where:
        _inside(where.real, root)
        return located_io.current(where)


def _write(target: Path, root: Path, expected: bytes | None, data: bytes | None) -> None:
    """Writes (or, None, deletes) the folder's file, checked again just before: a file changed
    since it was merged is left as it is."""
    with located(target) as where:
        _inside(where.real, root)
        if located_io.current(where) != expected:
            raise UserError(
                _("{path} changed in the folder during the merge: merge again").format(path=target)
            )
        if data is None:
            located_io.delete(where)
        else:
            located_io.write(where, data, create_folders=True)


def _inside(real: Path, root: Path) -> None:
    if not Roots([root]).hold(real):
        raise UserError(_("{path} leads outside the folder: it was not merged").format(path=real))
