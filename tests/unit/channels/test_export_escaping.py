"""Our own words in an exported Markdown document (app/channels/export/escaping.py): escaped
only where they would mean something, so they read the same rendered (checked here with a
CommonMark renderer) and raw (no stray backslash)."""

from __future__ import annotations

import html
import re

import pytest
from markdown_it import MarkdownIt

from app.channels.export.escaping import escape_heading, escape_inline, escape_paragraph

RENDER = MarkdownIt("commonmark").enable("strikethrough")


def rendered_text(markdown: str) -> str:
    """The document's text as a reader sees it: tags dropped, entities decoded."""
    return html.unescape(re.sub(r"<[^>]+>", "", RENDER.render(markdown))).strip()


def only_tags(markdown: str) -> list[str]:
    return re.findall(r"<(\w+)", RENDER.render(markdown))


@pytest.mark.parametrize(
    ("title", "raw"),
    [
        ("#Code Review!", "# #Code Review!"),
        ("Release #2", "# Release #2"),
        ("C# and F#", "# C# and F#"),
        ("snake_case names", "# snake_case names"),
        ("2 * 3 = 6", "# 2 * 3 = 6"),
        ("a < b > c", "# a < b > c"),
        ("Q&A", "# Q&A"),
        ("C:\\Users\\me", "# C:\\Users\\me"),
        ("Conversation with @alpha", "# Conversation with @alpha"),
    ],
)
def test_a_title_that_means_nothing_in_markdown_is_written_as_it_is(title: str, raw: str) -> None:
    assert f"# {escape_heading(title)}" == raw
    assert rendered_text(raw) == title
    assert only_tags(raw) == ["h1"]


@pytest.mark.parametrize(
    "title",
    [
        "Review #",
        "#",
        "##",
        "*bold* and _it_",
        "**strong**",
        "`code`",
        "[link](https://example.com)",
        "![image](x.png)",
        "<b>tag</b> <https://example.com>",
        "&amp; &#35; &copy;",
        "~~gone~~ and ~one~",
        "back\\slash \\*star\\*",
        "__init__ and _private",
    ],
)
def test_a_title_with_markup_reads_literally_when_rendered(title: str) -> None:
    heading = f"# {escape_heading(title)}"
    assert rendered_text(heading) == title
    assert only_tags(heading) == ["h1"]


@pytest.mark.parametrize(
    "text",
    [
        "# not a heading",
        "## two",
        "> not a quote",
        ">x",
        "- not a list",
        "+ plus",
        "* star",
        "1. not ordered",
        "12) nor this",
        "---",
        "- - -",
        "<div>not html</div>",
        "=== fine",
    ],
)
def test_a_paragraph_that_would_start_a_block_stays_a_paragraph(text: str) -> None:
    paragraph = escape_paragraph(text)
    assert rendered_text(paragraph) == text
    assert only_tags(paragraph) == ["p"]


def test_a_plain_sentence_keeps_its_characters_and_loses_its_line_breaks() -> None:
    assert escape_paragraph("Reviews: 1.5 per day, #2 of 3 -- ok!") == (
        "Reviews: 1.5 per day, #2 of 3 -- ok!"
    )
    assert escape_inline("two\n  lines\there") == "two lines here"


def test_escaped_words_inside_our_own_emphasis_stay_inside_it() -> None:
    for sentence in ["@a_b left", "a * b", "x *y", "ends with *", "_lead"]:
        line = f"*{escape_inline(sentence)}*"
        assert rendered_text(line) == sentence
        assert only_tags(line) == ["p", "em"]
