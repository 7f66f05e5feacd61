"""Every write an agent makes is a change the person can review and revert (issue 15)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from app.core.errors import UserError
from app.history.lmdb_store import LmdbHistory
from app.paths import data_dir
from tests.integration.workspace.conftest import Desk


def test_each_write_is_a_change_record_of_its_answer_with_a_diff(desk: Desk) -> None:
    room = desk.channels.Direct("writer").id
    old = desk.work / "old.txt"
    old.write_text("a\nb\n", encoding="utf-8", newline="\n")  # the diff is of these bytes
    new = desk.work / "new.txt"
    mark = desk.log.mark()
    desk.run(room, [{"write": str(old), "text": "a\nB\nc\n"}, {"write": str(new), "text": "n\n"}])
    changes = desk.sk.api.ChangesService.Changes(room)
    answer = desk.answer_ids(room)[-1]
    assert [(c.path, c.agent, c.message_id) for c in changes] == [
        (str(old), "writer", answer),
        (str(new), "writer", answer),
    ]
    assert not changes[0].new_file and changes[1].new_file
    assert (changes[0].additions, changes[0].deletions) == (2, 1)
    assert "-b\n+B\n+c\n" in changes[0].diff
    assert changes[1].diff.startswith("--- /dev/null\n")
    announced = [c["id"] for p in desk.log.named("changes:changed", mark) for c in p["changes"]]
    # Each write is told as it is made, then again merged with the answer's checkpoint.
    assert list(dict.fromkeys(announced)) == [c.id for c in changes]


def test_one_change_is_reverted_and_marked(desk: Desk) -> None:
    room = desk.channels.Direct("writer").id
    kept = desk.work / "kept.txt"
    kept.write_text("before\n", encoding="utf-8")
    desk.run(room, [{"write": str(kept), "text": "after\n"}])
    (change,) = desk.sk.api.ChangesService.Changes(room)
    mark = desk.log.mark()
    (reverted,) = desk.sk.api.ChangesService.Revert(room, [change.id])
    assert reverted.reverted and reverted.id == change.id
    assert kept.read_text(encoding="utf-8") == "before\n"
    assert desk.sk.api.ChangesService.Changes(room)[0].reverted
    assert desk.log.named("changes:changed", mark)[0]["changes"][0]["reverted"] is True
    with pytest.raises(UserError, match="already reverted"):
        desk.sk.api.ChangesService.Revert(room, [change.id])


def test_a_whole_answer_is_reverted_newest_first_and_a_new_file_goes(desk: Desk) -> None:
    room = desk.channels.Direct("writer").id
    twice = desk.work / "twice.txt"
    twice.write_text("0\n", encoding="utf-8")
    created = desk.work / "made" / "created.txt"
    desk.run(
        room,
        [
            {"write": str(twice), "text": "1\n"},
            {"write": str(created), "text": "new\n"},
            {"write": str(twice), "text": "2\n"},
        ],
    )
    answer = desk.answer_ids(room)[-1]
    records = [c for c in desk.sk.api.ChangesService.Changes(room) if c.message_id == answer]
    # One record per file per answer: twice.txt's two writes are one change, 0 -> 2.
    assert [(c.path, c.route, c.status) for c in records] == [
        (str(twice), "fs", "modified"),
        (str(created), "fs", "added"),
    ]
    assert "-0\n+2\n" in records[0].diff
    ids = [c.id for c in records]
    reverted = desk.sk.api.ChangesService.Revert(room, ids)
    assert [c.id for c in reverted] == ids and all(c.reverted for c in reverted)
    assert twice.read_text(encoding="utf-8") == "0\n"
    assert not created.exists()


def test_a_revert_is_refused_whole_when_a_file_changed_since(desk: Desk) -> None:
    room = desk.channels.Direct("writer").id
    first, second = desk.work / "first.txt", desk.work / "second.txt"
    desk.run(room, [{"write": str(first), "text": "1\n"}, {"write": str(second), "text": "2\n"}])
    second.write_text("edited by hand\n", encoding="utf-8")
    ids = [c.id for c in desk.sk.api.ChangesService.Changes(room)]
    with pytest.raises(UserError, match=f"{second} changed since writer wrote it"):
        desk.sk.api.ChangesService.Revert(room, ids)
    assert first.read_text(encoding="utf-8") == "1\n"  # nothing was reverted
    assert second.read_text(encoding="utf-8") == "edited by hand\n"
    assert not any(c.reverted for c in desk.sk.api.ChangesService.Changes(room))


def test_change_records_survive_a_restart_and_go_with_their_channel(
    open_desk: Callable[[], Desk],
) -> None:
    desk = open_desk()
    room = desk.channels.Create("edits").id
    desk.channels.AddMember(room, "writer")
    path = desk.work / "restart.txt"
    desk.run(room, [{"write": str(path), "text": "kept\n"}])
    before = [c.wire() for c in desk.sk.api.ChangesService.Changes(room)]
    assert len(before) == 1
    desk.sk.close()

    again = open_desk()
    assert [c.wire() for c in again.sk.api.ChangesService.Changes(room)] == before
    again.sk.api.ChangesService.Revert(room, [before[0]["id"]])  # the texts were kept too
    assert not path.exists()
    again.channels.Delete(room)
    with pytest.raises(UserError):
        again.sk.api.ChangesService.Changes(room)
    again.sk.close()
    database = LmdbHistory(data_dir(desk.root / "desk.yaml"))
    try:
        assert database.changes(room) == []
        assert database.change_texts(room, before[0]["id"]) is None
    finally:
        database.close()
