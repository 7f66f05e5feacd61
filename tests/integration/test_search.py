"""Search through ChannelService with the demo agent, headless (issue 17): what the person and
the agent said is found, newest first, kept across restarts, rebuilt when its file is gone,
forgotten with its channel; conversations open around a message found."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from app import Sidekicks
from app.core.errors import UserError
from app.paths import data_dir
from app.search.store import FILE_NAME
from tests.waiting import EventLog, wait_for

CONFIG = "agents:\n  - name: demo\n    builtin: demo\n"


class App:
    def __init__(self, sk: Sidekicks) -> None:
        self.sk = sk
        self.log = EventLog()
        sk.events.subscribe(self.log)
        self.channels = sk.api.ChannelService

    def say(self, channel: str, text: str) -> tuple[str, dict[str, Any]]:
        """Sends `text`; its id and the demo agent's finished answer."""
        mark = self.log.mark()
        sent = self.channels.Send(channel, text)
        answer = self.log.wait(
            "message:updated",
            lambda p: (
                p["channel"] == channel and p["message"]["role"] == "agent" and p["message"]["done"]
            ),
            since=mark,
            timeout=20,
        )["message"]
        self.log.wait("turn:changed", lambda p: p["channel"] == channel and not p["busy"])
        return sent, answer

    def search(self, query: str, channel: str = "") -> dict[str, Any]:
        """Once the index is in step (the catch-up after a start runs in the background)."""
        wait_for(
            lambda: not self.sk.api.SearchService.Search("x").indexing, timeout=20, what="indexed"
        )
        results: dict[str, Any] = self.sk.api.SearchService.Search(query, channel).wire()
        return results


@pytest.fixture
def start(tmp_path: Path) -> Iterator[Callable[[], App]]:
    config = tmp_path / "search.yaml"
    config.write_text(CONFIG, encoding="utf-8")
    opened: list[Sidekicks] = []

    def start_() -> App:
        if opened:
            opened.pop().close()
        opened.append(Sidekicks(config=config).start())
        return App(opened[-1])

    yield start_
    for sk in opened:
        sk.close()


def ids(results: dict[str, Any]) -> list[str]:
    return [hit["messageId"] for hit in results["results"]]


def test_the_persons_and_the_agents_words_are_found_newest_first_with_a_highlighted_snippet(
    start: Callable[[], App],
) -> None:
    app = start()
    direct = app.channels.Direct("demo").id
    asked, answer = app.say(direct, "/echo Le Café de l'été est prêt")
    results = app.search("cafe ÉTÉ")
    assert ids(results) == [answer["id"], asked]
    assert results["more"] is False
    hit = results["results"][0]
    assert {k: hit[k] for k in ("channel", "channelName", "agent", "role", "createdAt")} == {
        "channel": direct,
        "channelName": "demo",
        "agent": "demo",
        "role": "agent",
        "createdAt": answer["createdAt"],
    }
    assert hit["snippet"] == "Le Café de l'été est prêt"
    assert [hit["snippet"][a:b] for a, b in hit["highlights"]] == ["Café", "été"]
    mine = results["results"][1]
    assert (mine["role"], mine["agent"], mine["snippet"]) == (
        "user",
        "",
        "/echo Le Café de l'été est prêt",
    )


def test_a_search_in_one_conversation_and_a_deleted_channel_s_results(
    start: Callable[[], App],
) -> None:
    app = start()
    room = app.channels.Create("kitchen", "", ["demo"]).id
    direct = app.channels.Direct("demo").id
    _, in_room = app.say(room, "@demo /echo saffron risotto")
    _, in_direct = app.say(direct, "/echo saffron buns")
    assert ids(app.search("saffron", room)) == [in_room["id"], in_room_question(app, room)]
    assert app.search("saffron")["results"][0]["messageId"] == in_direct["id"]
    assert app.search("risotto")["results"][0]["channelName"] == "kitchen"
    app.channels.Delete(room)
    assert [hit["channel"] for hit in app.search("saffron")["results"]] == [direct, direct]
    with pytest.raises(UserError, match="no channel"):
        app.sk.api.SearchService.Search("saffron", room)


def in_room_question(app: App, room: str) -> str:
    """The person's message in `room` (the first of the conversation)."""
    messages = app.channels.Conversation(room)["messages"]
    return str(next(m["id"] for m in messages if m["role"] == "user"))


def test_what_was_found_is_found_again_after_a_restart_and_after_losing_the_index_file(
    start: Callable[[], App], tmp_path: Path
) -> None:
    app = start()
    direct = app.channels.Direct("demo").id
    asked, answer = app.say(direct, "/echo quokka sighting")
    app = start()
    assert ids(app.search("quokka")) == [answer["id"], asked]
    index_file = data_dir(app.sk.config_path) / FILE_NAME
    assert index_file.is_file()
    app.sk.close()
    index_file.unlink()
    app = start()
    assert ids(app.search("quok")) == [answer["id"], asked]  # rebuilt from the history
    assert index_file.is_file()


def test_a_conversation_opens_around_a_message_found_and_reads_on_after_it(
    start: Callable[[], App],
) -> None:
    app = start()
    direct = app.channels.Direct("demo").id
    said = [app.say(direct, f"/echo turn {n}") for n in range(3)]
    (found,) = [h for h in app.search('"turn 1"')["results"] if h["role"] == "agent"]
    page = app.sk.api.SearchService.Around(direct, found["messageId"])
    everything = app.channels.Conversation(direct)["messages"]
    assert page["messages"] == everything
    assert (page["more"], page["moreAfter"]) == (False, False)
    newer = app.sk.api.SearchService.Newer(direct, said[0][0])
    assert newer["messages"] == everything[1:]
    assert newer["moreAfter"] is False
    with pytest.raises(UserError, match="no longer in the history"):
        app.sk.api.SearchService.Around(direct, "01NOSUCHMESSAGE00000000000")
    with pytest.raises(UserError, match="no longer in the history"):
        app.sk.api.SearchService.Newer(direct, "01NOSUCHMESSAGE00000000000")


def test_hostile_or_empty_queries_answer_without_an_error(start: Callable[[], App]) -> None:
    app = start()
    direct = app.channels.Direct("demo").id
    app.say(direct, '/echo foo" OR bar( NEAR(x')
    for query in ['foo" OR bar(', "NEAR(", "(", '"', "*", "   "]:
        results = app.search(query)
        assert isinstance(results["results"], list)
    assert app.search("!!!") == {"results": [], "more": False, "indexing": False}
    with pytest.raises(UserError, match="at most 1000 characters"):
        app.sk.api.SearchService.Search("x" * 1001)
