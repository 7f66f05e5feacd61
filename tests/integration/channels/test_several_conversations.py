"""Several conversations per agent (issue 28): NewConversation, their titles and times, rename,
delete, and all of it after a restart (real agent processes, real LMDB)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from app.core.errors import UserError
from tests.integration.channels.conftest import Chat


def directs_of(chat: Chat, agent: str) -> list[str]:
    return [c.id for c in chat.channels.List() if c.direct == agent]


def test_new_conversations_are_listed_with_direct_set_and_direct_stays_the_first(
    chat: Chat,
) -> None:
    first = chat.channels.Direct("alpha")
    mark = chat.log.mark()
    second = chat.channels.NewConversation("alpha")
    third = chat.channels.NewConversation("alpha")
    assert (second.direct, second.members, second.name, second.title) == (
        "alpha",
        ["alpha"],
        "",
        "",
    )
    assert len({first.id, second.id, third.id}) == 3
    assert chat.channels.Direct("alpha").id == first.id  # the SPEC's one, the oldest
    assert directs_of(chat, "alpha") == [first.id, second.id, third.id]
    listed = chat.log.wait("channels:changed", lambda p: len(p["channels"]) == 3, since=mark)
    assert [c["direct"] for c in listed["channels"]] == ["alpha"] * 3
    assert first.created_at <= second.created_at <= third.created_at
    assert third.last_activity == third.created_at
    with pytest.raises(UserError, match="no agent named"):
        chat.channels.NewConversation("nobody")
    assert len(chat.channels.List()) == 3


def test_each_conversation_has_its_own_session_and_is_titled_by_its_first_message(
    chat: Chat,
) -> None:
    first = chat.channels.Direct("alpha")
    second = chat.channels.NewConversation("alpha")
    for channel, text in ((first, "Plan the release\nwith details"), (second, "Other work")):
        mark = chat.log.mark()
        chat.channels.Send(channel.id, text)
        chat.finished(channel.id, "alpha", since=mark)
        chat.idle(channel.id, since=mark)
    mark = chat.log.mark()
    chat.channels.Send(first.id, "a later message does not rename it")
    chat.finished(first.id, "alpha", since=mark)
    by_id = {c.id: c for c in chat.channels.List()}
    assert by_id[first.id].title == "Plan the release"  # the first line only
    assert by_id[second.id].title == "Other work"
    assert by_id[first.id].last_activity > by_id[second.id].last_activity
    sessions = [m for m in chat.received("alpha") if m.get("method") == "session/new"]
    assert len(sessions) == 2  # one ACP session per conversation
    assert chat.prompts("alpha")[1] == "Other work"  # nothing of the first one leaks in


def test_a_long_first_message_is_cut_to_one_short_line(chat: Chat) -> None:
    channel = chat.channels.NewConversation("alpha")
    mark = chat.log.mark()
    chat.channels.Send(channel.id, "\n\n   " + "word " * 40)
    chat.finished(channel.id, "alpha", since=mark)
    title = next(c.title for c in chat.channels.List() if c.id == channel.id)
    assert title.startswith("word word") and title.endswith("…")
    assert len(title) <= 64 and "  " not in title


def test_a_conversation_is_renamed_and_deleted_like_a_channel(chat: Chat) -> None:
    first = chat.channels.Direct("alpha")
    second = chat.channels.NewConversation("alpha")
    mark = chat.log.mark()
    chat.channels.Send(second.id, "first words")
    chat.finished(second.id, "alpha", since=mark)
    renamed = chat.channels.Rename(second.id, "  Release   notes ", "for May")
    assert (renamed.title, renamed.description, renamed.name) == ("Release notes", "for May", "")
    mark = chat.log.mark()
    chat.channels.Send(second.id, "more")
    chat.finished(second.id, "alpha", since=mark)
    assert next(c.title for c in chat.channels.List() if c.id == second.id) == "Release notes"
    for bad, message in (("   ", "needs a title"), ("x" * 65, "at most 64")):
        with pytest.raises(UserError, match=message):
            chat.channels.Rename(second.id, bad, "")
    assert chat.channels.Rename(first.id, "Release notes", "").title == "Release notes"  # alike

    mark = chat.log.mark()
    chat.channels.Delete(first.id)  # the SPEC's first one may go too
    chat.log.wait("channels:changed", lambda p: len(p["channels"]) == 1, since=mark)
    assert directs_of(chat, "alpha") == [second.id]
    assert chat.channels.Direct("alpha").id == second.id  # now the oldest
    chat.channels.Delete(second.id)
    assert directs_of(chat, "alpha") == []
    again = chat.channels.Direct("alpha")  # none left: a new one
    assert again.id not in (first.id, second.id)


def test_conversations_their_titles_and_times_survive_a_restart(
    open_chat: Callable[..., Chat],
) -> None:
    chat = open_chat()
    first = chat.channels.Direct("alpha")
    second = chat.channels.NewConversation("alpha")
    mark = chat.log.mark()
    chat.channels.Send(second.id, "kept title")
    chat.finished(second.id, "alpha", since=mark)
    chat.channels.Rename(first.id, "named by me", "")
    before = [c.wire() for c in chat.channels.List()]
    chat.sk.close()

    again = open_chat()
    assert [c.wire() for c in again.channels.List()] == before
    assert again.channels.Direct("alpha").id == first.id
    mark = again.log.mark()
    again.channels.Send(first.id, "a message does not replace the person's title")
    again.finished(first.id, "alpha", since=mark)
    assert next(c.title for c in again.channels.List() if c.id == first.id) == "named by me"
