"""Isolated worktrees (issue 28): a member's worktree, its files against its base commit, and
what Merge into the folder did (WorktreeService, app/workspace/worktrees/service.py)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from app.models.wire import WireModel

# A conflict hunk's choice: the worktree's lines, the folder's, or the folder's then the worktree's.
HunkChoice = Literal["theirs", "ours", "both"]


class WorktreeFile(WireModel):
    """A file the worktree changed against its base commit: `path` relative to the repository's
    root (`/`-separated), `diff` unified from the base to the worktree ("" when binary)."""

    path: str
    status: Literal["added", "modified", "deleted"] = "modified"
    diff: str = ""
    additions: int = 0
    deletions: int = 0
    binary: bool = False


class ConflictHunk(WireModel):
    """One region both the folder and the worktree changed since the base, differently: the
    lines of each (text), and where it begins in the folder's file (1-based)."""

    index: int
    line: int = 1
    base: str = ""
    ours: str = ""
    theirs: str = ""


class WorktreeConflict(WireModel):
    """A file Merge did not write: its conflict hunks to pick from. `whole` when the choice is
    for the whole file (binary, or deleted on one side: `oursDeleted` / `theirsDeleted`).
    `version` is the folder's file as listed (sha256, "" when absent): a choice made on an
    older listing is refused."""

    path: str
    version: str = ""
    whole: bool = False
    binary: bool = False
    ours_deleted: bool = False
    theirs_deleted: bool = False
    hunks: list[ConflictHunk] = Field(default_factory=list)


class MemberWorktree(WireModel):
    """A channel member's isolation: `isolated` when its sessions work in the worktree
    (`configured`: the YAML's `isolation: worktree` asks it); `available` false with `reason`
    when its folder cannot be isolated. The worktree (`exists`) at `path` on `branch`, made from
    the folder's commit `base`, and its changed `files`."""

    agent: str
    isolated: bool = False
    configured: bool = False
    available: bool = True
    reason: str = ""
    folder: str = ""
    exists: bool = False
    path: str = ""
    branch: str = ""
    base: str = ""
    files: list[WorktreeFile] = Field(default_factory=list)


class MergeOutcome(WireModel):
    """What Merge into the folder did: the files written (`merged`, deleted ones included),
    those the folder already had as the worktree has them (`unchanged`), and the `conflicts`
    left for the person (their folder files untouched)."""

    agent: str
    merged: list[str] = Field(default_factory=list)
    unchanged: list[str] = Field(default_factory=list)
    conflicts: list[WorktreeConflict] = Field(default_factory=list)
