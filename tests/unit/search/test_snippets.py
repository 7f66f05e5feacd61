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


# --- issue 29: a snippet reads as text, not as Markdown -----------------------------------------


def test_the_demo_answer_reads_as_text_without_its_markdown() -> None:
    shown, words = marked("## Demo answer\n\nYou asked:\n\n> Hi!\n", "asked")
    assert shown == "Demo answer · You asked: Hi!"
    assert words == ["asked"]


def test_emphasis_links_code_and_lists_lose_their_syntax_and_keep_their_words() -> None:
    text = (
        "# Plan\n\n**Bold** and _it_ and ~~old~~, see [the docs](https://x.example/d) "
        "and ![a chart](c.png).\n\n- run `npm test`\n- 1. nested\n\n"
        "```python\nprint('hi')\n```\n\nA \\*literal\\* star &amp; <b>tag</b>"
    )
    shown, _ = marked(text, "docs")
    assert shown == (
        "Plan · Bold and it and old, see the docs and a chart. run npm test · nested · "
        "print('hi') · A *literal* star & <b>tag</b>"
    )
    assert "https://x.example" not in shown  # a link shows its text, not its address


def test_highlights_land_on_the_words_of_the_text_shown() -> None:
    shown, ranges = snippet("> **Café** is `ready`\n\n## ready now", parse("ready "))
    assert shown == "Café is ready · ready now"
    assert [shown[a:b] for a, b in ranges] == ["ready", "ready"]
    shown, ranges = snippet("*Été* déjà", parse("ete "))
    assert [shown[a:b] for a, b in ranges] == ["Été"]


def test_a_table_reads_cell_by_cell() -> None:
    shown, _ = marked("| name | state |\n|---|---|\n| demo | running |\n", "demo")
    assert shown == "name · state · demo · running"


def test_a_match_far_into_a_huge_message_is_still_shown() -> None:
    text = "## Log\n\n" + "line of text.\n\n" * 10_000 + "the **needle** here\n\n" + "x.\n\n" * 100
    shown, words = marked(text, "needle")
    assert words == ["needle"]
    assert shown.startswith("…") and shown.endswith("…")
    assert "**" not in shown
