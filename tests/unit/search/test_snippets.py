"""Snippets: plain text around the first match; highlights where the query's words are, with
the index's folding, in the page's string indices."""

from __future__ import annotations

from app.search.query import parse
from app.search.snippets import SNIPPET, snippet
from app.search.words import fold


def marked(text: str, query: str) -> tuple[str, list[str]]:
    shown, ranges = snippet(text, parse(query))
    return shown, [shown[a:b] for a, b in ranges]


def test_accents_and_case_fold_both_ways() -> None:
    assert fold("ÉTÉ Café") == "ete cafe"
    assert marked("Un Café et l'été", "cafe ETE ")[1] == ["Café", "été"]


def test_words_are_found_where_they_stand_whatever_their_accents_and_case() -> None:
    text = "Ça va, İstanbul, ÉTÉ, STRASSE, Ωμέγα"
    assert marked(text, "ca istanbul ete ωμεγα ")[1] == ["Ça", "İstanbul", "ÉTÉ", "Ωμέγα"]


def test_a_prefix_highlights_the_whole_word_it_begins() -> None:
    assert marked("the configuration was confirmed", "conf")[1] == ["configuration", "confirmed"]


def test_only_whole_words_are_highlighted() -> None:
    assert marked("fixing the fix in prefix", "fix ")[1] == ["fix"]


def test_a_short_text_is_its_own_snippet_on_one_line() -> None:
    assert marked("first line\n\n  second   line", "second ")[0] == "first line second line"


def test_a_long_text_shows_the_first_match_in_context_with_ellipses() -> None:
    text = " ".join(f"word{index}" for index in range(200)) + " needle " + "tail " * 100
    shown, found = marked(text, "needle ")
    assert shown.startswith("…") and shown.endswith("…")
    assert found == ["needle"]
    assert shown.index("needle") < 60
    assert len(shown) <= SNIPPET + 2


def test_highlights_count_code_points_as_the_page_does() -> None:
    found = marked("🎉🎉 party 🎉 time", "party time ")[1]
    assert found == ["party", "time"]
    assert snippet("🎉🎉 party", parse("party "))[1] == [[3, 8]]


def test_markers_an_agent_writes_are_text_not_highlights() -> None:
    shown, found = marked("<b>bold</b> [match] \x02match\x03", "match ")
    assert shown == "<b>bold</b> [match] \x02match\x03"
    assert found == ["match", "match"]
