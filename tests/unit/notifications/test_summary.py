"""A notification's body: the answer's first line, plain text."""

from __future__ import annotations

from app.attention.summary import answer_line, plain_line


def test_markdown_marks_are_removed_and_links_keep_their_text() -> None:
    assert plain_line("## **Done**: see [the diff](https://x.y) and `app.py`") == (
        "Done: see the diff and app.py"
    )


def test_ansi_sequences_and_control_characters_are_removed() -> None:
    assert plain_line("\x1b[31mred\x1b[0m \x07bell\x1b]0;title\x07") == "red bell"


def test_the_first_line_with_words_is_taken_after_blank_lines_and_fences() -> None:
    assert plain_line("\n  \n```bash\nls -la\n```\nthen") == "ls -la"


def test_angle_brackets_never_reach_the_notification_server() -> None:
    assert plain_line("<b>bold</b> <img src=x onerror=alert(1)>") == (
        "bbold/b img src=x onerror=alert(1)"
    )


def test_a_long_line_is_cut_with_an_ellipsis() -> None:
    line = plain_line("word " * 100)
    assert len(line) == 120 and line.endswith("…")


def test_list_items_and_quotes_lose_their_marks() -> None:
    assert plain_line("- [x] **first** item") == "first item"
    assert plain_line("> 1. quoted") == "quoted"


def test_an_answer_without_text_says_its_error() -> None:
    message = {"parts": [{"kind": "thought", "text": "hmm"}], "error": "Rate limited"}
    assert answer_line(message) == "Rate limited"


def test_a_link_after_an_unclosed_bracket_keeps_the_bracket_and_its_own_text() -> None:
    assert plain_line("[a [b](https://x.y) c") == "[a b c"


def test_a_megabyte_line_of_unclosed_brackets_is_summarized() -> None:
    """An agent's command output as JSON: escape sequences whose "[" never close. Each "[" used to
    rescan the rest of the line (100 KB took 2.8 s, 1 MB minutes, on the core loop); the suite's
    timeout is what fails this test if that comes back."""
    line = '{"output": "' + "\\u001b[32mok\\u001b[0m " * 50_000 + '"}'
    assert len(line) > 1_000_000
    summary = plain_line(line)
    assert summary.startswith('{"output": "\\u001b[32mok\\u001b[0m') and summary.endswith("…")
