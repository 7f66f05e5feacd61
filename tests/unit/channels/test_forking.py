"""Fork from here (issue 28), the parts without agents: the history read up to a message across
pages, which members' sessions are to fork, and the context a fork's new session is given."""

from __future__ import annotations

import pytest

from app.channels.context import build_prompt
from app.channels.forking import _forked_member, history_up_to
from app.channels.state import ChannelState
from app.core.errors import UserError
from app.core.ids import new_id
from app.history.base import PAGE, MemberSession, StoredChannel
from app.history.memory import MemoryHistory
from app.models.conversation import Channel, Message, Part


def said(channel: str, role: str, text: str, agent: str = "") -> Message:
    return Message(
        id=new_id(),
        channel=channel,
        created_at="2026-12-02T07:00:00.000Z",
        role=role,  # type: ignore[arg-type]
        agent=agent,
        parts=[Part(kind="text", text=text)],
    )


def test_the_history_is_read_up_to_the_message_across_pages() -> None:
    history = MemoryHistory()
    messages = [said("c", "user", f"m{n}") for n in range(PAGE * 2 + 50)]
    for message in messages:
        history.add_message(message)
    at = PAGE * 2 + 10
    assert [m.id for m in history_up_to(history, "c", messages[at].id)] == [
        m.id for m in messages[: at + 1]
    ]
    assert [m.id for m in history_up_to(history, "c", messages[0].id)] == [messages[0].id]
    with pytest.raises(UserError, match="only a finished message can be forked"):
        history_up_to(history, "c", "01NOTKEPT")
    with pytest.raises(UserError):
        history_up_to(history, "other", messages[0].id)


def source_with(member: MemberSession) -> ChannelState:
    channel = Channel(id="src", name="team", members=["ann"])
    return ChannelState(StoredChannel(channel=channel, sessions={"ann": member}))


def test_a_member_whose_session_saw_nothing_newer_is_forked() -> None:
    member = _forked_member(
        source_with(MemberSession(session_id="s1", last_seen="a2", chosen_mode="plan")),
        "ann",
        {"a1": "b1", "a2": "b2"},
    )
    assert member.fork is not None
    assert (member.fork.channel, member.fork.session_id, member.fork.seen) == ("src", "s1", "a2")
    assert (member.last_seen, member.session_id, member.replay_own) == ("b2", "", False)
    assert member.chosen_mode == "plan"  # the person's choices go with it


@pytest.mark.parametrize(
    "was",
    [
        MemberSession(session_id="s1", last_seen="a9"),  # it saw a message after the fork's
        MemberSession(session_id="", last_seen=""),  # no session (a New session, or never)
        MemberSession(session_id="s1", last_seen=""),
    ],
)
def test_other_members_start_anew_with_the_whole_history(was: MemberSession) -> None:
    member = _forked_member(source_with(was), "ann", {"a1": "b1", "a2": "b2"})
    assert member.fork is None
    assert (member.last_seen, member.session_id, member.replay_own) == ("", "", True)


def test_a_member_never_seen_in_the_source_starts_anew() -> None:
    member = _forked_member(source_with(MemberSession()), "bob", {"a1": "b1"})
    assert member.fork is None and member.replay_own


def test_a_forks_new_session_is_given_its_own_answers_too() -> None:
    unseen = [
        said("c", "user", "@ann hello"),
        said("c", "agent", "hi there", agent="ann"),
        said("c", "agent", "me too", agent="bob"),
        said("c", "system", "", agent="bob"),
    ]
    usual = build_prompt("next", unseen, "ann", "team").splitlines()
    assert usual == [
        "Messages in #team since your last answer:",
        "[user] @ann hello",
        "[@bob] me too",
        "",
        "The message for you:",
        "next",
    ]
    forked = build_prompt("next", unseen, "ann", "team", own=True).splitlines()
    assert forked == [
        "Earlier in #team:",
        "[user] @ann hello",
        "[you] hi there",
        "[@bob] me too",
        "",
        "The message for you:",
        "next",
    ]
    assert build_prompt("next", unseen[:2], "ann", "", own=True).startswith(
        "Earlier in this conversation:\n"
    )
