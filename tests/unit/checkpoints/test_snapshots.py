"""Snapshots of a folder (app/checkpoints): what is in them, what is skipped, the stat cache."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pygit2
import pytest

from app.checkpoints import CheckpointStore, Skipped, Snapshot
from tests.unit.checkpoints.index_file import entries


def tree_paths(store: CheckpointStore, folder: Path, snapshot: Snapshot) -> dict[str, int]:
    """Every path of the snapshot's tree and its file mode."""
    repo = pygit2.Repository(str(store.gitdir(folder)))
    tree = repo[snapshot.tree_id]
    assert isinstance(tree, pygit2.Tree)
    found: dict[str, int] = {}

    def walk(node: pygit2.Tree, prefix: str) -> None:
        for entry in node:
            if isinstance(entry, pygit2.Tree):
                walk(entry, f"{prefix}{entry.name}/")
            else:
                found[f"{prefix}{entry.name}"] = entry.filemode

    walk(tree, "")
    return found


def aged(folder: Path) -> None:
    """Files written a minute ago: not newer than the index a snapshot writes next (a file as
    new as the index is rehashed at the next snapshot, as git does: it may change in the same
    clock tick)."""
    past = time.time() - 60
    for here, _dirs, files in os.walk(folder):
        for name in files:
            os.utime(os.path.join(here, name), (past, past), follow_symlinks=False)


def test_nothing_changed_gives_the_same_tree_and_reads_no_file_again(
    folder: Path, store: CheckpointStore
) -> None:
    for i in range(20):
        (folder / f"file{i}.txt").write_text(f"line {i}\n")
    (folder / "sub").mkdir()
    (folder / "sub" / "deep.txt").write_text("deep\n")
    aged(folder)
    first = store.snapshot(folder)
    index = store.gitdir(folder) / "index"
    cache = index.read_bytes()
    written_at = index.stat().st_mtime_ns
    objects = sorted(p.name for p in (store.gitdir(folder) / "objects").rglob("*") if p.is_file())

    second = store.snapshot(folder)

    assert second.tree_id == first.tree_id
    assert second.id != first.id
    # The stat cache is what the second snapshot went by: it kept every file's stat data, is
    # older than none of them (else libgit2 hashes the file again), and was not rewritten.
    cached = {entry.path: entry for entry in entries(index)}
    assert len(cached) == 21
    for path, entry in cached.items():
        info = os.lstat(folder / path)
        assert entry.mtime == (int(info.st_mtime), info.st_mtime_ns % 1_000_000_000)
        assert entry.ctime == (int(info.st_ctime), info.st_ctime_ns % 1_000_000_000)
        assert (entry.ino, entry.size) == (info.st_ino & 0xFFFFFFFF, info.st_size)
        assert info.st_mtime_ns < written_at
    assert index.read_bytes() == cache
    assert index.stat().st_mtime_ns == written_at
    after = sorted(p.name for p in (store.gitdir(folder) / "objects").rglob("*") if p.is_file())
    assert len(after) == len(objects) + 1  # the second snapshot's commit, no blob nor tree


def test_an_edit_an_add_a_delete_and_a_rename_are_each_one_difference(
    folder: Path, store: CheckpointStore
) -> None:
    (folder / "edited.txt").write_text("one\ntwo\nthree\n")
    (folder / "deleted.txt").write_text("going\n")
    (folder / "moved.txt").write_text("".join(f"line {i}\n" for i in range(30)))
    before = store.snapshot(folder)
    (folder / "edited.txt").write_text("one\n2\nthree\nfour\n")
    (folder / "deleted.txt").unlink()
    (folder / "moved.txt").rename(folder / "renamed.txt")
    (folder / "added.txt").write_text("new\n")
    after = store.snapshot(folder)

    changes = {d.path: d for d in store.differences(folder, before.tree_id, after.tree_id)}

    assert sorted(changes) == ["added.txt", "deleted.txt", "edited.txt", "renamed.txt"]
    edited = changes["edited.txt"]
    assert (edited.status, edited.additions, edited.deletions) == ("modified", 2, 1)
    assert store.blob(folder, edited.old_blob or "") == b"one\ntwo\nthree\n"
    assert store.blob(folder, edited.new_blob or "") == b"one\n2\nthree\nfour\n"
    deleted = changes["deleted.txt"]
    assert (deleted.status, deleted.new_blob, deleted.deletions) == ("deleted", None, 1)
    assert store.blob(folder, deleted.old_blob or "") == b"going\n"
    renamed = changes["renamed.txt"]
    assert (renamed.status, renamed.old_path) == ("renamed", "moved.txt")
    assert (renamed.additions, renamed.deletions) == (0, 0)
    added = changes["added.txt"]
    assert (added.status, added.old_blob, added.additions, added.binary) == (
        "added",
        None,
        1,
        False,
    )
    # Commit ids name the same trees.
    assert len(store.differences(folder, before.commit_id, after.commit_id)) == 4


def test_a_binary_file_is_binary_and_its_bytes_come_back_exactly(
    folder: Path, store: CheckpointStore
) -> None:
    data = bytes(range(256)) * 3 + b"\r\n\r\n\x00"
    before = store.snapshot(folder)
    (folder / "image.bin").write_bytes(data)
    # A .gitattributes asking for end-of-line conversion changes nothing stored.
    (folder / ".gitattributes").write_text("* text=auto eol=lf\n")
    (folder / "crlf.txt").write_bytes(b"a\r\nb\r\n")
    after = store.snapshot(folder)

    changes = {d.path: d for d in store.differences(folder, before.tree_id, after.tree_id)}

    assert changes["image.bin"].binary
    assert (changes["image.bin"].additions, changes["image.bin"].deletions) == (0, 0)
    assert store.blob(folder, changes["image.bin"].new_blob or "") == data
    assert store.blob(folder, changes["crlf.txt"].new_blob or "") == b"a\r\nb\r\n"
    assert not changes["crlf.txt"].binary


def test_a_file_over_the_cap_is_skipped_and_reported(folder: Path, store: CheckpointStore) -> None:
    (folder / "small.txt").write_bytes(b"x" * 1000)
    (folder / "large.bin").write_bytes(b"x" * 1001)
    snapshot = store.snapshot(folder)
    assert snapshot.skipped == (Skipped("large.bin", 1001, "too large"),)
    assert sorted(tree_paths(store, folder, snapshot)) == ["small.txt"]
    # A file stored before and grown past the cap leaves the snapshot, reported.
    (folder / "small.txt").write_bytes(b"x" * 2000)
    grown = store.snapshot(folder)
    assert {s.path for s in grown.skipped} == {"large.bin", "small.txt"}
    assert tree_paths(store, folder, grown) == {}


def test_gitignore_files_are_honoured_nested_ones_too(folder: Path, store: CheckpointStore) -> None:
    (folder / ".gitignore").write_text("*.log\nbuild/\n")
    (folder / "app.log").write_text("log")
    (folder / "build").mkdir()
    (folder / "build" / "out.o").write_text("o")
    (folder / "src").mkdir()
    (folder / "src" / ".gitignore").write_text("secret.txt\n")
    (folder / "src" / "secret.txt").write_text("s")
    (folder / "src" / "main.py").write_text("print()\n")
    (folder / "secret.txt").write_text("kept: the nested .gitignore covers src/ only")

    paths = tree_paths(store, folder, store.snapshot(folder))

    assert sorted(paths) == [".gitignore", "secret.txt", "src/.gitignore", "src/main.py"]


def test_the_ignore_list_is_honoured_and_can_change(folder: Path, tmp_path: Path) -> None:
    for name in ("node_modules/pkg/index.js", ".venv/bin/python", "__pycache__/m.pyc", "x.pyc"):
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text("generated")
    (folder / ".DS_Store").write_text("finder")
    (folder / "kept.txt").write_text("kept")
    (folder / "dist").mkdir()
    (folder / "dist" / "bundle.js").write_text("bundle")
    store_dir = tmp_path / "checkpoints"

    default = CheckpointStore(store_dir).snapshot(folder)
    own = CheckpointStore(store_dir, ignored=["dist/"]).snapshot(folder)

    assert sorted(tree_paths(CheckpointStore(store_dir), folder, default)) == [
        "dist/bundle.js",
        "kept.txt",
    ]
    assert "dist/bundle.js" not in tree_paths(CheckpointStore(store_dir), folder, own)
    assert "node_modules/pkg/index.js" in tree_paths(CheckpointStore(store_dir), folder, own)


@pytest.mark.posix_only("symbolic links need a privilege on Windows")
def test_a_symlink_is_stored_as_a_link_never_followed(
    folder: Path, store: CheckpointStore, tmp_path: Path
) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("outside the folder")
    (folder / "to-file").symlink_to(outside / "secret.txt")
    (folder / "to-dir").symlink_to(outside)

    snapshot = store.snapshot(folder)
    paths = tree_paths(store, folder, snapshot)

    assert paths == {"to-file": pygit2.enums.FileMode.LINK, "to-dir": pygit2.enums.FileMode.LINK}
    later = store.snapshot(folder)
    (folder / "to-file").unlink()
    (folder / "to-file").write_text("now a file")
    changes = store.differences(folder, later.tree_id, store.snapshot(folder).tree_id)
    assert [(c.path, c.status, c.old_kind, c.new_kind) for c in changes] == [
        ("to-file", "modified", "link", "file")
    ]
    assert store.blob(folder, changes[0].old_blob or "") == str(outside / "secret.txt").encode()


def test_a_nested_repository_is_skipped_and_reported(folder: Path, store: CheckpointStore) -> None:
    pygit2.init_repository(str(folder / "vendor" / "lib"))
    (folder / "vendor" / "lib" / "code.c").write_text("int x;\n")
    (folder / "main.c").write_text("int main;\n")

    snapshot = store.snapshot(folder)

    assert [(s.path, s.reason) for s in snapshot.skipped] == [("vendor/lib/", "nested repository")]
    assert sorted(tree_paths(store, folder, snapshot)) == ["main.c"]
