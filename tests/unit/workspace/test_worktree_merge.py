"""Merge into the folder (issue 28) on real repositories (pygit2): the worktree made on its
branch, its files against the base, a clean three-way merge, conflicts per hunk that leave the
folder's file untouched until the person picks, deletions, and the removal."""

from __future__ import annotations

from pathlib import Path

import pygit2
import pytest

from app.core.errors import UserError
from app.workspace.worktrees import git, merge3, merging
from tests.worktree_repos import committed

TEXT = "".join(f"line {n}\n" for n in range(1, 11))


@pytest.fixture
def made(tmp_path: Path) -> tuple[Path, Path, str]:
    folder = tmp_path / "folder"
    committed(folder, {"a.txt": TEXT, "keep.txt": "same\n", "gone.txt": "bye\n"})
    worktree = tmp_path / "data" / "worktrees" / "c1" / "bob"
    base = git.create(folder, "c1", "bob", worktree)
    return folder, worktree, base


def test_the_worktree_is_on_its_branch_from_head(made: tuple[Path, Path, str]) -> None:
    folder, worktree, base = made
    repo = pygit2.Repository(str(folder))
    assert base == str(repo.head.target)
    assert "sidekicks/c1/bob" in repo.listall_branches()
    assert (worktree / "a.txt").read_text() == TEXT
    assert pygit2.Repository(str(worktree)).head.shorthand == "sidekicks/c1/bob"
    assert git.changed_files(worktree, base, folder) == []


def test_a_folder_that_is_no_repository_or_has_no_commit_is_refused(tmp_path: Path) -> None:
    with pytest.raises(UserError, match="not a Git repository"):
        git.folder_repo(tmp_path)
    pygit2.init_repository(str(tmp_path / "empty"))
    with pytest.raises(UserError, match="no commit"):
        git.folder_repo(tmp_path / "empty")


def test_a_clean_merge_writes_each_side_s_changes(made: tuple[Path, Path, str]) -> None:
    folder, worktree, base = made
    (worktree / "a.txt").write_text(TEXT.replace("line 2\n", "line two\n"))
    (folder / "a.txt").write_text(TEXT.replace("line 9\n", "line nine\n"))  # the person's
    (worktree / "new" / "x.txt").parent.mkdir()
    (worktree / "new" / "x.txt").write_text("new\n")
    (worktree / "gone.txt").unlink()
    listed = {f.path: f for f in merging.listing(worktree, base, folder)}
    assert {p: f.status for p, f in listed.items()} == {
        "a.txt": "modified", "gone.txt": "deleted", "new/x.txt": "added",
    }  # fmt: skip
    assert "+line two" in listed["a.txt"].diff and listed["a.txt"].additions == 1
    outcome = merging.merge("bob", worktree, base, folder)
    assert sorted(outcome.merged) == ["a.txt", "gone.txt", "new/x.txt"]
    assert outcome.conflicts == []
    expected = TEXT.replace("line 2\n", "line two\n").replace("line 9\n", "line nine\n")
    assert (folder / "a.txt").read_text() == expected
    assert (folder / "new" / "x.txt").read_text() == "new\n"
    assert not (folder / "gone.txt").exists()
    again = merging.merge("bob", worktree, base, folder)  # nothing left to do
    assert again.merged == [] and sorted(again.unchanged) == ["a.txt", "gone.txt", "new/x.txt"]


def test_a_conflict_is_listed_per_hunk_and_written_once_chosen(
    made: tuple[Path, Path, str],
) -> None:
    folder, worktree, base = made
    theirs = TEXT.replace("line 2\n", "agent 2\n").replace("line 8\n", "agent 8\n")
    ours = TEXT.replace("line 2\n", "person 2\n").replace("line 8\n", "person 8\n")
    (worktree / "a.txt").write_text(theirs + "agent end\n")
    (folder / "a.txt").write_text(ours)
    outcome = merging.merge("bob", worktree, base, folder)
    assert outcome.merged == []
    [conflict] = outcome.conflicts
    assert conflict.path == "a.txt" and not conflict.whole
    assert [(h.line, h.base, h.ours, h.theirs) for h in conflict.hunks] == [
        (2, "line 2\n", "person 2\n", "agent 2\n"),
        (8, "line 8\n", "person 8\n", "agent 8\n"),
    ]
    assert (folder / "a.txt").read_text() == ours  # untouched until the person picks
    with pytest.raises(UserError, match="2 conflicts"):
        merging.resolve(worktree, base, folder, "a.txt", conflict.version, ["theirs"])
    merging.resolve(worktree, base, folder, "a.txt", conflict.version, ["theirs", "ours"])
    assert (folder / "a.txt").read_text() == (
        TEXT.replace("line 2\n", "agent 2\n").replace("line 8\n", "person 8\n") + "agent end\n"
    )


def test_a_choice_on_an_old_listing_is_refused(made: tuple[Path, Path, str]) -> None:
    folder, worktree, base = made
    (worktree / "a.txt").write_text("agent\n")
    (folder / "a.txt").write_text("person\n")
    [conflict] = merging.merge("bob", worktree, base, folder).conflicts
    (folder / "a.txt").write_text("person again\n")
    with pytest.raises(UserError, match="merge again"):
        merging.resolve(worktree, base, folder, "a.txt", conflict.version, ["theirs"])
    assert (folder / "a.txt").read_text() == "person again\n"


def test_deleted_on_one_side_and_changed_on_the_other_is_a_whole_file_choice(
    made: tuple[Path, Path, str],
) -> None:
    folder, worktree, base = made
    (worktree / "gone.txt").unlink()
    (folder / "gone.txt").write_text("kept and changed\n")
    [conflict] = merging.merge("bob", worktree, base, folder).conflicts
    assert conflict.whole and conflict.theirs_deleted and not conflict.ours_deleted
    assert (folder / "gone.txt").read_text() == "kept and changed\n"
    merging.resolve(worktree, base, folder, "gone.txt", conflict.version, ["theirs"])
    assert not (folder / "gone.txt").exists()


def test_remove_takes_the_worktree_and_its_branch(made: tuple[Path, Path, str]) -> None:
    folder, worktree, _base = made
    git.remove(folder, "c1", "bob", worktree)
    repo = pygit2.Repository(str(folder))
    assert not worktree.exists()
    assert "sidekicks/c1/bob" not in repo.listall_branches()
    assert repo.list_worktrees() == []


def test_diff3_regions() -> None:
    def merged(base: str, ours: str, theirs: str) -> list[merge3.Chunk]:
        return merge3.merge(
            merge3.lines(base.encode()), merge3.lines(ours.encode()), merge3.lines(theirs.encode())
        )

    same = merged("a\nb\n", "a\nb\n", "a\nb\n")
    assert same == [merge3.Chunk((b"a\n", b"b\n"))]
    both_alike = merged("a\nb\nc\n", "a\nB\nc\n", "a\nB\nc\n")
    assert merge3.resolved(both_alike, []) == b"a\nB\nc\n"
    [conflict] = merge3.conflicts(merged("", "x\n", "y\n"))  # added on both sides
    assert (conflict.ours, conflict.theirs) == ((b"x\n",), (b"y\n",))
    assert merge3.resolved(merged("", "x\n", "y\n"), ["both"]) == b"x\ny\n"


def test_a_git_file_rewritten_to_another_repository_is_refused(
    made: tuple[Path, Path, str], tmp_path: Path
) -> None:
    folder, worktree, base = made
    committed(tmp_path / "elsewhere", {"secret.txt": "theirs\n"})
    (worktree / ".git").write_text(f"gitdir: {tmp_path / 'elsewhere' / '.git'}\n")
    with pytest.raises(UserError, match="no longer leads"):
        merging.merge("bob", worktree, base, folder)


def test_what_git_refuses_is_a_sentence(tmp_path: Path) -> None:
    folder = tmp_path / "folder"
    repo = committed(folder, {"a.txt": "a\n"})
    repo.create_branch("sidekicks", repo.head.peel(pygit2.Commit))  # sidekicks/... cannot be
    with pytest.raises(UserError, match="could not be made"):
        git.create(folder, "c1", "bob", tmp_path / "wt")
