"""A write over a file that changed since the agent last saw it is noticed in the
conversation, naming who changed it (issue 15); the write still happens."""

from __future__ import annotations

from typing import Any

from tests.integration.workspace.conftest import Desk


def notices(desk: Desk, channel: str, since: int) -> list[str]:
    return [
        p["message"]["error"]
        for p in desk.log.named("message:updated", since)
        if p["channel"] == channel and p["message"]["role"] == "system"
    ]


def kept_notices(desk: Desk, channel: str) -> list[dict[str, Any]]:
    messages = desk.channels.Conversation(channel)["messages"]
    return [m for m in messages if m["role"] == "system" and not m["code"]]


def test_another_agents_change_is_named_in_a_notice_and_on_the_record(desk: Desk) -> None:
    room = desk.channels.Create("pair").id
    desk.channels.AddMember(room, "writer")
    desk.channels.AddMember(room, "other")
    shared = desk.work / "shared.txt"
    shared.write_text("v0\n", encoding="utf-8")
    desk.run(room, [{"read": str(shared)}], agent="writer")
    desk.run(room, [{"write": str(shared), "text": "by other\n"}], agent="other")
    mark = desk.log.mark()
    desk.run(room, [{"write": str(shared), "text": "by writer\n"}], agent="writer")
    assert notices(desk, room, mark) == [
        f"@writer wrote {shared}, which @other changed since @writer last read it"
    ]
    assert shared.read_text(encoding="utf-8") == "by writer\n"  # written all the same
    last = desk.sk.api.ChangesService.Changes(room)[-1]
    assert (last.agent, last.conflict_with) == ("writer", "other")
    assert len(kept_notices(desk, room)) == 1  # kept in history, after the answer


def test_a_change_made_outside_sidekicks_is_noticed_as_such(desk: Desk) -> None:
    room = desk.channels.Direct("writer").id
    path = desk.work / "outside-edit.txt"
    desk.run(room, [{"write": str(path), "text": "mine\n"}])
    path.write_text("the person's edit\n", encoding="utf-8")
    mark = desk.log.mark()
    desk.run(room, [{"write": str(path), "text": "mine again\n"}])
    assert notices(desk, room, mark) == [
        f"@writer wrote {path}, which someone outside Sidekicks changed since @writer last read it"
    ]
    assert desk.sk.api.ChangesService.Changes(room)[-1].conflict_with == "you"


def test_no_notice_when_the_file_is_as_the_agent_last_saw_it(desk: Desk) -> None:
    room = desk.channels.Direct("writer").id
    path = desk.work / "calm.txt"
    path.write_text("calm\n", encoding="utf-8")
    mark = desk.log.mark()
    desk.run(
        room,
        [
            {"read": str(path)},
            {"write": str(path), "text": "one\n"},
            {"write": str(path), "text": "two\n"},
        ],
    )
    assert notices(desk, room, mark) == []
    # The two writes are one change of the answer (its checkpoint merges them).
    assert [c.conflict_with for c in desk.sk.api.ChangesService.Changes(room)] == [""]


def test_no_notice_when_the_file_already_holds_what_the_agent_writes(desk: Desk) -> None:
    """As opencode does on a busy machine: its own tool writes the bytes before the fs/write
    it sent (without waiting) is handled. Nothing is written over: nothing to tell."""
    room = desk.channels.Direct("writer").id
    path = desk.work / "twice.txt"
    desk.run(room, [{"write": str(path), "text": "first\n"}])
    path.write_text("second\n", encoding="utf-8")  # the agent's own tool, first
    mark = desk.log.mark()
    desk.run(room, [{"write": str(path), "text": "second\n"}])
    assert notices(desk, room, mark) == []
    assert path.read_text(encoding="utf-8") == "second\n"


def test_a_write_over_a_revert_says_the_person_reverted_it(desk: Desk) -> None:
    room = desk.channels.Direct("writer").id
    path = desk.work / "undone.txt"
    path.write_text("start\n", encoding="utf-8")
    desk.run(room, [{"read": str(path)}, {"write": str(path), "text": "changed\n"}])
    desk.sk.api.ChangesService.Revert(room, [desk.sk.api.ChangesService.Changes(room)[0].id])
    mark = desk.log.mark()
    desk.run(room, [{"write": str(path), "text": "changed again\n"}])
    assert notices(desk, room, mark) == [
        f"@writer wrote {path}, which you reverted since @writer last read it"
    ]
    assert desk.sk.api.ChangesService.Changes(room)[-1].conflict_with == "you"
