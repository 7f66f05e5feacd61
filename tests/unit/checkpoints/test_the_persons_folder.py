"""The store writes nothing in the folder it snapshots, and never touches the person's .git."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pygit2

from app.checkpoints import CheckpointStore


def every_byte(folder: Path) -> dict[str, tuple[bytes, int]]:
    """Each file's (or link's) bytes and mode, and each directory, under `folder`."""
    found: dict[str, tuple[bytes, int]] = {}
    for here, dirs, files in os.walk(folder):
        for name in dirs + files:
            path = Path(here) / name
            info = path.lstat()
            if path.is_symlink():
                data = os.readlink(path).encode()
            elif path.is_file():
                data = path.read_bytes()
            else:
                data = b""
            found[str(path.relative_to(folder))] = (data, info.st_mode)
    return found


def test_a_real_repositorys_git_is_left_byte_identical(
    folder: Path, store: CheckpointStore
) -> None:
    person = pygit2.init_repository(str(folder))
    (folder / "tracked.txt").write_text("one\n")
    (folder / ".gitignore").write_text("*.tmp\n")
    person.index.add_all()
    person.index.write()
    signature = pygit2.Signature("Person", "person@example.invalid", 1_700_000_000, 0)
    tree = person.index.write_tree()
    person.create_commit("HEAD", signature, signature, "first", tree, [])
    person.stash  # noqa: B018 (nothing stashed: the store must not make one either)
    (folder / "tracked.txt").write_text("one\ntwo\n")
    (folder / "new.txt").write_text("untracked by the person\n")
    before = every_byte(folder / ".git")

    first = store.snapshot(folder)
    (folder / "new.txt").write_text("changed\n")
    (folder / "tracked.txt").unlink()
    second = store.snapshot(folder)
    store.differences(folder, first.tree_id, second.tree_id)
    # The person's .git does not get into a snapshot.
    repo = pygit2.Repository(str(store.gitdir(folder)))
    tree = repo[first.tree_id]
    assert isinstance(tree, pygit2.Tree)
    assert sorted(entry.name for entry in tree) == [".gitignore", "new.txt", "tracked.txt"]
    repo.free()
    store.clear_older_than(second.taken_at + 1)

    assert every_byte(folder / ".git") == before


def test_a_folder_that_is_no_repository_gets_no_git_and_nothing_else(
    folder: Path, store: CheckpointStore
) -> None:
    (folder / "a.txt").write_text("a\n")
    (folder / "sub").mkdir()
    (folder / "sub" / "b.txt").write_text("b\n")
    before = every_byte(folder)

    first = store.snapshot(folder)
    second = store.snapshot(folder)
    store.differences(folder, first.tree_id, second.tree_id)
    store.forget(folder, [first.id])

    assert every_byte(folder) == before
    assert not (folder / ".git").exists()
    assert store.gitdir(folder).parent == store.store_dir
    assert (store.gitdir(folder) / "HEAD").is_file()


def test_snapshots_from_several_threads_are_taken_one_at_a_time(
    folder: Path, store: CheckpointStore
) -> None:
    for i in range(50):
        (folder / f"f{i}.txt").write_text(f"{i}\n")
    trees: list[str] = []
    failures: list[BaseException] = []

    def take() -> None:
        try:
            trees.append(store.snapshot(folder).tree_id)
        except BaseException as error:
            failures.append(error)

    threads = [threading.Thread(target=take) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)

    assert failures == []
    assert len(trees) == 6
    assert len(set(trees)) == 1
