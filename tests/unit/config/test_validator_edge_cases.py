"""Inputs that once crashed the validator or pointed at the wrong place (found by the corpus)."""

from __future__ import annotations

import pytest

from app.config.validate import check_text


def first(text: str) -> tuple[int, int, str]:
    result = check_text(text)
    assert result.problems, result.entries
    p = result.problems[0]
    return p.line, p.column, p.message


@pytest.mark.parametrize(
    "text",
    [
        "agents: !x [1]\n",
        'agents: !!python/object/apply:os.system ["echo hi"]\n',
        "theme: !!int\n",
        "%YAML 1.3\n---\ntheme: dark\n",
        "theme: !!int dark\n",
    ],
    ids=["tagged-sequence", "python-tag", "int-tag-on-nothing", "yaml-1.3", "int-tag-on-text"],
)
def test_odd_yaml_is_a_problem_not_an_internal_error(text: str) -> None:
    line, _column, _message = first(text)  # `check_text` raises on an internal error
    assert 1 <= line <= len(text.split("\n"))


def test_escaped_surrogate_pairs_become_the_character_they_encode() -> None:
    result = check_text('{"\\ud83d\\ude00": 1, "agents": []}\n')
    assert result.valid
    assert [w.message for w in result.warnings] == ["unknown key `😀`: it is ignored"]


def test_a_root_value_after_a_comment_is_reported_on_its_own_line() -> None:
    assert first("# a comment\njust a scalar\n")[:2] == (2, 1)


def test_an_empty_environment_value_is_reported_at_its_key() -> None:
    text = "agents:\n  - name: a\n    builtin: demo\n    env:\n      A:\n"
    assert first(text) == (5, 7, "`A` has no value: give it one or remove the line")


def test_an_mcp_server_with_command_and_url_is_reported_at_the_url() -> None:
    text = (
        "agents:\n  - name: a\n    builtin: demo\n    mcpServers:\n"
        "      - name: m\n        command: x\n        url: http://localhost:1\n"
    )
    line, column, message = first(text)
    assert (line, column) == (7, 9)
    assert "one of the two" in message


def test_an_empty_name_says_it_is_empty() -> None:
    assert first('agents:\n  - name: ""\n    builtin: demo\n')[2] == "`name` cannot be empty"


def test_a_list_item_of_the_wrong_kind_names_the_item() -> None:
    assert first("agents:\n  - demo\n") == (
        2,
        5,
        "item 1 of `agents` must be a mapping (`key: value` lines)",
    )


def test_an_unclosed_quote_points_where_it_was_opened() -> None:
    assert first('theme: "dark\nlanguage: en\n')[:2] == (1, 8)
