"""Hand-offs (issue 28) through the real app and real agent processes
(tests/fakes/handoff_agent.py): answers that mention other members route to them within the
channel's budget; the limit, Continue, Stop; mentions in code, in quotes, of oneself or of
non-members are not hand-offs; budget 0 is off; what the receiver gets (its changes and plan as
`resource` blocks, or as text) by its capability."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from app.core.errors import UserError
from tests.integration.channels.handoff_room import Fake, Room, text_of
from tests.waiting import wait_for

LOOP = {"alice": Fake("@bob please review ({n})"), "bob": Fake("@alice your turn ({n})")}


@pytest.fixture
def open_room(tmp_path: Path) -> Iterator[Callable[..., Room]]:
    opened: list[Room] = []

    def open_(agents: dict[str, Fake], members: list[str] | None = None) -> Room:
        room = Room(tmp_path, agents, members or list(agents))
        opened.append(room)
        return room

    yield open_
    for room in opened:
        room.close()


def test_a_loop_of_two_agents_stops_at_the_budget_and_continue_is_one_more_round(
    open_room: Callable[..., Room],
) -> None:
    room = open_room(LOOP)
    mark = room.send("@alice start")
    room.idle(mark)
    answers = room.answers()
    assert [a["agent"] for a in answers] == ["alice", "bob", "alice", "bob"]
    assert answers[0].get("handoff") is None  # the person's message
    hops = [
        (a["handoff"]["fromAgent"], a["handoff"]["index"], a["handoff"]["budget"])
        for a in answers[1:]
    ]
    assert hops == [("alice", 1, 3), ("bob", 2, 3), ("alice", 3, 3)]
    [limit] = room.system("handoff-limit")
    assert limit["agent"] == "bob"
    assert limit["handoff"] == {"fromAgent": "bob", "index": 3, "budget": 3, "to": ["alice"]}
    # The turn line's figures travel with the turn.
    turns = [p["handoff"] for p in room.log.named("turn:changed", mark) if p.get("handoff")]
    assert {(t["fromAgent"], t["index"]) for t in turns} == {("alice", 1), ("bob", 2), ("alice", 3)}
    # The receiver is told whose hand-off it is, and gets the answer that mentioned it.
    assert "@alice handed this over to you:\n@bob please review (1)" in text_of(
        room.prompts("bob")[0]
    )

    mark = room.log.mark()
    room.handoffs.ContinueHandoffs(room.id)
    room.idle(mark)
    answers = room.answers()
    assert [a["agent"] for a in answers][4:] == ["alice"]
    assert answers[4]["handoff"] == {"fromAgent": "bob", "index": 4, "budget": 4, "to": []}
    assert len(room.system("handoff-limit")) == 2  # alice's answer asks bob again: held

    # Stop with hand-offs held: they are dropped, and the channel says so; nothing continues.
    room.channels.Cancel(room.id)
    [stopped] = room.system("handoffs-stopped")
    assert stopped["handoff"]["to"] == ["bob"]
    with pytest.raises(UserError, match="no hand-off is waiting"):
        room.handoffs.ContinueHandoffs(room.id)
    assert len(room.prompts("bob")) == 2


def test_a_new_message_of_the_person_starts_the_count_again(
    open_room: Callable[..., Room],
) -> None:
    room = open_room(LOOP)
    room.handoffs.SetHandoffs(room.id, 1)
    room.idle(room.send("@alice start"))
    assert [a["agent"] for a in room.answers()] == ["alice", "bob"]
    room.idle(room.send("@bob again"))
    answers = room.answers()
    assert [a["agent"] for a in answers] == ["alice", "bob", "bob", "alice"]
    assert answers[3]["handoff"]["index"] == 1  # counted from 0 again
    # Continue goes on from the second message's chain: the first one's held hand-off to
    # alice (from bob's first answer) went with it.
    mark = room.log.mark()
    room.handoffs.ContinueHandoffs(room.id)
    room.idle(mark)
    last = room.answers()[-1]
    assert (last["agent"], last["handoff"]["fromAgent"], last["handoff"]["index"]) == (
        "bob",
        "alice",
        2,
    )
    assert len(room.answers()) == 5


def test_stop_ends_the_chain_and_names_whom_it_did_not_reach(
    open_room: Callable[..., Room],
) -> None:
    room = open_room(
        {
            "alice": Fake("@bob and @carol, please review"),
            "bob": Fake("on it", {"FAKE_DELAY": "30"}),  # until Stop
            "carol": Fake("ok"),
        }
    )
    mark = room.send("@alice start")
    room.log.wait(
        "turn:changed",
        lambda p: p["channel"] == room.id and p["answering"] == "bob" and p.get("handoff"),
        since=mark,
        timeout=20,
    )
    # Stopped once bob has its prompt (its session/cancel then reaches it).
    wait_for(lambda: room.prompts("bob"), timeout=20, what="bob's prompt")
    room.channels.Cancel(room.id)
    room.idle(mark)
    [stopped] = room.system("handoffs-stopped")
    assert stopped["handoff"]["to"] == ["carol"]
    assert room.prompts("carol") == []
    assert [a["agent"] for a in room.answers()] == ["alice", "bob"]


def test_stop_while_the_receivers_session_opens_asks_it_nothing(
    open_room: Callable[..., Room],
) -> None:
    room = open_room(
        {"alice": Fake("@bob please review"), "bob": Fake("ok", {"FAKE_NEW_DELAY": "1"})}
    )
    mark = room.send("@alice start")

    def bob_opens() -> bool:
        path = room.root / "bob.jsonl"
        return path.exists() and '"session/new"' in path.read_text(encoding="utf-8")

    wait_for(bob_opens, timeout=20, what="bob's session/new")
    room.channels.Cancel(room.id)
    room.idle(mark)
    assert room.prompts("bob") == []
    assert [a["agent"] for a in room.answers()] == ["alice"]


def test_mentions_in_code_in_quotes_of_itself_or_of_non_members_are_not_handoffs(
    open_room: Callable[..., Room],
) -> None:
    said = "Try `@bob` here.||```\\n@bob review\\n```\\n> @bob said so\\n@alice and @carol, fine"
    room = open_room(
        {"alice": Fake(said.replace("\\n", "\n")), "bob": Fake("ok"), "carol": Fake("ok")},
        members=["alice", "bob"],  # carol is configured, not a member
    )
    room.idle(room.send("@alice one"))
    room.idle(room.send("@alice two"))
    assert [a["agent"] for a in room.answers()] == ["alice", "alice"]
    assert room.prompts("bob") == [] and room.prompts("carol") == []
    assert "carol" not in room.channels.Conversation(room.id)["channel"]["members"]


def test_budget_zero_is_off_and_the_budget_is_kept_with_the_channel(
    open_room: Callable[..., Room], tmp_path: Path
) -> None:
    room = open_room(LOOP)
    assert room.channels.Conversation(room.id)["channel"]["handoffs"] == 3  # the default
    assert room.handoffs.SetHandoffs(room.id, 0).handoffs == 0
    room.idle(room.send("@alice start"))
    assert [a["agent"] for a in room.answers()] == ["alice"]
    assert room.system("handoff-limit") == []
    with pytest.raises(UserError, match="from 0 to 50"):
        room.handoffs.SetHandoffs(room.id, 51)
    direct = room.channels.Direct("alice").id
    with pytest.raises(UserError, match="between the agents of a channel"):
        room.handoffs.SetHandoffs(direct, 2)
    room.close()
    again = Room(tmp_path, LOOP, [], reopen=room.id)  # the same history, opened again
    try:
        kept = next(c for c in again.channels.List() if c.id == room.id)
        assert kept.handoffs == 0
    finally:
        again.close()


def test_the_receiver_gets_the_changes_and_plan_as_resources_or_as_text(
    open_room: Callable[..., Room],
) -> None:
    room = open_room(
        {
            "alice": Fake(
                "@bob @carol please review", {"FAKE_WRITE": "notes.txt", "FAKE_PLAN": "1"}
            ),
            "bob": Fake("looks good", {"FAKE_EMBEDDED": "1"}),
            "carol": Fake("fine"),
        }
    )
    room.idle(room.send("@alice write the notes"))
    alice_answer = room.answers()[0]["id"]
    [to_bob] = room.prompts("bob")
    resources = {
        b["resource"]["uri"]: b["resource"] for b in to_bob["prompt"] if b["type"] == "resource"
    }
    changes = resources[f"sidekicks://changes/{alice_answer}"]
    assert changes["mimeType"] == "text/x-diff" and "+prompt 1" in changes["text"]
    assert "notes.txt" in changes["text"]
    plan = resources[f"sidekicks://plan/{alice_answer}"]
    assert plan["text"] == "- [x] step 1\n- [ ] review\n"
    assert "+prompt 1" not in text_of(to_bob)  # not twice
    [to_carol] = room.prompts("carol")
    assert [b["type"] for b in to_carol["prompt"]] == ["text"]
    text = text_of(to_carol)
    assert "The changes of @alice's answer:" in text and "+prompt 1" in text
    assert "The plan of @alice's answer:\n- [x] step 1" in text
    # The unseen messages go as for any message: carol also sees bob's answer.
    assert "[@bob] looks good" in text
