"""The agent's own sessions (issue 26): listed, opened as a conversation with their history,
titled, resumed without a replay, closed, and logout on Sign out."""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest

from app.acp.sessions_list import MAX_PAGES
from app.core.errors import UserError
from tests.integration.agent_sessions.conftest import Keeper
from tests.waiting import wait_for


def test_sessions_lists_every_page_of_the_agents_folder(keeper: Keeper) -> None:
    listed = keeper.agents.Sessions("keeper")
    assert [(s.id, s.title, s.updated_at) for s in listed] == [
        ("old-1", "Fix the parser", "2026-11-30T10:00:00Z"),
        ("old-2", "Write docs", "2026-11-28T09:00:00Z"),
        ("old-3", "", ""),
    ]
    assert {s.folder for s in listed} == {str(keeper.work)}
    asks = keeper.received("keeper", "session/list")
    assert [a["params"].get("cursor") for a in asks] == [None, "page-1"]
    assert {a["params"]["cwd"] for a in asks} == {str(keeper.work)}


def test_paging_stops_at_its_cap(keeper: Keeper) -> None:
    listed = keeper.agents.Sessions("crowd")  # 48 sessions, 2 a page
    assert len(keeper.received("crowd", "session/list")) == MAX_PAGES
    assert len(listed) == MAX_PAGES * 2
    assert len({s.id for s in listed}) == len(listed)


def test_an_agent_that_does_not_list_is_refused_in_words(keeper: Keeper) -> None:
    with pytest.raises(UserError, match="`plain` does not list its sessions"):
        keeper.agents.Sessions("plain")
    assert keeper.received("plain", "session/list") == []
    with pytest.raises(UserError, match=r"`broken` could not list its sessions: .*locked"):
        keeper.agents.Sessions("broken")


def test_the_card_knows_whether_the_agent_lists_its_sessions_once_it_started(
    keeper: Keeper,
) -> None:
    def lists(name: str) -> bool | None:
        return next(a for a in keeper.agents.List() if a.name == name).lists_sessions

    assert lists("plain") is None  # not started yet: the card still offers to look
    keeper.agents.Start("plain")
    keeper.agents.Start("keeper")
    assert (lists("plain"), lists("keeper")) == (False, True)


def test_open_session_replays_its_history_into_a_new_conversation(keeper: Keeper) -> None:
    channel = keeper.channels.OpenSession("keeper", "old-1")
    assert channel.name == "Fix the parser"
    assert channel.members == ["keeper"] and not channel.direct
    messages = keeper.channels.Conversation(channel.id)["messages"]
    said = [
        (m["role"], [p.get("text") or p["tool"]["title"] for p in m["parts"]])
        for m in messages
        if m["role"] != "system"
    ]
    assert said == [
        ("user", ["why does the parser fail?"]),
        ("agent", ["read parser.py", "It skips the last token."]),
        ("user", ["fix it"]),
        ("agent", ["Fixed: the loop ends one later."]),
    ]
    assert len(keeper.received("keeper", "session/load")) == 1
    # Opened again: the same conversation, no second load.
    assert keeper.channels.OpenSession("keeper", "old-1").id == channel.id
    assert len(keeper.received("keeper", "session/load")) == 1
    # The next message goes on in that session, without the replayed history as context.
    mark = keeper.log.mark()
    keeper.channels.Send(channel.id, "and now?")
    answer = keeper.finished(channel.id, "keeper", since=mark)
    assert answer["parts"][0]["text"] == "echo: and now?"
    prompts = keeper.received("keeper", "session/prompt")
    assert prompts[-1]["params"]["sessionId"] == "old-1"
    assert "parser" not in prompts[-1]["params"]["prompt"][0]["text"]
    assert keeper.received("keeper", "session/new") == []


def test_the_same_session_opened_twice_at_once_opens_once(keeper: Keeper) -> None:
    opened: list[str] = []

    def open_() -> None:
        opened.append(keeper.channels.OpenSession("keeper", "old-2").id)

    threads = [threading.Thread(target=open_) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert len(opened) == 2 and opened[0] == opened[1]
    assert len(keeper.received("keeper", "session/load")) == 1
    assert [c.name for c in keeper.channels.List()].count("Write docs") == 1


def test_a_session_without_a_title_is_named_after_the_agent_and_a_title_renames_it(
    keeper: Keeper,
) -> None:
    channel = keeper.channels.OpenSession("keeper", "old-3")
    assert channel.name == "keeper session old-3"
    mark = keeper.log.mark()
    keeper.channels.Send(channel.id, "title Greetings")
    keeper.finished(channel.id, "keeper", since=mark)
    named = wait_for(
        lambda: next(
            c for c in keeper.channels.List() if c.id == channel.id and c.name == "Greetings"
        ),
        what="the channel named after the agent's title",
    )
    assert named.name == "Greetings"


def test_titles_leave_the_persons_channels_alone(keeper: Keeper) -> None:
    room = keeper.channels.Create("mine", "", ["keeper"])
    mark = keeper.log.mark()
    keeper.channels.Send(room.id, "@keeper title Not yours")
    keeper.finished(room.id, "keeper", since=mark)
    assert next(c for c in keeper.channels.List() if c.id == room.id).name == "mine"


def test_an_unknown_session_is_an_error_and_leaves_no_conversation(keeper: Keeper) -> None:
    before = len(keeper.channels.List())
    with pytest.raises(UserError, match="could not open that session"):
        keeper.channels.OpenSession("keeper", "gone")
    assert len(keeper.channels.List()) == before


def test_after_a_restart_the_session_is_resumed_without_a_replay(
    open_keeper: Callable[[], Keeper],
) -> None:
    first = open_keeper()
    channel = first.channels.OpenSession("keeper", "old-2")
    count = len(first.channels.Conversation(channel.id)["messages"])
    first.sk.close()

    again = open_keeper()
    mark = again.log.mark()
    again.channels.Send(channel.id, "more")
    again.finished(channel.id, "keeper", since=mark)
    resumes = again.received("keeper", "session/resume")
    assert [r["params"]["sessionId"] for r in resumes] == ["old-2"]
    assert len(again.received("keeper", "session/load")) == 1  # the first run's only
    assert len(again.channels.Conversation(channel.id)["messages"]) == count + 2


def test_without_resume_session_load_is_the_fallback(open_keeper: Callable[[], Keeper]) -> None:
    first = open_keeper()
    room = first.channels.Create("plainly", "", ["plain"])
    mark = first.log.mark()
    first.channels.Send(room.id, "hi")
    first.finished(room.id, "plain", since=mark)
    first.sk.close()

    again = open_keeper()
    mark = again.log.mark()
    again.channels.Send(room.id, "again")
    again.finished(room.id, "plain", since=mark)
    assert again.received("plain", "session/resume") == []
    assert len(again.received("plain", "session/load")) == 1


def test_a_refused_resume_falls_back_to_load(open_keeper: Callable[[], Keeper]) -> None:
    first = open_keeper()
    channel = first.channels.OpenSession("flaky", "old-3")
    first.sk.close()

    again = open_keeper()
    mark = again.log.mark()
    again.channels.Send(channel.id, "still there?")
    again.finished(channel.id, "flaky", since=mark)
    assert [r["params"]["sessionId"] for r in again.received("flaky", "session/resume")] == [
        "old-3"
    ]
    loads = again.received("flaky", "session/load")
    assert [r["params"]["sessionId"] for r in loads] == ["old-3", "old-3"]  # both runs
    assert again.received("flaky", "session/new") == []


def test_new_session_closes_the_sessions_it_leaves_behind(keeper: Keeper) -> None:
    channel = keeper.channels.OpenSession("keeper", "old-2")
    keeper.channels.NewSession(channel.id)
    closed = wait_for(
        lambda: keeper.received("keeper", "session/close"), what="session/close after New session"
    )
    assert [c["params"]["sessionId"] for c in closed] == ["old-2"]


def test_delete_and_remove_member_close_the_sessions(keeper: Keeper) -> None:
    channel = keeper.channels.OpenSession("keeper", "old-1")
    keeper.channels.Delete(channel.id)
    assert [c["params"]["sessionId"] for c in keeper.received("keeper", "session/close")] == [
        "old-1"
    ]
    room = keeper.channels.Create("two", "", ["keeper", "plain"])
    mark = keeper.log.mark()
    keeper.channels.Send(room.id, "@keeper @plain hi")
    keeper.finished(room.id, "plain", since=mark)
    keeper.finished(room.id, "keeper", since=mark)
    session = keeper.received("keeper", "session/new")
    assert session  # keeper's new session in this room
    keeper.channels.RemoveMember(room.id, "keeper")
    closed = [c["params"]["sessionId"] for c in keeper.received("keeper", "session/close")]
    assert len(closed) == 2 and closed[1].startswith("new-")
    keeper.channels.RemoveMember(room.id, "plain")  # cannot close: nothing is sent
    assert keeper.received("plain", "session/close") == []


def test_sign_out_logs_out_of_an_agent_that_can(keeper: Keeper) -> None:
    keeper.agents.Start("keeper")
    keeper.agents.Start("plain")
    sign_in = keeper.sk.api.SignInService
    sign_in.SignOut("keeper")
    assert len(keeper.received("keeper", "logout")) == 1
    sign_in.SignOut("plain")
    assert keeper.received("plain", "logout") == []


def test_sign_out_of_a_stopped_agent_that_logs_out_starts_it_for_that_then_stops_it(
    keeper: Keeper,
) -> None:
    keeper.agents.Start("keeper")
    keeper.agents.Stop("keeper")
    keeper.sk.api.SignInService.SignOut("keeper")
    assert len(keeper.received("keeper", "logout")) == 1
    [info] = [a for a in keeper.agents.List() if a.name == "keeper"]
    assert info.state == "stopped"
