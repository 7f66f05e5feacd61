"""Every change, whatever made it (issue 25), through the real app and a real agent process
(tests/fakes/workspace_agent.py): the answer's checkpoints see fs writes, the agent's own writes
and commands; each file once per answer; reverted byte for byte; Restore; two answers at once;
who wrote what after a restart; the store in Settings; checkpoints gone with their channel."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from app.core.errors import UserError
from app.models.changes import FileChange
from app.workspace.answer_changes import AnswerChanges
from app.workspace.answer_watch import AnswerWatch
from app.workspace.checkpointing import Checkpointing
from tests.integration.workspace.conftest import Desk
from tests.waiting import wait_for

BINARY = bytes(range(256)) * 4 + b"\x00\r\n\x00"
ROOT = Path(__file__).resolve().parents[3]


def sed(path: Path, old: str, new: str) -> list[str]:
    """A command that edits a file in place (Python's, so it runs the same everywhere)."""
    code = (
        "import sys,pathlib;p=pathlib.Path(sys.argv[1]);"
        "p.write_bytes(p.read_bytes().replace(sys.argv[2].encode(),sys.argv[3].encode()))"
    )
    return [sys.executable, "-c", code, str(path), old, new]


def by_path(desk: Desk, room: str, message_id: str) -> dict[str, object]:
    return {
        Path(c.path).name: c
        for c in desk.sk.api.ChangesService.Changes(room)
        if c.message_id == message_id
    }


def allow_next(desk: Desk, room: str, mark: int) -> None:
    """Answers the agent's next permission request "once"."""
    asked = desk.log.wait(
        "permission:requested", lambda p: p["channel"] == room, since=mark, timeout=20
    )
    desk.channels.AnswerPermission(asked["id"], "once")


def test_each_route_is_one_record_per_file_with_its_route(desk: Desk) -> None:
    room = desk.channels.Direct("writer").id
    work = desk.work
    (work / "edited.txt").write_text("old line\n", encoding="utf-8")
    (work / "gone.txt").write_text("delete me\n", encoding="utf-8")
    mark = desk.send(
        room,
        [
            {"write": str(work / "fs.txt"), "text": "one\n"},
            {"write": str(work / "fs.txt"), "text": "two\n"},  # twice: still one record
            {"own_write": str(work / "own.txt"), "text": "mine\n"},
            {"own_write": str(work / "image.bin"), "b64": base64.b64encode(BINARY).decode()},
            {"own_write": str(work / "gone.txt"), "delete": True},
            # Asked first, as agents that ask before a command do: the app's checkpoint is
            # taken before the agent hears the answer, so the route is known however fast
            # the command runs.
            {"shell": sed(work / "edited.txt", "old", "new"), "asked": True},
            {"run": sys.executable, "args": ["-c", "open('made.txt','w').write('by command')"],
             "cwd": str(work), "wait": True},
        ],
        "writer",
    )  # fmt: skip
    allow_next(desk, room, mark)
    results = desk.results(room, "writer", mark)
    assert all(
        r.get("ok", True) and not r.get("error") and not r.get("refused") for r in results
    ), results
    answer = desk.answer_ids(room)[-1]
    found = by_path(desk, room, answer)
    summary = {
        name: (c.route, c.status, c.binary, c.additions, c.deletions)  # type: ignore[attr-defined]
        for name, c in found.items()
    }
    assert summary == {
        "fs.txt": ("fs", "added", False, 1, 0),
        "own.txt": ("agent", "added", False, 1, 0),
        "image.bin": ("agent", "added", True, 0, 0),
        "gone.txt": ("agent", "deleted", False, 0, 1),
        "edited.txt": ("command", "modified", False, 1, 1),
        "made.txt": ("command", "added", False, 1, 0),
    }
    assert all(c.agent == "writer" and c.checkpoint == answer for c in found.values())  # type: ignore[attr-defined]
    assert "+two\n" in found["fs.txt"].diff and "+one" not in found["fs.txt"].diff  # type: ignore[attr-defined]
    [checkpoint] = desk.sk.api.CheckpointService.Checkpoints(room)
    assert checkpoint.message_id == answer and checkpoint.restorable
    assert checkpoint.folders == sorted(str(p.resolve()) for p in (desk.work, desk.extra))


def test_the_whole_answer_reverts_byte_for_byte(desk: Desk) -> None:
    room = desk.channels.Direct("writer").id
    work = desk.work
    kept = work / "kept.bin"
    kept.write_bytes(BINARY)
    (work / "edited.txt").write_bytes(b"old\r\nline\r\n")
    desk.run(
        room,
        [
            {"own_write": str(kept), "b64": base64.b64encode(BINARY[::-1]).decode()},
            {"own_write": str(work / "sub" / "new.txt"), "text": "new"},
            {"shell": sed(work / "edited.txt", "old", "new")},
        ],
    )
    changes = desk.sk.api.ChangesService.Changes(room)
    assert len(changes) == 3
    reverted = desk.sk.api.ChangesService.Revert(room, [c.id for c in changes])
    assert all(c.reverted for c in reverted)
    assert kept.read_bytes() == BINARY
    assert (work / "edited.txt").read_bytes() == b"old\r\nline\r\n"
    assert not (work / "sub" / "new.txt").exists()


def test_a_revert_is_refused_naming_the_file_changed_since(desk: Desk) -> None:
    room = desk.channels.Direct("writer").id
    target = desk.work / "own.txt"
    desk.run(room, [{"own_write": str(target), "text": "agent\n"}])
    target.write_text("person\n", encoding="utf-8")
    [change] = desk.sk.api.ChangesService.Changes(room)
    with pytest.raises(UserError, match=f"{target} changed since writer wrote it"):
        desk.sk.api.ChangesService.Revert(room, [change.id])
    assert target.read_text(encoding="utf-8") == "person\n"


def test_one_hunk_is_reverted_and_the_record_keeps_the_rest(desk: Desk) -> None:
    room = desk.channels.Direct("writer").id
    target = desk.work / "long.txt"
    lines = [f"line {i}\n" for i in range(40)]
    target.write_text("".join(lines), encoding="utf-8")
    changed = list(lines)
    changed[2], changed[30] = "TWO\n", "THIRTY\n"
    desk.run(room, [{"own_write": str(target), "text": "".join(changed)}])
    [change] = desk.sk.api.ChangesService.Changes(room)
    assert change.diff.count("@@ ") == 2
    first = desk.sk.api.ChangesService.RevertHunk(room, change.id, 0)
    text = target.read_text(encoding="utf-8")
    assert "line 2\n" in text and "THIRTY\n" in text
    assert not first.reverted and first.diff.count("@@ ") == 1 and "+THIRTY" in first.diff
    with pytest.raises(UserError, match="no part 2"):
        desk.sk.api.ChangesService.RevertHunk(room, change.id, 1)
    last = desk.sk.api.ChangesService.RevertHunk(room, change.id, 0)
    assert last.reverted and target.read_text(encoding="utf-8") == "".join(lines)


def test_restore_undoes_every_later_answer_and_can_itself_be_undone(desk: Desk) -> None:
    room = desk.channels.Direct("writer").id
    work = desk.work
    (work / "a.txt").write_text("A0\n", encoding="utf-8")
    desk.run(room, [{"own_write": str(work / "a.txt"), "text": "A1\n"}])
    desk.run(
        room,
        [
            {"write": str(work / "b.txt"), "text": "B1\n"},
            {"own_write": str(work / "a.txt"), "delete": True},
        ],
    )
    first, _second = desk.answer_ids(room)
    preview = desk.sk.api.CheckpointService.RestorePreview(room, first)
    assert sorted((Path(f.path).name, f.status) for f in preview) == [
        ("a.txt", "added"),  # recreated
        ("b.txt", "deleted"),  # removed
    ]
    mark = desk.log.mark()
    done = desk.sk.api.CheckpointService.Restore(room, first)
    assert (work / "a.txt").read_text(encoding="utf-8") == "A0\n"
    assert not (work / "b.txt").exists()
    assert {(c.route, c.agent) for c in done} == {("restore", "you")}
    notice = desk.log.wait(
        "message:updated", lambda p: p["message"].get("code") == "restored", since=mark
    )["message"]
    assert notice["agent"] == "writer" and {c.message_id for c in done} == {notice["id"]}
    # The restore is itself a change: reverting it brings the present back.
    desk.sk.api.ChangesService.Revert(room, [c.id for c in done])
    assert not (work / "a.txt").exists()
    assert (work / "b.txt").read_text(encoding="utf-8") == "B1\n"


def test_what_the_person_changes_between_answers_is_no_agent_s_change(desk: Desk) -> None:
    room = desk.channels.Direct("writer").id
    desk.run(room, [{"own_write": str(desk.work / "agent.txt"), "text": "1"}])
    (desk.work / "person.txt").write_text("by hand", encoding="utf-8")
    desk.run(room, [{"own_write": str(desk.work / "agent.txt"), "text": "2"}])
    second = desk.answer_ids(room)[-1]
    assert list(by_path(desk, room, second)) == ["agent.txt"]


def test_two_answers_at_once_never_give_an_unknown_change_to_one(
    desk: Desk, tmp_path: Path
) -> None:
    """writer and other share `work/`, each answering in its own conversation at the same
    time: what a known route made is its own; what none tells is marked during both."""
    unknown = {"own_write": str(desk.work / "unknown.txt"), "text": "?", "quiet": True}
    writer, other = answer_together(desk, tmp_path, [unknown])
    assert writer["writer-fs.txt"].route == "fs" and "writer-fs.txt" not in other
    assert other["other-cmd.txt"].route == "command" and "other-cmd.txt" not in writer
    # Nothing tells who wrote unknown.txt: both answers list it, each naming the other.
    assert (writer["unknown.txt"].route, writer["unknown.txt"].during) == ("agent", ["other"])
    assert (other["unknown.txt"].route, other["unknown.txt"].during) == ("agent", ["writer"])


def test_an_answer_recorded_while_the_other_ends_still_sees_the_other_s_routes(
    desk: Desk, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The two answers above, their ends interleaved as a loaded machine once did: the other's
    answer has ended and is being recorded when writer's record finishes. The other must still
    count writer among the answers it overlapped (writer's fs write is writer's), not lose it
    because both had "ended"."""
    other_ending, writer_ended = threading.Event(), threading.Event()
    record, end = AnswerChanges.record, Checkpointing.end

    async def held_record(self: AnswerChanges, watch: AnswerWatch) -> list[FileChange]:
        if watch.agent == "writer":  # waits until the other's end has begun
            assert await asyncio.to_thread(other_ending.wait, 20)
        elif watch.agent == "other":  # then records after writer's end is wholly done
            other_ending.set()
            assert await asyncio.to_thread(writer_ended.wait, 20)
        return await record(self, watch)

    async def marked_end(self: Checkpointing, watch: AnswerWatch | None) -> list[FileChange]:
        try:
            return await end(self, watch)
        finally:
            if watch is not None and watch.agent == "writer":
                writer_ended.set()

    monkeypatch.setattr(AnswerChanges, "record", held_record)
    monkeypatch.setattr(Checkpointing, "end", marked_end)
    writer, other = answer_together(desk, tmp_path, [])
    assert other_ending.is_set() and writer_ended.is_set()  # the interleaving did happen
    assert writer["writer-fs.txt"].route == "fs"
    assert sorted(other) == ["other-cmd.txt"], other


def answer_together(
    desk: Desk, tmp_path: Path, writer_also: list[dict[str, object]]
) -> tuple[dict[str, FileChange], dict[str, FileChange]]:
    """writer and other answer at once in `work/`, each in its own conversation: writer waits
    for other's start, writes writer-fs.txt through fs/* (then `writer_also`); other waits for
    writer to be done, then runs a command it is asked about. Each answer's changes by name."""
    go, writer_done = tmp_path / "go", tmp_path / "writer-done"
    mine, theirs = desk.channels.Direct("writer").id, desk.channels.Direct("other").id
    work = desk.work
    mark_mine = desk.send(
        mine,
        [
            {"wait_for": str(go)},
            {"write": str(work / "writer-fs.txt"), "text": "w"},
            *writer_also,
            {"own_write": str(writer_done), "text": "", "quiet": True},
        ],
        "writer",
    )
    mark_theirs = desk.send(
        theirs,
        [
            {"own_write": str(go), "text": "", "quiet": True},
            {"wait_for": str(writer_done)},
            {"shell": sed_new(work / "other-cmd.txt"), "asked": True},
        ],
        "other",
    )
    allow_next(desk, theirs, mark_theirs)
    desk.results(mine, "writer", mark_mine)
    desk.results(theirs, "other", mark_theirs)
    changes = desk.sk.api.ChangesService
    return (
        {Path(c.path).name: c for c in changes.Changes(mine)},
        {Path(c.path).name: c for c in changes.Changes(theirs)},
    )


def sed_new(path: Path) -> list[str]:
    return [sys.executable, "-c", f"open({str(path)!r}, 'w').write('made')"]


def test_who_wrote_a_file_survives_a_restart(open_desk: Callable[[], Desk]) -> None:
    desk = open_desk()
    room = desk.channels.Direct("writer").id
    shared = desk.work / "shared.txt"
    desk.run(room, [{"own_write": str(shared), "text": "writer's\n"}])
    desk.sk.close()
    desk = open_desk()
    other = desk.channels.Direct("other").id
    mark = desk.log.mark()
    desk.run(other, [{"own_write": str(shared), "text": "other's\n"}], "other")
    [change] = desk.sk.api.ChangesService.Changes(other)
    assert change.conflict_with == "writer"
    notice = desk.log.wait(
        "message:updated",
        lambda p: p["channel"] == other and "had changed" in (p["message"].get("error") or ""),
        since=mark,
    )
    assert f"@other changed {shared}, which @writer had changed" in notice["message"]["error"]


def test_the_store_is_shown_cleared_and_gone_with_its_channel(desk: Desk) -> None:
    room = desk.channels.Direct("writer").id
    desk.run(room, [{"own_write": str(desk.work / "x.txt"), "text": "x"}])
    service = desk.sk.api.CheckpointService
    info = service.StoreInfo()
    assert info.snapshots >= 4 and info.size_bytes > 0  # work/ and extra/, before and after
    assert Path(info.folder).is_dir()
    cleared = service.ClearCheckpoints(0)
    assert cleared.snapshots == 0
    [change] = desk.sk.api.ChangesService.Changes(room)
    assert not change.revertible
    with pytest.raises(UserError, match="cleared"):
        desk.sk.api.ChangesService.Revert(room, [change.id])
    assert not service.Checkpoints(room)[0].restorable
    # A new answer, then the channel deleted: its snapshots go with it.
    desk.run(room, [{"own_write": str(desk.work / "y.txt"), "text": "y"}])
    assert service.StoreInfo().snapshots >= 4
    desk.channels.Delete(room)
    assert _eventually(lambda: service.StoreInfo().snapshots == 0)


def test_checkpoints_can_be_turned_off(open_desk: Callable[[], Desk], tmp_path: Path) -> None:
    config = tmp_path / "desk.yaml"
    config.write_text("checkpoints:\n  enabled: false\n" + config.read_text(), encoding="utf-8")
    desk = open_desk()
    room = desk.channels.Direct("writer").id
    desk.run(room, [{"own_write": str(desk.work / "x.txt"), "text": "x"}])
    assert desk.sk.api.ChangesService.Changes(room) == []
    assert desk.sk.api.CheckpointService.Checkpoints(room) == []


def _eventually(condition: Callable[[], bool], timeout: float = 20.0) -> bool:
    return bool(wait_for(condition, timeout=timeout, what="the condition"))


def test_the_checkpoint_record_is_json_with_its_folders(desk: Desk) -> None:
    room = desk.channels.Direct("writer").id
    desk.run(room, [{"own_write": str(desk.work / "x.txt"), "text": "x"}])
    [(answer, raw)] = desk.sk._parts.history.checkpoint_records(room)
    record = json.loads(raw)
    assert answer == desk.answer_ids(room)[-1]
    assert {f["root"] for f in record["folders"]} == {
        str(desk.work.resolve()),
        str(desk.extra.resolve()),
    }
    assert all(f["before"]["id"] and f["after"]["id"] for f in record["folders"])


KILLED_RESTORE = """
import sys, threading
from pathlib import Path
from app import Sidekicks
from app.workspace import located_io

config, room, answer, marker = Path(sys.argv[1]), sys.argv[2], sys.argv[3], Path(sys.argv[4])
real_write, real_delete = located_io.write, located_io.delete
done = []

def counted(step):
    done.append(1)
    if len(done) == 10:  # half way: say so, then wait for the kill
        marker.write_text("10", encoding="utf-8")
        threading.Event().wait()

def write(location, data, *, create_folders, executable=False):
    real_write(location, data, create_folders=create_folders, executable=executable)
    counted(location)

def delete(location):
    real_delete(location)
    counted(location)

located_io.write, located_io.delete = write, delete
sk = Sidekicks(config=config).start()
sk.api.CheckpointService.Restore(room, answer)
"""


def test_a_restore_killed_half_way_is_finished_at_the_next_start(
    open_desk: Callable[[], Desk], tmp_path: Path
) -> None:
    desk = open_desk()
    room = desk.channels.Direct("writer").id
    kept = [desk.work / f"kept{i:02}.txt" for i in range(10)]
    for path in kept:
        path.write_text(f"{path.name} v0", encoding="utf-8")
    made = [desk.work / f"made{i:02}.txt" for i in range(10)]
    actions = [{"own_write": str(p), "text": "v1"} for p in kept + made]
    assert all(r.get("ok") for r in desk.run(room, actions))
    [answer] = desk.answer_ids(room)
    config = desk.sk.config_path
    desk.sk.close()

    marker = tmp_path / "half-way"
    app = subprocess.Popen(
        [sys.executable, "-c", KILLED_RESTORE, str(config), room, answer, str(marker)],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    try:
        wait_for(marker.exists, timeout=60, what="the restore to be half done")
    finally:
        app.send_signal(signal.SIGKILL)
        app.wait(timeout=30)
    left = [p for p in kept if p.read_text(encoding="utf-8") == "v1"] + [
        p for p in made if p.exists()
    ]
    assert len(left) == 10  # half of the 20 files were put back when it was killed

    again = open_desk()  # the next start finishes what was begun
    assert [p.read_text(encoding="utf-8") for p in kept] == [f"{p.name} v0" for p in kept]
    assert not any(p.exists() for p in made)
    assert not again.sk._parts.history.value("revert-in-progress")
    restore = [c for c in again.sk.api.ChangesService.Changes(room) if c.route == "restore"]
    assert len(restore) == 20
    again.sk.api.ChangesService.Revert(room, [c.id for c in restore])  # and it can be undone
    assert all(p.read_text(encoding="utf-8") == "v1" for p in kept + made)


def test_files_over_the_size_cap_are_left_out_and_said(
    open_desk: Callable[[], Desk], tmp_path: Path
) -> None:
    config = tmp_path / "desk.yaml"
    config.write_text("checkpoints:\n  maxFileBytes: 100\n" + config.read_text(), encoding="utf-8")
    desk = open_desk()
    room = desk.channels.Direct("writer").id
    big, small = desk.work / "big.bin", desk.work / "small.txt"
    desk.run(
        room,
        [
            {"own_write": str(big), "text": "x" * 1000},
            {"own_write": str(small), "text": "fits"},
        ],
    )
    assert [Path(c.path).name for c in desk.sk.api.ChangesService.Changes(room)] == ["small.txt"]
    [checkpoint] = desk.sk.api.CheckpointService.Checkpoints(room)
    assert [(s.path, s.size, s.reason) for s in checkpoint.skipped] == [
        (str(big.resolve()), 1000, "too large")
    ]


@pytest.mark.posix_only("Windows files have no execute bit")
def test_a_deleted_executable_comes_back_executable(desk: Desk) -> None:
    room = desk.channels.Direct("writer").id
    script = desk.work / "run.sh"
    script.write_text("#!/bin/sh\necho hi\n", encoding="utf-8")
    script.chmod(0o755)
    desk.run(room, [{"own_write": str(script), "delete": True}])
    [change] = desk.sk.api.ChangesService.Changes(room)
    assert change.status == "deleted"
    desk.sk.api.ChangesService.Revert(room, [change.id])
    assert script.read_text(encoding="utf-8") == "#!/bin/sh\necho hi\n"
    assert os.access(script, os.X_OK)


def test_an_answer_is_kept_when_its_changes_cannot_be_recorded(
    desk: Desk, monkeypatch: pytest.MonkeyPatch
) -> None:
    from app.workspace.answer_changes import AnswerChanges

    async def broken(self: AnswerChanges, watch: object) -> list[object]:
        raise RuntimeError("the store broke")

    monkeypatch.setattr(AnswerChanges, "record", broken)
    room = desk.channels.Direct("writer").id
    results = desk.run(room, [{"write": str(desk.work / "kept.txt"), "text": "k"}])
    assert results == [{"write": str(desk.work / "kept.txt"), "ok": True}]
    [change] = desk.sk.api.ChangesService.Changes(room)  # the live fs record stays
    assert (change.route, change.checkpoint) == ("fs", "")
    assert desk.answer_ids(room)  # and the answer was kept
