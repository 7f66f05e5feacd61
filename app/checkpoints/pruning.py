"""Dropping what no snapshot keeps. libgit2 (and so pygit2) has no gc: the objects still reachable
(from the snapshots' refs, and the blobs the index — the stat cache — names) are written into one
new pack with libgit2's pack builder, then the other packs and every loose object are removed.
Each step leaves every reachable object in place: a crash half way only leaves some garbage.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterable
from pathlib import Path

import pygit2
from pygit2.enums import ObjectType

from app.checkpoints.shadow import open_gitdir

REFS = "refs/sidekicks/"


def snapshot_refs(repo: pygit2.Repository) -> list[str]:
    return [name for name in repo.references if name.startswith(REFS)]


def prune(gitdir: Path) -> None:
    """Repacks what is reachable and removes the rest (the caller holds the folder's lock)."""
    repo = open_gitdir(gitdir)
    try:
        if not snapshot_refs(repo):
            # No snapshot left: the stat cache goes too (the next snapshot is a cold one), so
            # that nothing at all is kept.
            (gitdir / "index").unlink(missing_ok=True)
        keep = reachable(repo)
        pack_dir = gitdir / "objects" / "pack"
        fresh = gitdir / "objects" / "pack.new"
        _remove_files(fresh.glob("*"))
        fresh.mkdir(exist_ok=True)
        if keep:
            builder = pygit2.PackBuilder(repo)
            for oid in keep:
                builder.add(oid)
            builder.write(str(fresh))
    finally:
        repo.free()
    written = sorted(fresh.iterdir())
    # .pack before .idx: a pack is used only once its index is there.
    for path in sorted(written, key=lambda p: p.suffix != ".pack"):
        os.replace(path, pack_dir / path.name)
    names = {path.name for path in written}
    _remove_files(path for path in pack_dir.iterdir() if path.name not in names)
    for loose in (gitdir / "objects").glob("[0-9a-f][0-9a-f]"):
        _remove_files(loose.iterdir())
        loose.rmdir()
    fresh.rmdir()


def reachable(repo: pygit2.Repository) -> set[pygit2.Oid]:
    """Every object a snapshot ref leads to, and every blob of the index (the stat cache's)."""
    seen: set[pygit2.Oid] = set()
    trees: list[pygit2.Oid] = []
    for name in snapshot_refs(repo):
        commit = repo.references[name].peel(pygit2.Commit)
        seen.add(commit.id)
        trees.append(commit.tree_id)
    while trees:
        tree_id = trees.pop()
        if tree_id in seen:
            continue  # a directory unchanged between snapshots is walked once
        seen.add(tree_id)
        tree = repo[tree_id]
        assert isinstance(tree, pygit2.Tree)
        for entry in tree:
            if entry.type == ObjectType.TREE:
                trees.append(entry.id)
            elif entry.type == ObjectType.BLOB:
                seen.add(entry.id)
    index_file = Path(repo.path) / "index"
    if index_file.is_file():
        seen.update(entry.id for entry in pygit2.Index(str(index_file)))
    return seen


def size_bytes(folder: Path) -> int:
    total = 0
    for here, _dirs, files in os.walk(folder):
        for name in files:
            with contextlib.suppress(OSError):  # removed while counting
                total += os.lstat(os.path.join(here, name)).st_size
    return total


def _remove_files(paths: Iterable[Path]) -> None:
    for path in paths:
        path.unlink(missing_ok=True)
