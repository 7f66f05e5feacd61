"""Session presets in the YAML (issue 14): per agent `mode: ID` and `options: {ID: VALUE}`,
VALUE a text or true/false; wrong types are problems at their YAML position."""

from __future__ import annotations

from typing import Any

import pytest
from jsonschema import Draft202012Validator

from app.config.model import Config, json_schema
from app.config.validate import check_text

AGENT = "agents:\n  - name: codex\n    command: [codex-acp]\n"
VALIDATOR = Draft202012Validator(json_schema())


def problems(text: str) -> list[tuple[int, int, str]]:
    return [(p.line, p.column, p.message) for p in check_text(text).problems]


def test_a_mode_and_text_and_boolean_options_are_read_into_the_agent() -> None:
    text = AGENT + "    mode: read-only\n    options:\n      model: gpt-5.2\n      web: true\n"

    result = check_text(text)

    assert result.valid, result.entries
    assert result.config is not None
    agent = result.config.agents[0]
    assert agent.mode == "read-only"
    assert agent.options == {"model": "gpt-5.2", "web": True}


def test_an_agent_without_presets_has_none() -> None:
    agent = Config.model_validate({"agents": [{"name": "a", "builtin": "demo"}]}).agents[0]

    assert (agent.mode, agent.options) == (None, {})


@pytest.mark.parametrize(
    ("lines", "position"),
    [
        ("    mode: 3\n", (4, 11)),
        ("    mode: ''\n", (4, 11)),
        ("    mode: [plan]\n", (4, 11)),
        ("    options: [model]\n", (4, 14)),
        ("    options:\n      effort: 2\n", (5, 15)),
        ("    options:\n      effort: [low]\n", (5, 15)),
        ("    options:\n      effort:\n", (5, 7)),
    ],
    ids=["number-mode", "empty-mode", "list-mode", "list-options", "number-value",
         "list-value", "no-value"],
)  # fmt: skip
def test_a_wrong_preset_is_a_problem_at_its_place(lines: str, position: tuple[int, int]) -> None:
    found = problems(AGENT + lines)

    assert found, "expected a problem"
    assert found[0][:2] == position, found


@pytest.mark.parametrize(
    ("preset", "valid"),
    [
        ({"mode": "plan"}, True),
        ({"options": {"model": "opus", "fast": False}}, True),
        ({"mode": ""}, False),
        ({"mode": 1}, False),
        ({"options": {"effort": 2}}, False),
        ({"options": {"effort": None}}, False),
        ({"options": ["model"]}, False),
    ],
)
def test_the_schema_and_the_model_agree_on_presets(preset: dict[str, Any], valid: bool) -> None:
    document = {"agents": [{"name": "a", "builtin": "demo", **preset}]}

    assert VALIDATOR.is_valid(document) is valid
    try:
        Config.model_validate(document)
    except ValueError:
        assert not valid
    else:
        assert valid


def test_a_wrong_option_value_says_what_it_may_be_once() -> None:
    found = problems(AGENT + "    options:\n      effort: 2\n")

    assert found == [(5, 15, "an option's value is a text, or true or false")]


def test_an_option_without_value_says_it_has_none() -> None:
    found = problems(AGENT + "    options:\n      effort:\n")

    assert found == [(5, 7, "`effort` has no value: give it one or remove the line")]
