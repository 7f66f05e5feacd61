"""YAML parser errors in plain words (app/config/yaml_errors.py): each kind of ruamel error is a
sentence about the line it points at, at the parser's 1-based line and column, with ruamel's own
words kept as the problem's detail. English here (tests/conftest.py sets the language)."""

from __future__ import annotations

import pytest

from app.config import yaml_errors
from app.config.yamldoc import parse


def lines(*rows: str) -> str:
    return "\n".join(rows) + "\n"


KINDS = [
    pytest.param(
        lines("theme: dark", "- demo"),
        (2, 1),
        "This line starts a list item (`-`) where a key was expected",
        "expected <block end>, but found '-' (while parsing a block mapping)",
        id="a-list-item-where-a-key-was-expected",
    ),
    pytest.param(
        lines("agents:", "  - name: a", "  title: b"),
        (3, 3),
        "This line starts a key where the list above expects another item (`- `)",
        "but found '?'",
        id="a-key-where-a-list-item-was-expected",
    ),
    pytest.param(
        lines("agents:", "  - name: a", "   title: b"),
        (3, 4),
        "This line is not lined up with the lines above it",
        "but found '<block mapping start>'",
        id="a-key-indented-between-two-levels",
    ),
    pytest.param(
        lines("theme: 'dark' mode"),
        (1, 15),
        "Text follows the closing quote of this value",
        "but found '<scalar>'",
        id="text-after-a-closing-quote",
    ),
    pytest.param(
        lines("command: [npx, acp]]"),
        (1, 20),
        "This `]` closes a bracket that was never opened: remove it.",
        "but found ']'",
        id="a-stray-closing-bracket",
    ),
    pytest.param(
        lines("title: Demo: the agent"),
        (1, 12),
        "This `:` cannot start a value here: put the value in quotes if it holds `: `",
        "mapping values are not allowed here",
        id="a-colon-inside-a-plain-value",
    ),
    pytest.param(
        lines("theme: dark", "  language: en"),
        (2, 11),
        "or give the key a line of its own, lined up with the keys above",
        "mapping values are not allowed here",
        id="an-over-indented-key",
    ),
    pytest.param(
        lines("agents:", "\t- name: a"),
        (2, 1),
        "This line holds a tab: YAML takes only spaces for indentation",
        "found character '\\t' that cannot start any token",
        id="a-tab",
    ),
    pytest.param(
        lines("title: @demo"),
        (1, 8),
        "A value cannot start with `@` in YAML: put the value in quotes.",
        "found character '@' that cannot start any token",
        id="a-character-that-cannot-start-a-value",
    ),
    pytest.param(
        lines("title: `demo`"),
        (1, 8),
        "A value cannot start with `` ` `` in YAML",
        "found character '`'",
        id="a-backtick-that-cannot-start-a-value",
    ),
    pytest.param(
        lines('title: "Demo', "theme: dark"),
        (1, 8),
        'This quote is never closed: add the closing `"` at the end of the value.',
        "found unexpected end of stream (while scanning a quoted scalar)",
        id="an-unclosed-double-quote",
    ),
    pytest.param(
        lines("title: 'Demo", "theme: dark"),
        (1, 8),
        "add the closing `'`",
        "while scanning a quoted scalar",
        id="an-unclosed-single-quote",
    ),
    pytest.param(
        lines("theme: dark", "theme: light"),
        (2, 1),
        "`theme` is given twice in the same block (first on line 1): keep only one of them.",
        'found duplicate key "theme"',
        id="a-duplicate-key",
    ),
    pytest.param(
        lines("agents:", "  - name: a", "    env:", "      A: 1", "      B: 2", "      A: 3"),
        (6, 7),
        "`A` is given twice in the same block (first on line 4)",
        'found duplicate key "A"',
        id="a-duplicate-key-in-a-nested-block",
    ),
    pytest.param(
        lines("agents:", "  - name: a", "    builtin: demo", "    name: b"),
        (4, 5),
        "`name` is given twice in the same block (first on line 2)",
        'found duplicate key "name"',
        id="a-duplicate-key-in-a-list-item",
    ),
    pytest.param(
        lines('"theme": dark', "theme: light"),
        (2, 1),
        "`theme` is given twice in the same block: keep only one of them.",
        'found duplicate key "theme"',
        id="a-duplicate-key-first-written-in-quotes",
    ),
    pytest.param(
        lines("theme: dark", "language", "limits: {}"),
        (2, 1),
        "This line has no `:` after its key",
        "could not find expected ':' (while scanning a simple key)",
        id="a-key-without-its-colon",
    ),
    pytest.param(
        lines("command: [npx, -y", "theme: dark"),
        (2, 6),
        "Inside `[` … `]`, items are separated by commas",
        "expected ',' or ']', but got ':'",
        id="an-unclosed-flow-list-noticed-at-the-next-key",
    ),
    pytest.param(
        "env: {A: 1",
        (1, 11),
        "This `{` is never closed: add `}` after its last item.",
        "expected ',' or '}', but got '<stream end>'",
        id="an-unclosed-flow-mapping",
    ),
    pytest.param(
        lines("command: [", "- npx]"),
        (2, 1),
        "A list item (`-`) cannot start inside brackets",
        "expected the node content, but found '-'",
        id="a-block-list-item-inside-brackets",
    ),
    pytest.param(
        lines("theme: *dark"),
        (1, 8),
        "`*dark` refers to an anchor `&dark` that is not defined above it",
        "found undefined alias 'dark'",
        id="an-undefined-alias",
    ),
    pytest.param(
        lines("agents: & [1]"),
        (1, 10),
        "`&` and `*` need a name right after them",
        "while scanning an anchor",
        id="an-anchor-without-a-name",
    ),
    pytest.param(
        lines("theme: dark", "---", "theme: light"),
        (2, 1),
        "A second document starts here (`---`)",
        "but found another document",
        id="a-second-document",
    ),
    pytest.param(
        lines('title: "C:\\docs"'),
        (1, 12),
        "The backslash before this character starts an escape YAML does not know",
        "found unknown escape character 'd'",
        id="an-unknown-escape",
    ),
    pytest.param(
        lines("description: |x", "  text"),
        (1, 15),
        "`|` or `>` starts a block of text on the next lines",
        "while scanning a block scalar",
        id="a-block-scalar-with-a-bad-indicator",
    ),
    pytest.param(
        lines("title: - demo"),
        (1, 8),
        "A value cannot start with `?` or `- ` after a key on the same line",
        "sequence entries are not allowed here",
        id="a-list-item-after-a-key",
    ),
    pytest.param(
        lines("title: !<x"),
        (1, 11),
        "This tag (`!`) is not complete: put the value in quotes.",
        "while parsing a tag",
        id="an-incomplete-tag",
    ),
]


@pytest.mark.parametrize(("text", "where", "sentence", "detail"), KINDS)
def test_each_kind_of_yaml_error_is_a_sentence_at_its_line_with_the_parser_words_as_detail(
    text: str, where: tuple[int, int], sentence: str, detail: str
) -> None:
    problem = parse(text).problem
    assert problem is not None
    assert (problem.line, problem.column) == where, problem
    assert sentence in problem.message, problem
    assert detail in problem.detail, problem
    # The sentence is ours: none of ruamel's jargon reaches it.
    for jargon in ("<block end>", "scalar", "token", "while parsing", "while scanning"):
        assert jargon not in problem.message


def test_an_error_no_kind_matches_still_says_it_in_words_and_keeps_the_parser_words() -> None:
    problem = parse("%YAML 1.3\n---\ntheme: dark\n").problem
    assert problem is not None
    assert problem.message == "The file could not be read as YAML."
    assert "version" in problem.detail


def test_the_sentence_is_translated_when_the_problem_is_made(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(yaml_errors, "_", lambda message: f"[fr] {message}")
    problem = parse(lines("theme: dark", "- demo")).problem
    assert problem is not None
    assert problem.message.startswith("[fr] This line starts a list item (`-`)")
    assert problem.detail.startswith("expected <block end>, but found '-'")  # never translated
