"""Forgetting snapshots and clearing old ones give the space back (pygit2 has no gc)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from app.checkpoints import CheckpointError, CheckpointStore, Snapshot


def versions(folder: Path, store: CheckpointStore, count: int) -> list[Snapshot]:
    """`count` snapshots of a folder whose one file is rewritten (incompressible) each time."""
    ids = []
    for _ in range(count):
        (folder / "data.bin").write_bytes(os.urandom(900))
        ids.append(store.snapshot(folder))
    return ids


def test_clearing_old_snapshots_shrinks_the_store(folder: Path, store: CheckpointStore) -> None:
    (folder / "kept.txt").write_text("kept\n")
    first = store.snapshot(folder)
    versions(folder, store, 10)
    newest = store.snapshot(folder)
    full = store.size_bytes()

    dropped = store.clear_older_than(first.taken_at)  # none is older than the first
    assert dropped == 0
    assert store.size_bytes() >= full - 100  # nothing to drop (the pack's layout may differ)

    dropped = store.clear_older_than(newest.taken_at + 1)
    assert dropped == 12
    assert store.size_bytes() < full / 2
    assert not list((store.gitdir(folder) / "refs" / "sidekicks").iterdir())


def test_forgetting_keeps_the_others_and_the_stat_cache(
    folder: Path, store: CheckpointStore
) -> None:
    (folder / "kept.txt").write_text("kept\n")
    old = versions(folder, store, 8)
    last = store.snapshot(folder)
    full = store.size_bytes()

    # The oldest is kept; the newest goes, so the blob of data.bin as it is now is in no
    # snapshot left, only in the stat cache.
    store.forget(folder, [s.id for s in old[1:]] + [last.id])

    assert store.size_bytes() < full * 0.6
    # What is left is whole, and the next snapshot, which goes by the stat cache for the
    # unchanged files, still finds their blobs.
    data = (folder / "data.bin").read_bytes()
    (folder / "other.txt").write_text("other\n")
    after = store.snapshot(folder)
    changes = store.differences(folder, old[0].tree_id, after.tree_id)
    assert sorted((c.path, c.status) for c in changes) == [
        ("data.bin", "modified"),
        ("other.txt", "added"),
    ]
    entries = {c.path for c in store.differences(folder, after.tree_id, after.tree_id)}
    assert entries == set()
    blob = store.blob(folder, _blob_of(store, folder, after.tree_id, "data.bin"))
    assert blob == data
    with pytest.raises(CheckpointError):
        store.differences(folder, last.commit_id, after.tree_id)


def test_an_unknown_id_or_a_missing_folder_is_a_checkpoint_error(
    folder: Path, store: CheckpointStore, tmp_path: Path
) -> None:
    store.snapshot(folder)
    with pytest.raises(CheckpointError, match="hold no"):
        store.blob(folder, "0" * 40)
    with pytest.raises(CheckpointError, match="not a folder"):
        store.snapshot(tmp_path / "missing")


def _blob_of(store: CheckpointStore, folder: Path, tree_id: str, name: str) -> str:
    import pygit2

    repo = pygit2.Repository(str(store.gitdir(folder)))
    tree = repo[tree_id]
    assert isinstance(tree, pygit2.Tree)
    return str(tree[name].id)


def test_each_pruning_leaves_one_pack_the_old_ones_go(folder: Path, store: CheckpointStore) -> None:
    kept = store.snapshot(folder)
    pack_dir = store.gitdir(folder) / "objects" / "pack"
    sizes = []
    for _ in range(3):
        store.forget(folder, [s.id for s in versions(folder, store, 5)])
        assert len(list(pack_dir.glob("*.pack"))) == 1
        sizes.append(store.size_bytes())
    assert max(sizes) - min(sizes) < 2000  # no garbage piles up from one round to the next
    assert store.differences(folder, kept.tree_id, kept.tree_id) == []
