"""Isolated worktrees through the real app and a real agent process (issue 28,
tests/fakes/workspace_agent.py): SetIsolation makes the branch and the worktree, the member's
new session works there (its writes land in the worktree, not the folder), a folder that is no
repository is refused, Merge into the folder with a conflict, Discard, and the YAML's
`isolation: worktree`."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path

import pygit2
import pytest

from app.core.errors import UserError
from tests.integration.workspace.conftest import Desk, config_text
from tests.waiting import wait_for
from tests.worktree_repos import committed


def test_isolation_makes_a_worktree_where_the_agent_writes(desk: Desk) -> None:
    committed(desk.work, {"a.txt": "one\ntwo\n"})
    room = desk.channels.Create("room", "", ["writer", "other"]).id
    worktrees = desk.sk.api.WorktreeService
    view = worktrees.SetIsolation(room, "writer", True)
    assert view.isolated and view.exists and view.branch == f"sidekicks/{room}/writer"
    assert f"sidekicks/{room}/writer" in pygit2.Repository(str(desk.work)).listall_branches()
    worktree = Path(view.path)
    assert worktree.parts[-3:] == ("worktrees", room, "writer")
    assert (worktree / "a.txt").read_text() == "one\ntwo\n"
    [result] = desk.run(room, [{"write": "note.txt", "in_cwd": True, "text": "by the agent\n"}])
    assert result.get("ok"), result
    assert (worktree / "note.txt").read_text() == "by the agent\n"
    assert not (desk.work / "note.txt").exists()  # the folder is untouched
    [other] = desk.run(room, [{"write": "other.txt", "in_cwd": True, "text": "x\n"}], "other")
    assert other.get("ok") and (desk.work / "other.txt").exists()  # not isolated
    listed = {v.agent: v for v in worktrees.Worktrees(room)}
    assert [(f.path, f.status) for f in listed["writer"].files] == [("note.txt", "added")]
    assert not listed["other"].isolated and listed["other"].available


def test_merge_with_a_conflict_then_discard(desk: Desk) -> None:
    committed(desk.work, {"a.txt": "one\ntwo\nthree\n"})
    room = desk.channels.Direct("writer").id
    worktrees = desk.sk.api.WorktreeService
    worktrees.SetIsolation(room, "writer", True)
    desk.run(room, [{"write": "a.txt", "in_cwd": True, "text": "one\nagent\nthree\n"},
                    {"write": "b.txt", "in_cwd": True, "text": "new\n"}])  # fmt: skip
    (desk.work / "a.txt").write_text("one\nperson\nthree\n")
    outcome = worktrees.MergeWorktree(room, "writer")
    assert outcome.merged == ["b.txt"] and (desk.work / "b.txt").read_text() == "new\n"
    [conflict] = outcome.conflicts
    assert [(h.ours, h.theirs) for h in conflict.hunks] == [("person\n", "agent\n")]
    assert (desk.work / "a.txt").read_text() == "one\nperson\nthree\n"
    worktrees.ResolveConflict(room, "writer", "a.txt", conflict.version, ["theirs"])
    assert (desk.work / "a.txt").read_text() == "one\nagent\nthree\n"
    view = worktrees.DiscardWorktree(room, "writer")
    assert not view.exists and not view.isolated
    assert not Path(worktrees.Worktrees(room)[0].path or "/nonexistent").exists()
    assert not any(b.startswith("sidekicks/") for b in pygit2.Repository(str(desk.work)).branches)
    [result] = desk.run(room, [{"write": "c.txt", "in_cwd": True, "text": "back\n"}])
    assert result.get("ok") and (desk.work / "c.txt").exists()  # in the folder again


def test_a_folder_that_is_no_repository_is_refused(desk: Desk) -> None:
    room = desk.channels.Direct("writer").id
    worktrees = desk.sk.api.WorktreeService
    with pytest.raises(UserError, match="not a Git repository"):
        worktrees.SetIsolation(room, "writer", True)
    [view] = worktrees.Worktrees(room)
    assert not view.available and "not a Git repository" in view.reason and not view.isolated


def test_the_configuration_s_isolation_applies_in_every_channel(
    tmp_path: Path, open_desk: Callable[[], Desk]
) -> None:
    config = tmp_path / "desk.yaml"
    config.write_text(
        config_text(tmp_path).replace(
            "folders: [extra]\n", "folders: [extra]\n    isolation: worktree\n"
        ),
        encoding="utf-8",
    )
    desk = open_desk()
    committed(desk.work, {"a.txt": "one\n"})
    room = desk.channels.Direct("writer").id
    [view] = desk.sk.api.WorktreeService.Worktrees(room)
    assert view.isolated and view.configured and not view.exists  # made at the session
    [result] = desk.run(room, [{"write": "yaml.txt", "in_cwd": True, "text": "y\n"}])
    assert result.get("ok"), result
    [view] = desk.sk.api.WorktreeService.Worktrees(room)
    assert view.exists and (Path(view.path) / "yaml.txt").exists()
    assert not (desk.work / "yaml.txt").exists()


def test_a_deleted_channel_takes_its_worktrees_along(desk: Desk) -> None:
    committed(desk.work, {"a.txt": "one\n"})
    room = desk.channels.Create("room", "", ["writer"]).id
    worktree = Path(desk.sk.api.WorktreeService.SetIsolation(room, "writer", True).path)
    assert worktree.is_dir()
    desk.channels.Delete(room)
    wait_for(lambda: not worktree.exists() and not worktree.parent.exists())
    repo = pygit2.Repository(str(desk.work))
    assert repo.list_worktrees() == [] and f"sidekicks/{room}/writer" not in repo.branches


def test_a_session_opening_while_isolation_is_switched_on_opens_in_the_worktree(
    desk: Desk,
) -> None:
    """The page prepares a channel's sessions as it opens it (the agent started, then its
    session opened): a session opened while SetIsolation made the worktree stayed in the folder
    (seen in the window's test, the worktree made slower by pygit2's first import)."""
    committed(desk.work, {"a.txt": "one\n"})
    room = desk.channels.Create("room", "", ["writer"]).id
    preparing = threading.Thread(target=desk.channels.Prepare, args=(room,))
    preparing.start()
    try:
        worktree = Path(desk.sk.api.WorktreeService.SetIsolation(room, "writer", True).path)
    finally:
        preparing.join(30)
    [result] = desk.run(room, [{"write": "note.txt", "in_cwd": True, "text": "isolated\n"}])
    assert result.get("ok"), result
    assert (worktree / "note.txt").read_text() == "isolated\n"
    assert not (desk.work / "note.txt").exists()
