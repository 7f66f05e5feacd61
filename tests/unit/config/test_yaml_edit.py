"""The round-trip editor: the app's edits keep the person's comments, order, quotes, indentation."""

from __future__ import annotations

import pytest
from ruamel.yaml import YAML

from app.config.defaults import default_config_text
from app.config.validate import validate_text
from app.config.yaml_edit import with_agent, with_values, without_agent
from app.core.errors import UserError
from tests.unit.config.hostile_texts import alias_bomb, long_comment_line

FILE = """\
# my settings
theme: system            # system | light | dark
language: 'en'
limits:
  maxRunningAgents: 4    # at least 1

agents:                  # in this order
  - name: demo           # the demo
    icon: "🧪"
    builtin: demo

  # my work agent
  - name: work
    command: [/bin/true, --flag]
    env: {KEY: "v"}

  # examples
  # - name: other
"""


def _data(text: str) -> object:
    return YAML(typ="safe").load(text)


def test_values_change_in_place_with_comments_and_quotes_kept() -> None:
    out = with_values(FILE, {"theme": "dark", "language": "fr", "limits.maxRunningAgents": 2})
    assert "theme: dark              # system | light | dark\n" in out
    assert "language: 'fr'\n" in out  # the quotes the person chose
    assert "  maxRunningAgents: 2    # at least 1\n" in out
    assert out.replace("dark  ", "system").replace("'fr'", "'en'").replace(": 2 ", ": 4 ") == FILE


def test_new_keys_go_before_the_agents_and_dotted_keys_into_their_section() -> None:
    out = with_values(FILE, {"notifications": False, "limits.stopIdleAgentsAfter": "2h"})
    lines = out.splitlines()
    assert lines.index("notifications: false") < lines.index(
        "agents:                  # in this order"
    )
    assert (
        lines[lines.index("  maxRunningAgents: 4    # at least 1") + 1]
        == "  stopIdleAgentsAfter: 2h"
    )
    assert "# my work agent" in out and "# examples" in out


def test_a_known_setting_goes_where_the_default_file_has_it() -> None:
    text = (
        "# top\ntheme: dark   # mine\n\n# the limits\nlimits:\n  maxRunningAgents: 2\nagents: []\n"
    )
    out = with_values(text, {"language": "fr", "notifications": False})
    assert out == (
        "# top\ntheme: dark   # mine\nlanguage: fr\nnotifications: false\n\n# the limits\n"
        "limits:\n  maxRunningAgents: 2\nagents: []\n"
    )
    assert with_values("agents: []\n", {"theme": "dark"}) == "theme: dark\nagents: []\n"
    assert with_values("limits: {}\n", {"theme": "dark"}) == "theme: dark\nlimits: {}\n"


def test_a_missing_section_is_created() -> None:
    out = with_values("theme: light\n", {"limits.maxRunningAgents": 3})
    assert out == "theme: light\nlimits:\n  maxRunningAgents: 3\n"
    assert with_values("# only a comment\n", {"theme": "dark"}).endswith("theme: dark\n")


def test_a_value_where_a_section_is_expected_is_refused() -> None:
    with pytest.raises(UserError, match="`limits` is not a section"):
        with_values("limits: 4\n", {"limits.maxRunningAgents": 3})


@pytest.mark.parametrize("text", ["- a\n- b\n", "just text\n", "[1, 2]\n"])
def test_a_text_that_is_not_a_mapping_is_refused(text: str) -> None:
    with pytest.raises(UserError, match="not a mapping"):
        with_values(text, {"theme": "dark"})
    with pytest.raises(UserError, match="not a mapping"):
        with_agent(text, {"name": "x", "builtin": "demo"})


def test_broken_yaml_is_refused_with_a_sentence() -> None:
    with pytest.raises(UserError, match="not valid YAML"):
        with_values("theme: [dark\n", {"theme": "dark"})


def test_hostile_texts_are_refused_in_a_sentence() -> None:
    with pytest.raises(UserError, match="too large or nested too deep"):
        with_values(alias_bomb(9), {"theme": "dark"})
    with pytest.raises(UserError, match="too large or nested too deep"):
        with_values("a: " + "[" * 200 + "]" * 200 + "\n", {"theme": "dark"})
    with pytest.raises(UserError, match="not valid YAML"):
        with_values("theme: dark\ntheme: light\n", {"theme": "dark"})  # a key twice
    long = long_comment_line(200_000)
    assert with_values(long, {"theme": "light"}) == long.replace("theme: dark", "theme: light")


def test_an_emoji_icon_reads_back_as_written() -> None:
    out = with_agent("agents: []\n", {"name": "a", "icon": "✳️", "builtin": "demo"})
    assert _data(out) == {"agents": [{"name": "a", "icon": "✳️", "builtin": "demo"}]}


def test_an_agent_is_appended_in_block_style_with_the_files_indentation() -> None:
    out = with_agent(FILE, {"name": "claude", "command": ["npx", "-y", "@scope/pkg"], "cwd": "/w"})
    new = "  - name: claude\n    command: [npx, -y, '@scope/pkg']\n    cwd: /w\n"
    at = FILE.index("\n  # examples")
    assert out == FILE[:at] + new + FILE[at:]  # right after the last agent
    assert _data(out)["agents"][-1] == {
        "name": "claude",
        "command": ["npx", "-y", "@scope/pkg"],
        "cwd": "/w",
    }  # type: ignore[index]


def test_an_agent_follows_a_file_without_sequence_offset() -> None:
    text = "agents:\n- name: a\n  builtin: demo\n"
    out = with_agent(text, {"name": "b", "builtin": "demo"})
    assert out == text + "- name: b\n  builtin: demo\n"


def test_the_agents_list_is_created_when_absent_or_empty() -> None:
    assert with_agent("theme: dark  # mine\n", {"name": "a", "builtin": "demo"}) == (
        "theme: dark  # mine\nagents:\n  - name: a\n    builtin: demo\n"
    )
    out = with_agent("agents: []\n", {"name": "a", "builtin": "demo"})
    assert _data(out) == {"agents": [{"name": "a", "builtin": "demo"}]}
    assert "- name: a\n" in out


def test_agents_that_is_not_a_list_is_refused() -> None:
    with pytest.raises(UserError, match="`agents` is not a list"):
        with_agent("agents: {a: 1}\n", {"name": "a"})


def test_removing_an_agent_takes_its_lines_and_own_comment_and_keeps_the_rest() -> None:
    out = without_agent(FILE, "work")
    assert "work" not in out and "# my work agent" not in out and "KEY" not in out
    assert "# examples\n  # - name: other\n" in out  # the heading of what follows stays
    assert "  - name: demo           # the demo\n" in out
    first = without_agent(FILE, "demo")
    assert "demo" not in first and "# my work agent\n  - name: work\n" in first
    assert "agents:                  # in this order\n" in first
    assert [a["name"] for a in _data(first)["agents"]] == ["work"]  # type: ignore[index]


def test_removing_the_last_agent_leaves_an_empty_list() -> None:
    out = without_agent("agents:\n  - name: a\n    builtin: demo\n", "a")
    assert _data(out) == {"agents": []}


def test_removing_an_unknown_agent_is_refused() -> None:
    with pytest.raises(UserError, match="no agent is named nobody"):
        without_agent(FILE, "nobody")


def test_the_default_file_round_trips_and_stays_valid() -> None:
    text = default_config_text()
    assert with_values(text, {}) == text
    edited = with_values(text, {"theme": "dark", "limits.stopIdleAgentsAfter": "90s"})
    added = with_agent(edited, {"name": "extra", "title": "Extra", "icon": "✳️", "builtin": "demo"})
    validation = validate_text(added)
    assert validation.valid, validation.problems
    assert without_agent(added, "extra").rstrip("\n") == edited.rstrip("\n")
