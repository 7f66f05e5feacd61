"""A fork into worktrees (issue 28, ForkService.Fork(id, messageId, worktree=True)) through the
real app, a real Git repository and a real agent process (tests/fakes/workspace_agent.py): the
fork's member works in a worktree holding its folder as at the message's checkpoint, the
person's folder untouched; a member whose folder is not in Git starts from it as it is, and the
fork says so."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.integration.workspace.conftest import Desk
from tests.worktree_repos import committed


def files_of(folder: Path) -> dict[str, bytes]:
    """The folder's files (its .git left out), path -> bytes."""
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and ".git" not in p.relative_to(folder).parts
    }


def messages(desk: Desk, channel: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = desk.channels.Conversation(channel)["messages"]
    return found


def test_a_fork_into_worktrees_starts_from_the_message_s_checkpoint(desk: Desk) -> None:
    committed(desk.work, {"a.txt": "one\n", "gone.txt": "bye\n", ".gitignore": "*.log\n"})
    (desk.work / "notes.log").write_text("ignored\n")
    room = desk.channels.Direct("writer").id
    first = desk.run(room, [
        {"write": "a.txt", "in_cwd": True, "text": "first\n"},
        {"own_write": str(desk.work / "gone.txt"), "delete": True},
        {"own_write": str(desk.work / "sub" / "new.txt"), "text": "made\n"},
    ])  # fmt: skip
    assert all(r.get("ok") for r in first), first
    desk.run(room, [{"write": "a.txt", "in_cwd": True, "text": "second\n"},
                    {"own_write": str(desk.work / "gone.txt"), "text": "back\n"}])  # fmt: skip
    answers = desk.answer_ids(room)
    folder = files_of(desk.work)

    forked = desk.sk.api.ForkService.Fork(room, answers[0], True)
    [view] = desk.sk.api.WorktreeService.Worktrees(forked.id)
    assert view.isolated and view.exists
    worktree = Path(view.path)
    assert (worktree / "a.txt").read_text() == "first\n"  # as after the first answer
    assert not (worktree / "gone.txt").exists()
    assert (worktree / "sub" / "new.txt").read_text() == "made\n"
    assert not (worktree / "notes.log").exists()  # untracked and ignored: never copied
    assert files_of(desk.work) == folder  # the person's folder untouched
    assert [(f.path, f.status) for f in view.files] == [
        ("a.txt", "modified"),
        ("gone.txt", "deleted"),
        ("sub/new.txt", "added"),
    ]
    assert [m for m in messages(desk, forked.id) if m["role"] == "system"] == []
    # The agent works there: its session's cwd is the worktree.
    [result] = desk.run(forked.id, [{"write": "probe.txt", "in_cwd": True, "text": "p\n"}])
    assert result.get("ok") and (worktree / "probe.txt").exists(), result
    assert not (desk.work / "probe.txt").exists()

    # At a person's message: the folder as the answer that followed it found it.
    asked = [m["id"] for m in messages(desk, room) if m["role"] == "user"]
    again = desk.sk.api.ForkService.Fork(room, asked[1], True)
    [view] = desk.sk.api.WorktreeService.Worktrees(again.id)
    assert (Path(view.path) / "a.txt").read_text() == "first\n"
    # At the last answer: as the folder is now (its tracked and checkpointed files).
    last = desk.sk.api.ForkService.Fork(room, answers[1], True)
    [view] = desk.sk.api.WorktreeService.Worktrees(last.id)
    assert files_of(Path(view.path)) == {k: v for k, v in folder.items() if k != "notes.log"}
    assert files_of(desk.work) == folder


def test_a_member_whose_folder_is_not_in_git_starts_from_it_as_it_is(desk: Desk) -> None:
    room = desk.channels.Create("room", "", ["writer", "other"]).id
    desk.run(room, [{"write": "a.txt", "in_cwd": True, "text": "first\n"}], "writer")
    [answer] = desk.answer_ids(room)
    forked = desk.sk.api.ForkService.Fork(room, answer, True)
    assert forked.members == ["writer", "other"]
    said = [m for m in messages(desk, forked.id) if m["role"] == "system" and not m["code"]]
    assert [m["agent"] for m in said] == ["writer", "other"]
    assert all("starts from its folder as it is now" in m["error"] for m in said)
    assert all("is not a Git repository" in m["error"] for m in said)
    assert not any(v.isolated for v in desk.sk.api.WorktreeService.Worktrees(forked.id))
    plain = desk.sk.api.ForkService.Fork(room, answer)  # the fork of before: no line
    assert [m for m in messages(desk, plain.id) if m["role"] == "system" and not m["code"]] == []
    probe = {"write": "probe.txt", "in_cwd": True, "text": "p\n"}
    [result] = desk.run(forked.id, [probe], "writer")
    assert result.get("ok") and (desk.work / "probe.txt").exists(), result  # the folder itself


def test_a_member_isolated_in_the_source_forks_from_its_worktree_there(desk: Desk) -> None:
    committed(desk.work, {"a.txt": "one\n"})
    room = desk.channels.Direct("writer").id
    source = Path(desk.sk.api.WorktreeService.SetIsolation(room, "writer", True).path)
    desk.run(room, [{"write": "a.txt", "in_cwd": True, "text": "in the worktree\n"}])
    desk.run(room, [{"write": "a.txt", "in_cwd": True, "text": "later\n"}])
    first = desk.answer_ids(room)[0]
    forked = desk.sk.api.ForkService.Fork(room, first, True)
    [view] = desk.sk.api.WorktreeService.Worktrees(forked.id)
    assert view.exists and Path(view.path) != source
    assert (Path(view.path) / "a.txt").read_text() == "in the worktree\n"
    assert (source / "a.txt").read_text() == "later\n"
    assert (desk.work / "a.txt").read_text() == "one\n"


def test_without_a_checkpoint_at_the_message_the_member_starts_from_its_folder(
    tmp_path: Path, open_desk: Callable[[], Desk]
) -> None:
    config = tmp_path / "desk.yaml"
    config.write_text("checkpoints:\n  enabled: false\n" + config.read_text(), encoding="utf-8")
    desk = open_desk()
    committed(desk.work, {"a.txt": "one\n"})
    room = desk.channels.Direct("writer").id
    desk.run(room, [{"write": "a.txt", "in_cwd": True, "text": "first\n"}])
    forked = desk.sk.api.ForkService.Fork(room, desk.answer_ids(room)[0], True)
    [line] = [m for m in messages(desk, forked.id) if m["role"] == "system" and not m["code"]]
    assert line["agent"] == "writer"
    assert line["error"] == (
        f"@writer starts from its folder as it is now: no checkpoint of {desk.work} at this message"
    )
    [view] = desk.sk.api.WorktreeService.Worktrees(forked.id)
    assert not view.isolated and not view.exists and view.available
