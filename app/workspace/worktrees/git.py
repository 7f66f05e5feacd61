"""The Git side of an isolated member (pygit2; no `git` program needed): the worktree of the
member's folder on branch `sidekicks/<channel>/<agent>`, made from the folder's current commit
(HEAD), kept in the data folder; its files against that commit; its removal.

What is copied: the commit only. The folder's uncommitted changes are not in the worktree (a
worktree is a checkout of a commit); the person sees its base commit in the Changes panel.
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from app.core.errors import UserError
from app.core.lazy import LazyModule
from app.i18n import _

if TYPE_CHECKING:
    import pygit2
else:
    pygit2 = LazyModule("pygit2")  # with the first worktree, not with the window

BRANCH_PREFIX = "sidekicks"
# The worktree's own files, never the agent's work.
_GIT_FILE = ".git"


def branch_name(channel: str, agent: str) -> str:
    return f"{BRANCH_PREFIX}/{channel}/{agent}"


def worktree_name(channel: str, agent: str) -> str:
    """The name under the repository's .git/worktrees/ (one folder name: no slash)."""
    return f"{BRANCH_PREFIX}-{channel}-{agent}"


@dataclass(frozen=True, slots=True)
class FolderRepo:
    """The repository a folder is in: its working tree's root, and the folder inside it."""

    root: Path
    inside: Path  # the folder relative to `root` ("." for the root itself)


def folder_repo(folder: Path) -> FolderRepo:
    """The repository holding `folder`, with a commit; UserError (a sentence the channel shows)
    when it cannot be isolated."""
    found = pygit2.discover_repository(str(folder)) if folder.is_dir() else None
    if found is None:
        raise UserError(
            _("{folder} is not a Git repository: it cannot be isolated in a worktree").format(
                folder=folder
            )
        )
    repo = pygit2.Repository(found)
    if repo.is_bare or repo.workdir is None:
        raise UserError(
            _("{folder} has no working tree: it cannot be isolated in a worktree").format(
                folder=folder
            )
        )
    if repo.head_is_unborn:
        raise UserError(
            _("{folder} has no commit yet: commit once, then isolate it in a worktree").format(
                folder=folder
            )
        )
    root = Path(os.path.realpath(repo.workdir))
    return FolderRepo(root, Path(os.path.realpath(folder)).relative_to(root))


def create(folder: Path, channel: str, agent: str, path: Path) -> str:
    """Makes the worktree at `path` on a new branch from the folder's HEAD; the base commit's
    id. A branch left by an earlier worktree of the same member is reused (its commits kept).
    What Git refuses (a branch name taken by a file ref, a locked repository) is a sentence."""
    where = folder_repo(folder)
    try:
        return _create(where, channel, agent, path)
    except (pygit2.GitError, OSError) as error:  # libgit2's errors come as either
        raise UserError(
            _("The worktree of {folder} could not be made: {error}").format(
                folder=folder, error=error
            )
        ) from None


def _create(where: FolderRepo, channel: str, agent: str, path: Path) -> str:
    repo = pygit2.Repository(str(where.root))
    head = repo.head.peel(pygit2.Commit)
    name = branch_name(channel, agent)
    branch = repo.lookup_branch(name)
    if branch is None:
        branch = repo.create_branch(name, head)
    stale = _worktree(repo, worktree_name(channel, agent))
    if stale is not None:
        stale.prune(True)
    path.parent.mkdir(parents=True, exist_ok=True)
    repo.add_worktree(worktree_name(channel, agent), str(path), branch)
    return str(head.id)


def remove(root: Path, channel: str, agent: str, path: Path) -> None:
    """Removes the worktree's files, its record in the repository and its branch."""
    if path.exists():
        shutil.rmtree(path)
    try:
        repo = pygit2.Repository(str(root))
    except pygit2.GitError:
        return  # the folder is gone or no longer a repository: nothing of ours left in it
    worktree = _worktree(repo, worktree_name(channel, agent))
    if worktree is not None:
        worktree.prune(True)
    branch = repo.lookup_branch(branch_name(channel, agent))
    if branch is not None:
        branch.delete()


def _worktree(repo: pygit2.Repository, name: str) -> pygit2.Worktree | None:
    if name not in repo.list_worktrees():
        return None
    return repo.lookup_worktree(name)


@dataclass(frozen=True, slots=True)
class Changed:
    """A file the worktree changed against its base: its path (relative, `/`-separated), its
    bytes at the base and now (None: absent)."""

    path: str
    base: bytes | None
    theirs: bytes | None


def changed_files(path: Path, base: str, root: Path) -> list[Changed]:
    """The worktree's files that differ from the base commit: its commits and its uncommitted
    and untracked files alike (the working tree against the commit; ignored files left out).
    `root`: the folder's repository, which the worktree's `.git` file must lead to."""
    repo = pygit2.Repository(str(path))
    _check_gitdir(repo, root)
    tree = repo[base].peel(pygit2.Tree)
    flags = (
        pygit2.enums.DiffOption.INCLUDE_UNTRACKED
        | pygit2.enums.DiffOption.RECURSE_UNTRACKED_DIRS
        | pygit2.enums.DiffOption.SHOW_UNTRACKED_CONTENT
    )
    diff = tree.diff_to_workdir(flags)
    found: list[Changed] = []
    for delta in diff.deltas:
        name = delta.new_file.path or delta.old_file.path
        old = delta.old_file.path
        before = bytes(repo[tree[old].id].read_raw()) if _in_tree(tree, old) else None
        after = _read(path / name)
        if before != after:
            found.append(Changed(name, before, after))
    return sorted(found, key=lambda c: c.path)


def _check_gitdir(worktree: pygit2.Repository, root: Path) -> None:
    """The worktree's `.git` file is a file of the agent's folder: one rewritten to lead to
    another repository is refused rather than read."""
    found = pygit2.discover_repository(str(root))
    common = Path(os.path.realpath(found)) / "worktrees" if found else None
    if common is None or not Path(os.path.realpath(worktree.path)).is_relative_to(common):
        raise UserError(_("The worktree no longer leads to its folder's repository: discard it"))


def _in_tree(tree: pygit2.Tree, name: str) -> bool:
    try:
        tree[name]
    except KeyError:
        return False
    return True


def _read(path: Path) -> bytes | None:
    if path.is_symlink() or not path.is_file():
        return None
    return path.read_bytes()
