"""The person's query made into FTS5 syntax: words, phrases, prefixes; nothing of theirs is
read as FTS5's own syntax."""

from __future__ import annotations

import sqlite3

import pytest

from app.core.errors import UserError
from app.search.query import MAX_QUERY, Term, parse


def test_words_must_all_match_and_the_last_is_a_prefix_while_typed() -> None:
    query = parse("build fai")
    assert query.terms == (Term(("build",)), Term(("fai",), prefix=True))
    assert query.fts() == 'text : ("build" AND "fai"*)'


def test_a_space_after_the_last_word_ends_it() -> None:
    assert parse("build fail ").terms == (Term(("build",)), Term(("fail",)))


def test_a_star_makes_any_word_a_prefix() -> None:
    assert parse("conf* error ").terms == (Term(("conf",), prefix=True), Term(("error",)))


def test_quoted_words_are_a_phrase_and_an_unclosed_quote_is_one_being_typed() -> None:
    assert parse('"main loop" exit ').terms == (Term(("main", "loop")), Term(("exit",)))
    assert parse('"main lo').terms == (Term(("main", "lo"), prefix=True),)
    assert parse('"main loop"').terms == (Term(("main", "loop")),)


def test_words_joined_by_punctuation_are_a_phrase_as_the_index_cut_them() -> None:
    assert parse("main.py don't ").terms == (Term(("main", "py")), Term(("don", "t")))


def test_a_single_letter_is_never_a_prefix() -> None:
    assert parse("a").terms == (Term(("a",)),)
    assert parse("x* ").terms == (Term(("x",)),)


@pytest.mark.parametrize("text", ["", "   ", "!!! ?? --", '""', "*", "(:)"])
def test_a_query_without_a_word_is_empty(text: str) -> None:
    assert parse(text).empty


def test_the_same_word_twice_is_asked_once() -> None:
    assert parse("fix fix fix ").terms == (Term(("fix",)),)


def test_a_query_longer_than_the_limit_is_refused_with_a_sentence() -> None:
    with pytest.raises(UserError, match="at most 1000 characters"):
        parse("a" * (MAX_QUERY + 1))


HOSTILE = [
    'foo" OR bar(',
    "NEAR(a b, 2)",
    "a OR b NOT c AND d",
    "text: secret",
    "- minus ^caret +plus",
    '"unbalanced "" quotes"""',
    "{col} : x",
    "col:*",
    "\x00 null \u2028 separators",
    "emoji 🎉 and 中文 and עברית",
]


@pytest.mark.parametrize("text", HOSTILE)
def test_hostile_input_is_plain_words_that_fts5_accepts(text: str) -> None:
    conn = sqlite3.connect(":memory:")
    conn.execute(
        "CREATE VIRTUAL TABLE words USING fts5(text, channel,"
        " tokenize='unicode61 remove_diacritics 2')"
    )
    conn.execute("INSERT INTO words(text, channel) VALUES (?, 'c')", (text,))
    query = parse(text)
    assert not query.empty
    # The text matches itself, word for word: FTS5 read words, not operators.
    found = conn.execute("SELECT count(*) FROM words WHERE words MATCH ?", (query.fts(),))
    assert found.fetchone() == (1,)


def test_operators_typed_by_the_person_are_words_to_find() -> None:
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE VIRTUAL TABLE words USING fts5(text, channel)")
    conn.executemany("INSERT INTO words(text, channel) VALUES (?, 'c')", [("apples",), ("pears",)])
    query = parse("apples OR pears ")
    found = conn.execute("SELECT count(*) FROM words WHERE words MATCH ?", (query.fts(),))
    assert found.fetchone() == (0,)  # "or" is a word no message has, not a union
