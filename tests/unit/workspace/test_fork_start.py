"""A fork into worktrees (issue 28, app/workspace/worktrees/fork_start.py): which snapshot holds
a folder at a message, and a worktree given a snapshot's files with real Git repositories and a
real checkpoint store — the files the checkpoints leave out (too large, ignored) kept, no link
in the worktree followed out of it."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pygit2
import pytest

from app.checkpoints.store import CheckpointStore
from app.workspace.worktrees import fork_start, git
from tests.worktree_repos import SIGNATURE, committed


def record(root: str, before: str, after: str | None) -> bytes:
    folder = {"root": root, "before": {"id": before, "commit": f"c-{before}"}}
    folder["after"] = {"id": after, "commit": f"c-{after}"} if after else None  # type: ignore[assignment]
    return json.dumps({"agent": "a", "startedAt": "", "folders": [folder]}).encode()


RECORDS = [
    ("02", record("/w", "b2", "a2")),
    ("04", b"{damaged"),
    ("05", record("/other", "b5", "a5")),
    ("06", record("/w", "b6", "a6")),
]


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("02", ("a2", "c-a2")),  # the answer's own: after it
        ("03", ("b6", "c-b6")),  # a message between: as the next answer found the folder
        ("05", ("b6", "c-b6")),  # an answer in another folder: the same
        ("01", ("b2", "c-b2")),
        ("07", ("a6", "c-a6")),  # after every answer: the last one's after
    ],
)
def test_the_snapshot_at_a_message(message: str, expected: tuple[str, str]) -> None:
    assert fork_start.snapshot_at(RECORDS, message, "/w") == expected


def test_no_snapshot_of_a_folder_no_answer_checkpointed() -> None:
    assert fork_start.snapshot_at(RECORDS, "03", "/nowhere") is None
    assert fork_start.snapshot_at([("02", record("/w", "b2", None))], "02", "/w") is None


@pytest.mark.skipif(sys.platform == "win32", reason="symbolic links need a privilege on Windows")
def test_a_link_in_the_worktree_is_replaced_never_followed(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    folder = tmp_path / "folder"
    repo = committed(folder, {
        "a.txt": "one\n", "big.bin": "x" * 200, "old.txt": "old\n",
        ".gitignore": "build/\n", "build/out.txt": "tracked, yet ignored\n",
    })  # fmt: skip
    os.symlink(outside, folder / "sub")  # a tracked link to a folder outside
    repo.index.add("sub")
    repo.index.write()
    head = repo.head.peel(pygit2.Commit)
    repo.create_commit("HEAD", SIGNATURE, SIGNATURE, "link", repo.index.write_tree(), [head.id])
    worktree = tmp_path / "worktree"
    base = git.create(folder, "room", "writer", worktree)
    assert (worktree / "sub").is_symlink()

    # The folder then: the link a real folder, a file changed, one deleted, one too large.
    (folder / "sub").unlink()
    (folder / "sub").mkdir()
    (folder / "sub" / "x.txt").write_text("inside\n")
    (folder / "a.txt").write_text("changed\n")
    (folder / "old.txt").unlink()
    (folder / "big.bin").write_text("y" * 300)
    store = CheckpointStore(tmp_path / "store", max_file_bytes=250)
    snapshot = store.snapshot(folder)
    assert [s.path for s in snapshot.skipped] == ["big.bin"]

    done = fork_start.seed(store, str(folder), snapshot.commit_id, worktree, ".", base)
    assert list(outside.iterdir()) == []  # nothing written through the link
    assert not (worktree / "sub").is_symlink()
    assert (worktree / "sub" / "x.txt").read_text() == "inside\n"
    assert (worktree / "a.txt").read_text() == "changed\n"
    assert not (worktree / "old.txt").exists()
    assert (worktree / "big.bin").read_text() == "x" * 200  # left out of it: as checked out
    assert (worktree / "build" / "out.txt").exists()  # ignored: the checkpoints never saw it
    assert (done.written, done.removed) == (2, 1)
    assert not [p for p in worktree.iterdir() if p.name.startswith(".sidekicks-fork-")]
