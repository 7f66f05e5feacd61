"""A fork that starts from a message's checkpoint (issue 28, ForkService.Fork with worktree):
which snapshot of a folder holds it as it was at the message, and a member's fresh worktree
given that snapshot's files.

The snapshot at a message, for one folder (the channel's checkpoint records, oldest first):
the "after" of that message's own answer when it checkpointed the folder; else the "before" of
the first later answer that did (the folder as the next answer found it: a person's message, an
answer in another folder); else the "after" of the last earlier one. None: no checkpoint of the
folder at that message.

The worktree (a checkout of the folder's current commit) is made to hold the snapshot: each of
its files written (only those that differ), and each file tracked there that the snapshot lacks
removed, unless the checkpoints do not cover it (ignored, too large, a nested repository: left
as checked out). Symbolic links are left as checked out (as Restore leaves them). Every write is
inside the worktree: no link in it is followed (a link met on the way is replaced by a folder),
so nothing reaches the person's folder.
"""

from __future__ import annotations

import json
import os
import shutil
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

from app.checkpoints.store import CheckpointStore
from app.core.lazy import LazyModule

if TYPE_CHECKING:
    import pygit2

    from app.checkpoints import contents
else:  # with the first fork into worktrees, not with the window
    pygit2 = LazyModule("pygit2")
    contents = LazyModule("app.checkpoints.contents")

EXECUTABLE = 0o755
REGULAR = 0o644
_TEMPORARY = ".sidekicks-fork-"


@dataclass(frozen=True, slots=True)
class Seeded:
    written: int  # files written from the snapshot
    removed: int  # tracked files the snapshot lacks, removed


def snapshot_at(
    records: list[tuple[str, bytes]], message_id: str, root: str
) -> tuple[str, str] | None:
    """The (snapshot id, commit id) holding `root` as it was at the message (ids sort by time)."""
    own: tuple[str, str] | None = None
    later: tuple[str, str] | None = None
    earlier: tuple[str, str] | None = None
    for answer, raw in records:
        folder = _folder_of(raw, root)
        if folder is None:
            continue
        if answer == message_id:
            own = _side(folder, "after")
        elif answer > message_id:
            later = later or _side(folder, "before")
        else:
            earlier = _side(folder, "after") or earlier
    return own or later or earlier


def _folder_of(raw: bytes, root: str) -> dict[str, object] | None:
    try:
        folders = json.loads(raw)["folders"]
        return next((f for f in folders if isinstance(f, dict) and f.get("root") == root), None)
    except (ValueError, KeyError, TypeError):
        return None  # a damaged record is passed over


def _side(folder: dict[str, object], side: str) -> tuple[str, str] | None:
    found = folder.get(side)
    if not isinstance(found, dict) or not found.get("id") or not found.get("commit"):
        return None
    return str(found["id"]), str(found["commit"])


def seed(
    store: CheckpointStore, root: str, commit: str, worktree: Path, inside: str, base: str
) -> Seeded:
    """Gives the member's folder in its new worktree (`worktree`/`inside`, checked out at
    `base`) the files of the snapshot `commit` of `root`. Off the loop; KeyError when the
    store no longer holds the snapshot."""
    top = worktree / inside
    tracked = _tracked(worktree, base, inside)

    def work(repo: pygit2.Repository) -> Seeded:
        target = contents.files(repo, commit)
        folders = {str(parent) for path in target for parent in PurePosixPath(path).parents}
        gone = [p for p in tracked if p not in target and p not in folders]  # a link made a folder
        gone = [p for p in gone if p not in contents.left_out(repo, commit, gone)]
        written = 0
        for path, stored in sorted(target.items()):
            if stored.kind == "link" or tracked.get(path) == stored:
                continue
            data = repo[stored.blob].peel(pygit2.Blob).data
            _write(top, path, data, EXECUTABLE if stored.kind == "executable" else REGULAR)
            written += 1
        for path in gone:
            _remove(top, path)
        return Seeded(written, len(gone))

    return store.read(root, work)


def _tracked(worktree: Path, base: str, inside: str) -> dict[str, contents.StoredFile]:
    """The files of the base commit under the member's folder, as the checkout made them."""
    repo = pygit2.Repository(str(worktree))
    try:
        tree = repo[base].peel(pygit2.Tree)
        if inside not in ("", "."):
            tree = repo[tree[inside].id].peel(pygit2.Tree)
        found: dict[str, contents.StoredFile] = {}
        contents.walk(repo, tree, "", found)
        return found
    finally:
        repo.free()


def _folder(top: Path, parts: tuple[str, ...], make: bool) -> Path | None:
    """The folder `top`/parts, each step a real folder (a link or a file in the way replaced
    when `make`, else None: the path is not there)."""
    folder = top
    for part in parts:
        folder = folder / part
        if folder.is_symlink() or (folder.exists() and not folder.is_dir()):
            if not make:
                return None
            folder.unlink()
        if not folder.exists():
            if not make:
                return None
            folder.mkdir()
    return folder


def _write(top: Path, relative: str, data: bytes, mode: int) -> None:
    parts = PurePosixPath(relative).parts
    folder = _folder(top, parts[:-1], make=True)
    assert folder is not None
    target = folder / parts[-1]
    if target.is_dir() and not target.is_symlink():
        shutil.rmtree(target)
    temporary = folder / f"{_TEMPORARY}{parts[-1]}"
    temporary.unlink(missing_ok=True)
    flags = (
        os.O_WRONLY
        | os.O_CREAT
        | os.O_EXCL
        | getattr(os, "O_NOFOLLOW", 0)
        | getattr(os, "O_BINARY", 0)
    )
    descriptor = os.open(temporary, flags, mode)
    with os.fdopen(descriptor, "wb") as out:
        out.write(data)
    os.chmod(temporary, mode)  # the umask left out
    os.replace(temporary, target)  # a link there is replaced, never followed


def _remove(top: Path, relative: str) -> None:
    parts = PurePosixPath(relative).parts
    folder = _folder(top, parts[:-1], make=False)
    if folder is None:
        return
    target = folder / parts[-1]
    if target.is_symlink() or target.is_file():
        target.unlink()
    while folder != top and not any(folder.iterdir()):  # folders left empty go too
        folder.rmdir()
        folder = folder.parent
