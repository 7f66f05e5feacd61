"""Whatever text it is given, the check returns entries whose positions lie inside the text.

These call `check_text`, which lets a bug raise: `validate_text` would hide it as a problem."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML

from app.config.validate import Validation, check_text

BASE_DIR = Path("/nonexistent-sidekicks-test-dir")

# A reused anchor (`&a` twice) is legal YAML; ruamel notes it with a Python warning.
pytestmark = pytest.mark.filterwarnings("ignore::ruamel.yaml.error.ReusedAnchorWarning")

FRAGMENTS = [
    "agents:",
    "- name: ",
    "  - name: ",
    "name: ",
    "builtin: demo",
    "command: ",
    "env:",
    "cwd: ",
    "mcpServers:",
    "limits:",
    "maxRunningAgents: ",
    "stopIdleAgentsAfter: ",
    "theme: ",
    "language: ",
    "demo",
    "Demo",
    "15m",
    "-1",
    "0",
    "4",
    ":",
    ": ",
    "[",
    "]",
    "{",
    "}",
    ",",
    "\t",
    "  ",
    "    ",
    '"',
    "'",
    "&a ",
    "*a",
    "*b",
    "---",
    "...",
    "!!python/object",
    "!!python/object/apply:os.system ",
    "!!int ",
    "!x ",
    "|",
    ">",
    "#",
    "?",
    "%YAML 1.2",
    "\n",
    "\n",
    "\n",
    "\r\n",
    "\ufeff",
    "é",
    "\x00",
]

yaml_looking_text = st.lists(st.sampled_from(FRAGMENTS), max_size=40).map("".join)

CONFIG_KEYS = [
    "agents",
    "name",
    "builtin",
    "command",
    "env",
    "cwd",
    "title",
    "icon",
    "mcpServers",
    "url",
    "limits",
    "maxRunningAgents",
    "stopIdleAgentsAfter",
    "theme",
    "language",
]

json_scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20)
    | st.sampled_from(["demo", "Demo", "15m", "5x", "dark", "", "sh", "/tmp"])
)
json_keys = st.sampled_from(CONFIG_KEYS) | st.text(max_size=10)
json_documents = st.recursive(
    json_scalars,
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(json_keys, children, max_size=5)
    ),
    max_leaves=30,
)
config_like_documents = st.dictionaries(json_keys, json_documents, max_size=5)


def _assert_inside(text: str, result: Validation) -> None:
    rows = text.split("\n")
    for entry in result.entries:
        assert 1 <= entry.line <= len(rows), (entry, text)
        assert 1 <= entry.column <= len(rows[entry.line - 1]) + 1, (entry, text)
        assert entry.message


def _assert_consistent(result: Validation) -> None:
    assert result.valid == (result.config is not None)
    if result.valid:
        assert result.problems == []
    else:
        assert result.problems, "an invalid configuration needs at least one problem"


def _yaml_block(document: Any) -> str:
    yaml = YAML(typ="rt")
    out = io.StringIO()
    yaml.dump(document, out)
    return out.getvalue()


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_arbitrary_text_never_raises_and_gives_positions_inside_it(text: str) -> None:
    result = check_text(text, BASE_DIR)

    _assert_inside(text, result)
    _assert_consistent(result)


@settings(max_examples=300, deadline=None)
@given(yaml_looking_text)
def test_yaml_looking_text_never_raises_and_gives_positions_inside_it(text: str) -> None:
    result = check_text(text, BASE_DIR)

    _assert_inside(text, result)
    _assert_consistent(result)


@settings(max_examples=300, deadline=None)
@given(json_documents | config_like_documents, st.sampled_from([None, 1, 2, 4]))
def test_any_json_document_never_raises_and_gives_positions_inside_it(
    document: Any, indent: int | None
) -> None:
    text = json.dumps(document, indent=indent, ensure_ascii=False)

    result = check_text(text, BASE_DIR)

    _assert_inside(text, result)
    _assert_consistent(result)


@settings(max_examples=300, deadline=None)
@given(json_documents | config_like_documents)
def test_any_json_document_written_as_block_yaml_never_raises_and_gives_positions_inside_it(
    document: Any,
) -> None:
    text = _yaml_block(document)

    result = check_text(text, BASE_DIR)

    _assert_inside(text, result)
    _assert_consistent(result)


def test_a_python_tag_is_read_as_data_and_never_run(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    text = f'agents: !!python/object/apply:os.system ["touch {marker}"]\n'

    result = check_text(text, tmp_path)

    assert not marker.exists()
    assert not result.valid
    _assert_inside(text, result)
