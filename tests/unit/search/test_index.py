"""The search index kept in step with a history (in memory, and on disk beside LMDB)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from app.core.errors import UserError
from app.core.ids import new_id
from app.history.base import History
from app.models.conversation import Part
from app.search import store
from app.search.index import MAX_LIMIT, SearchIndex
from tests.unit.search.indexing import found, keep, said, settled, tool_part

TEAM, DIRECT = new_id(), new_id()


@pytest.fixture
def index(history: History) -> Iterator[SearchIndex]:
    opened = SearchIndex(history, {TEAM: "team", DIRECT: "alpha"})
    yield settled(opened)
    opened.close()


def test_a_stored_message_is_found_by_its_words_with_its_channel_author_and_time(
    history: History, index: SearchIndex
) -> None:
    message = keep(history, index, said(TEAM, "The build failed on Windows", "agent", "alpha"))
    (hit,) = index.search("windows").results
    assert hit.wire() == {
        "channel": TEAM,
        "channelName": "team",
        "messageId": message.id,
        "agent": "alpha",
        "role": "agent",
        "createdAt": message.created_at,
        "snippet": "The build failed on Windows",
        "highlights": [[20, 27]],
    }


def test_results_are_newest_first_across_channels(history: History, index: SearchIndex) -> None:
    first = keep(history, index, said(TEAM, "deploy the app"))
    second = keep(history, index, said(DIRECT, "deploy again", "agent", "alpha"))
    third = keep(history, index, said(TEAM, "deploy done"))
    assert found(index, "deploy") == [third.id, second.id, first.id]
    assert index.search("deploy", DIRECT).results[0].channel_name == "alpha"


def test_every_word_must_match_and_phrases_keep_their_order(
    history: History, index: SearchIndex
) -> None:
    both = keep(history, index, said(TEAM, "red apple pie"))
    keep(history, index, said(TEAM, "red car"))
    assert found(index, "apple red ") == [both.id]
    assert found(index, '"apple pie"') == [both.id]
    assert found(index, '"pie apple"') == []


def test_accents_and_case_are_folded_both_ways(history: History, index: SearchIndex) -> None:
    cafe = keep(history, index, said(TEAM, "Un Café pour l'ÉTÉ"))
    keep(history, index, said(TEAM, "cafétéria"))
    assert found(index, "cafe ") == [cafe.id]
    assert found(index, "été ") == [cafe.id]
    assert found(index, "ÉTÉ") == [cafe.id]


def test_limit_and_more(history: History, index: SearchIndex) -> None:
    added = [keep(history, index, said(TEAM, f"note {n}")) for n in range(7)]
    results = index.search("note", limit=5)
    assert [h.message_id for h in results.results] == [m.id for m in added[:1:-1]]
    assert results.more is True
    assert index.search("note", limit=7).more is False


def test_a_page_of_results_has_at_most_two_hundred(history: History, index: SearchIndex) -> None:
    for n in range(MAX_LIMIT + 1):
        keep(history, index, said(TEAM, f"many {n}"))
    results = index.search("many", limit=10_000)
    assert (len(results.results), results.more) == (MAX_LIMIT, True)


def test_a_search_in_one_channel_finds_only_its_messages(
    history: History, index: SearchIndex
) -> None:
    here = keep(history, index, said(TEAM, "common word"))
    keep(history, index, said(DIRECT, "common word"))
    assert found(index, "common", TEAM) == [here.id]


def test_text_parts_and_tool_titles_are_indexed_not_thoughts_nor_system_codes(
    history: History, index: SearchIndex
) -> None:
    answer = said(
        TEAM,
        "",
        "agent",
        "alpha",
        parts=[
            Part(kind="thought", text="secretthought"),
            Part(kind="text", text="visible answer"),
            tool_part("Edit settings.py"),
        ],
    )
    keep(history, index, answer)
    joined = said(TEAM, "", "system", parts=[]).model_copy(update={"code": "agent-joined"})
    keep(history, index, joined)
    assert found(index, "secretthought") == []
    assert found(index, "visible") == [answer.id]
    assert found(index, "settings.py") == [answer.id]
    assert index.search("settings.py").results[0].snippet == "visible answer Edit settings.py"


def test_a_message_replaced_where_it_stands_replaces_its_words_and_keeps_its_place(
    history: History, index: SearchIndex
) -> None:
    old = keep(history, index, said(TEAM, "draft words"))
    newer = keep(history, index, said(TEAM, "later words"))
    keep(history, index, old.model_copy(update={"parts": [Part(kind="text", text="final words")]}))
    assert found(index, "draft") == []
    assert found(index, "final") == [old.id]
    assert found(index, "words") == [newer.id, old.id]
    keep(history, index, old.model_copy(update={"parts": []}))
    assert found(index, "words") == [newer.id]


def test_deleting_a_channel_removes_its_results(history: History, index: SearchIndex) -> None:
    keep(history, index, said(TEAM, "gone soon"))
    kept = keep(history, index, said(DIRECT, "gone never"))
    history.delete_channel(TEAM)
    index.delete_channel(TEAM)
    assert found(index, "gone") == [kept.id]


def test_hostile_queries_answer_and_punctuation_alone_finds_nothing(
    history: History, index: SearchIndex
) -> None:
    keep(history, index, said(TEAM, 'foo" OR bar( NEAR(x y)'))
    assert len(found(index, 'foo" OR bar(')) == 1
    assert len(found(index, "NEAR(")) == 1
    results = index.search("?!…")
    assert (results.results, results.more) == ([], False)


def test_without_fts5_search_says_it_is_not_available_and_messages_are_still_kept(
    history: History, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_fts5(conn: object, token: str) -> bool:
        raise store.Unavailable  # as `prepare` finds on a SQLite built without FTS5

    monkeypatch.setattr(store, "prepare", no_fts5)
    index = SearchIndex(history, {TEAM: "team"})
    try:
        message = keep(history, index, said(TEAM, "kept anyway"))
        assert history.last_messages(TEAM)[0] == [message]
        with pytest.raises(UserError, match=r"Search is not available.*FTS5"):
            index.search("kept")
        assert not index.indexing
    finally:
        index.close()
