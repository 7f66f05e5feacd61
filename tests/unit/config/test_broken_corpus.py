"""A corpus of broken configurations, each with the exact 1-based position of its first problem.

Every position was checked by hand against the text: it points at the offending key or value (for
a YAML syntax error, where the parser found it; for a missing key, at the mapping that lacks it).
Messages are the English ones (tests/conftest.py sets the language).
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from app.config.defaults import default_config_text
from app.config.validate import Validation, check_text
from tests.agents import install_program
from tests.unit.config.hostile_texts import MIB, alias_bomb

NO_SUCH_PROGRAM = "sidekicks-test-no-such-program-3f9a"
# An absolute folder on this system (`/no/...` has no drive on Windows: it is not absolute there).
NO_SUCH_FOLDER = os.path.join(os.path.abspath(os.sep), "no", "such", "folder", "3f9a")


def lines(*rows: str) -> str:
    """A YAML text made of `rows`, ending with a newline as editors save it."""
    return "\n".join(rows) + "\n"


def validate(text: str, base_dir: Path) -> Validation:
    return check_text(text, base_dir)  # not validate_text: a crash must fail the test


def _inside(text: str, line: int, column: int) -> bool:
    rows = text.split("\n")
    return 1 <= line <= len(rows) and 1 <= column <= len(rows[line - 1]) + 1


BROKEN = [
    # --- YAML syntax ------------------------------------------------------------------------
    pytest.param(
        "agents: [a, b",
        1,
        14,
        "expected ',' or ']'",
        id="yaml-unclosed-flow-sequence-at-the-missing-bracket",
    ),
    pytest.param(
        "agents: {a: 1",
        1,
        14,
        "expected ',' or '}'",
        id="yaml-unclosed-flow-mapping-at-the-missing-brace",
    ),
    pytest.param(
        lines("agents: [a, b", "theme: dark"),
        2,
        6,
        "expected ',' or ']'",
        id="yaml-unclosed-flow-sequence-at-the-next-colon",
    ),
    pytest.param(
        lines("agents: [a, b]]"),
        1,
        15,
        "but found ']'",
        id="yaml-stray-closing-bracket",
    ),
    pytest.param(
        lines("agents:", "  - name: x", "   builtin: demo"),
        3,
        4,
        "expected <block end>",
        id="yaml-under-indented-key",
    ),
    pytest.param(
        lines("theme: dark", "  language: en"),
        2,
        11,
        "mapping values are not allowed here",
        id="yaml-over-indented-key",
    ),
    pytest.param(
        lines("agents:", "\t- name: x"),
        2,
        1,
        "found character '\\t'",
        id="yaml-tab-indentation",
    ),
    pytest.param(
        'theme: "dark',
        1,
        13,
        "while scanning a quoted scalar",
        id="yaml-unclosed-double-quote",
    ),
    pytest.param(
        "theme: 'dark",
        1,
        13,
        "while scanning a quoted scalar",
        id="yaml-unclosed-single-quote",
    ),
    pytest.param(
        lines("theme: dark", "theme: light"),
        2,
        1,
        'duplicate key "theme"',
        id="yaml-duplicate-root-key-at-the-second",
    ),
    pytest.param(
        lines("agents:", "  - name: a", "    builtin: demo", "    name: b"),
        4,
        5,
        'duplicate key "name"',
        id="yaml-duplicate-agent-key-at-the-second",
    ),
    pytest.param(
        lines("agents: *nope"),
        1,
        9,
        "undefined alias 'nope'",
        id="yaml-undefined-alias",
    ),
    pytest.param(
        lines("agents: & [1]"),
        1,
        10,
        "while scanning an anchor",
        id="yaml-anchor-without-a-name",
    ),
    pytest.param(
        lines("---", "theme: dark", "---", "theme: light"),
        3,
        1,
        "expected a single document",
        id="yaml-two-documents-at-the-second",
    ),
    # --- the root is not a mapping ---------------------------------------------------------
    pytest.param(lines("- a", "- b"), 1, 1, "must be a mapping", id="root-is-a-list"),
    pytest.param(
        lines("# a comment", "", "- a", "- b"),
        3,
        1,
        "must be a mapping",
        id="root-is-a-list-after-a-comment",
    ),
    pytest.param(lines("just a scalar"), 1, 1, "must be a mapping", id="root-is-a-scalar"),
    pytest.param("", 1, 1, "the configuration is empty", id="root-is-empty-text"),
    pytest.param(lines("", "   ", ""), 1, 1, "the configuration is empty", id="root-is-blank"),
    pytest.param(
        lines("# only a comment", "# and another"),
        1,
        1,
        "the configuration is empty",
        id="root-is-only-comments",
    ),
    # --- root keys -----------------------------------------------------------------------------
    pytest.param(lines("theme: blue"), 1, 8, "`theme` must be one of", id="theme-not-in-enum"),
    pytest.param(lines("theme: true"), 1, 8, "`theme` must be one of", id="theme-a-boolean"),
    pytest.param(
        lines("language: de"), 1, 11, "`language` must be one of", id="language-not-in-enum"
    ),
    pytest.param(lines("theme:"), 1, 1, "`theme` has no value", id="theme-empty-at-the-key"),
    pytest.param(lines("agents:"), 1, 1, "`agents` has no value", id="agents-empty-at-the-key"),
    # --- limits --------------------------------------------------------------------------------
    pytest.param(
        lines("limits:", "  maxRunningAgents: 0"),
        2,
        21,
        "`maxRunningAgents` must be at least 1",
        id="max-running-agents-zero",
    ),
    pytest.param(
        lines("limits:", "  maxRunningAgents: -2"),
        2,
        21,
        "`maxRunningAgents` must be at least 1",
        id="max-running-agents-negative",
    ),
    pytest.param(
        lines("limits:", '  maxRunningAgents: "4"'),
        2,
        21,
        "`maxRunningAgents` must be a whole number",
        id="max-running-agents-a-string",
    ),
    pytest.param(
        lines("limits:", "  maxRunningAgents: 2.5"),
        2,
        21,
        "`maxRunningAgents` must be a whole number",
        id="max-running-agents-a-float",
    ),
    pytest.param(
        lines("limits:", "  maxRunningAgents:"),
        2,
        3,
        "`maxRunningAgents` has no value",
        id="max-running-agents-empty-at-the-key",
    ),
    pytest.param(
        lines("limits:", "  stopIdleAgentsAfter: 5x"),
        2,
        24,
        "`stopIdleAgentsAfter` must be a duration like 90s",
        id="stop-idle-unknown-unit",
    ),
    pytest.param(
        lines("limits:", "  stopIdleAgentsAfter: -1"),
        2,
        24,
        "`stopIdleAgentsAfter` must not be negative",
        id="stop-idle-negative-number",
    ),
    pytest.param(
        lines("limits:", '  stopIdleAgentsAfter: "-1"'),
        2,
        24,
        "`stopIdleAgentsAfter` must be a duration like 90s",
        id="stop-idle-negative-text",
    ),
    pytest.param(
        lines("limits:", "  stopIdleAgentsAfter: 1.5h"),
        2,
        24,
        "`stopIdleAgentsAfter` must be a duration like 90s",
        id="stop-idle-fractional-hours",
    ),
    pytest.param(
        lines("limits:", '  stopIdleAgentsAfter: ""'),
        2,
        24,
        "`stopIdleAgentsAfter` must be a duration like 90s",
        id="stop-idle-empty-text",
    ),
    pytest.param(
        lines("limits:", "  stopIdleAgentsAfter: 1h30x"),
        2,
        24,
        "`stopIdleAgentsAfter` must be a duration like 90s",
        id="stop-idle-trailing-garbage",
    ),
    pytest.param(
        lines("limits:", "  stopIdleAgentsAfter: true"),
        2,
        24,
        "`stopIdleAgentsAfter` must be a duration like 90s",
        id="stop-idle-a-boolean",
    ),
    pytest.param(lines("limits: 5"), 1, 9, "`limits` must be a mapping", id="limits-a-number"),
    pytest.param(lines("limits: [1, 2]"), 1, 9, "`limits` must be a mapping", id="limits-a-list"),
    # --- agents --------------------------------------------------------------------------------
    pytest.param(lines("agents: demo"), 1, 9, "`agents` must be a list", id="agents-a-string"),
    pytest.param(lines("agents: {a: 1}"), 1, 9, "`agents` must be a list", id="agents-a-mapping"),
    pytest.param(lines("agents:", "  - demo"), 2, 5, "must be a mapping", id="agent-a-string"),
    pytest.param(
        lines("agents:", "  - builtin: demo"),
        2,
        5,
        "`name` is missing",
        id="agent-without-name-at-the-agent",
    ),
    pytest.param(
        lines("agents:", "  - name: Demo", "    builtin: demo"),
        2,
        11,
        "`Demo` is not a valid agent name",
        id="name-with-uppercase",
    ),
    pytest.param(
        lines("agents:", "  - name: my agent", "    builtin: demo"),
        2,
        11,
        "`my agent` is not a valid agent name",
        id="name-with-a-space",
    ),
    pytest.param(
        lines("agents:", "  - name: -demo", "    builtin: demo"),
        2,
        11,
        "`-demo` is not a valid agent name",
        id="name-with-a-leading-dash",
    ),
    pytest.param(
        lines("agents:", "  - name: " + "a" * 41, "    builtin: demo"),
        2,
        11,
        "`name` is too long (at most 40 characters)",
        id="name-of-41-characters",
    ),
    pytest.param(
        lines("agents:", "  - name: 123", "    builtin: demo"),
        2,
        11,
        "`name` must be text",
        id="name-a-number",
    ),
    pytest.param(
        lines("agents: [{name: A, builtin: demo}]"),
        1,
        17,
        "`A` is not a valid agent name",
        id="name-invalid-in-flow-style",
    ),
    pytest.param(
        lines("agents:", "  - name: a", "    command: [ls]", "    builtin: demo"),
        4,
        5,
        "either `command` or `builtin`, not both",
        id="command-and-builtin-at-builtin",
    ),
    pytest.param(
        lines("agents:", "  - name: a", "    title: A"),
        2,
        5,
        "needs `command` (the program to run) or `builtin`",
        id="neither-command-nor-builtin-at-the-agent",
    ),
    pytest.param(
        lines("agents:", "  - name: a", "    builtin: other"),
        3,
        14,
        "`builtin` must be one of: `demo`",
        id="builtin-unknown",
    ),
    pytest.param(
        lines("agents:", "  - name: a", "    command: []"),
        3,
        14,
        "`command` needs at least one item",
        id="command-an-empty-list",
    ),
    pytest.param(
        lines("agents:", "  - name: a", "    command: ls -la"),
        3,
        14,
        "`command` must be a list",
        id="command-a-string",
    ),
    pytest.param(
        lines("agents:", "  - name: a", '    command: [ls, ""]'),
        3,
        19,
        "`command` cannot be empty",
        id="command-with-an-empty-item-in-flow-style",
    ),
    pytest.param(
        lines("agents:", "  - name: a", "    command:", "      - ls", '      - ""'),
        5,
        9,
        "`command` cannot be empty",
        id="command-with-an-empty-item-in-block-style",
    ),
    pytest.param(
        lines("agents:", "  - name: a", "    command:", "    - ls", "    - 5"),
        5,
        7,
        "`command` must be text",
        id="command-with-a-number-item",
    ),
    pytest.param(
        lines("agents:", "  - name: a", "    builtin: demo", "    env: [A, B]"),
        4,
        10,
        "`env` must be a mapping",
        id="env-a-list",
    ),
    pytest.param(
        lines("agents:", "  - name: a", "    builtin: demo", "    env:", "      A: [1, 2]"),
        5,
        10,
        "`A` must be text",
        id="env-value-a-list",
    ),
    pytest.param(
        lines("agents:", "  - name: a", "    builtin: demo", "    title:"),
        4,
        5,
        "`title` has no value",
        id="title-empty-at-the-key",
    ),
    pytest.param(
        lines("agents:", "  - name: a", "    builtin: demo", "    cwd:"),
        4,
        5,
        "`cwd` has no value",
        id="cwd-empty-at-the-key",
    ),
    pytest.param(
        lines("agents:", "  - name: a", "    builtin: demo", "    title: 5"),
        4,
        12,
        "`title` must be text",
        id="title-a-number",
    ),
    pytest.param(
        lines("agents:", "  - name: a", "    builtin: demo", "    icon: [x]"),
        4,
        11,
        "`icon` must be text",
        id="icon-a-list",
    ),
    pytest.param(
        lines("agents:", "  - name: a", "    builtin: demo", "  - name: a", "    builtin: demo"),
        4,
        11,
        "an agent named `a` already exists",
        id="duplicate-name-at-the-second-name",
    ),
    pytest.param(
        lines("agents:", "  - name: a", "    builtin: demo", "  - {name: a, builtin: demo}"),
        4,
        12,
        "an agent named `a` already exists",
        id="duplicate-name-in-flow-style-at-the-second-name",
    ),
    # --- MCP servers ---------------------------------------------------------------------------
    pytest.param(
        lines("agents:", "  - name: a", "    builtin: demo", "    mcpServers: {}"),
        4,
        17,
        "`mcpServers` must be a list",
        id="mcp-servers-a-mapping",
    ),
    pytest.param(
        lines("agents:", "  - name: a", "    builtin: demo", "    mcpServers:", "      - name: fs"),
        5,
        9,
        "an MCP server needs `command` (stdio) or `url`",
        id="mcp-server-with-neither-command-nor-url-at-the-server",
    ),
    pytest.param(
        lines(
            "agents:", "  - name: a", "    builtin: demo", "    mcpServers:", "      - command: x"
        ),
        5,
        9,
        "`name` is missing",
        id="mcp-server-without-name-at-the-server",
    ),
    pytest.param(
        lines(
            "agents:",
            "  - name: a",
            "    builtin: demo",
            "    mcpServers:",
            "      - name: fs",
            "        url: http://localhost:1",
            "        type: ws",
        ),
        7,
        15,
        "`type` must be one of: `http`, `sse`",
        id="mcp-server-unknown-type",
    ),
    pytest.param(
        lines(
            "agents:",
            "  - name: a",
            "    builtin: demo",
            "    mcpServers:",
            "      - name: fs",
            "        command: x",
            "        args: x",
        ),
        7,
        15,
        "`args` must be a list",
        id="mcp-server-args-a-string",
    ),
]


@pytest.mark.parametrize(("text", "line", "column", "message"), BROKEN)
def test_a_broken_configuration_reports_its_first_problem_at_the_offending_spot(
    text: str, line: int, column: int, message: str, tmp_path: Path
) -> None:
    result = validate(text, tmp_path)

    assert not result.valid
    assert result.config is None
    assert result.problems, result.entries
    first = result.problems[0]
    assert (first.line, first.column) == (line, column), first
    # A YAML syntax error says it in a sentence; the parser's own words are its detail.
    assert message in first.message or message in first.detail, first
    assert not first.warning
    for entry in result.entries:
        assert _inside(text, entry.line, entry.column), entry


def test_the_corpus_has_at_least_35_broken_configurations() -> None:
    assert len(BROKEN) >= 35
    assert len({case.id for case in BROKEN}) == len(BROKEN)


# Texts made to hurt: each is exactly one problem, found without expanding or stalling.
LONG = 1_000_000  # characters of one line: under the 1 MB limit with the rest of the text
BOMB = "aliases repeat too many values here: {alias} brings them past 10000, more than Sidekicks "
BOMB += "expands"
HOSTILE = [
    pytest.param(
        alias_bomb(levels=7),
        5,
        8,
        BOMB.format(alias="`*d`"),
        id="alias-bomb-of-7-levels-at-the-alias-that-passes-the-budget",
    ),
    pytest.param(
        alias_bomb(levels=12),
        5,
        8,
        BOMB.format(alias="`*d`"),
        id="alias-bomb-of-12-levels-stops-at-the-same-alias",
    ),
    pytest.param(
        lines(f"x: &x [{', '.join(['v'] * 999)}]", "agents: [" + ", ".join(["*x"] * 11) + "]"),
        2,
        50,  # the eleventh `*x`: 11 × 1000 values, where 10 × 1000 are still allowed
        BOMB.format(alias="`*x`"),
        id="alias-repeated-side-by-side-at-the-alias-that-passes-the-budget",
    ),
    pytest.param(
        lines("base: &base", "  name: demo", "  builtin: demo", "agents:")
        + "".join(f"  - <<: *base\n    name: a{i}\n" for i in range(4000)),
        4005,  # the 2001st merge: 2001 × 5 values
        9,
        BOMB.format(alias="`*base`"),
        id="merge-keys-count-as-aliases",
    ),
    pytest.param(
        lines("theme: dark", "x:", *["  - 1"] * 20_000, "agents: []"),
        19_998,  # 5 values before the list (the root, theme, dark, x, the list): item 19,996
        5,
        "too many values: this one passes 20000, the most Sidekicks reads in a configuration",
        id="too-many-values-at-the-value-that-passes-the-limit",
    ),
    pytest.param(
        "x: " + "[" * 500_000 + "]" * 500_000,
        1,
        53,  # the root is level 1, `x` and its list level 2: the 50th `[` is level 51
        "this value is nested more than 50 levels deep, more than Sidekicks reads",
        id="nested-too-deep-at-the-first-value-too-deep",
    ),
    pytest.param(
        "theme: dark\n# " + "x" * MIB + "\n",
        1,
        1,
        "the configuration is 1.1 MB; Sidekicks reads at most 1 MB",
        id="text-over-1-mb-at-the-start",
    ),
    pytest.param(
        "# " + "é" * 600_000 + "\n",
        1,
        1,
        "the configuration is 1.2 MB; Sidekicks reads at most 1 MB",
        id="text-over-1-mb-counted-in-utf8-bytes",
    ),
    pytest.param(
        lines("theme: dark", "# " + "x" * LONG, "theme: light"),
        3,
        1,
        "`theme` is given twice in the same block (first on line 1): keep only one of them.",
        id="huge-comment-line-then-a-problem-at-its-spot",
    ),
    pytest.param(
        lines("theme: dark  # " + "x" * LONG, "language: klingon"),
        2,
        11,
        "`language` must be one of: `system`, `en`, `fr`",
        id="huge-trailing-comment-then-a-problem-at-its-spot",
    ),
    pytest.param(
        lines("theme: dark", "agents: [" + " " * LONG + "1]]"),
        2,
        LONG + 12,  # the second `]`, after the spaces of the flow sequence
        "This `]` closes a bracket that was never opened: remove it.",
        id="huge-run-of-spaces-then-a-problem-at-its-spot",
    ),
    pytest.param(
        lines("theme: dark", "description: " + "x" * LONG, "language: klingon"),
        3,
        11,
        "`language` must be one of: `system`, `en`, `fr`",
        id="huge-value-line-then-a-problem-at-its-spot",
    ),
]


@pytest.mark.parametrize(("text", "line", "column", "message"), HOSTILE)
def test_a_hostile_configuration_is_one_problem_at_its_spot_with_its_exact_message(
    text: str, line: int, column: int, message: str, tmp_path: Path
) -> None:
    result = validate(text, tmp_path)

    assert result.config is None
    assert [(p.line, p.column, p.message) for p in result.problems][:1] == [(line, column, message)]
    for entry in result.entries:
        assert _inside(text, entry.line, entry.column), entry


WARNINGS = [
    pytest.param(
        lines("colour: blue", "agents: []"),
        1,
        1,
        "unknown key `colour`",
        id="unknown-root-key-at-the-key",
    ),
    pytest.param(
        lines("limits:", "  maxRunning: 3", "agents: []"),
        2,
        3,
        "unknown key `maxRunning`",
        id="unknown-limits-key-at-the-key",
    ),
    pytest.param(
        lines("agents:", "  - name: a", "    builtin: demo", "    colour: red"),
        4,
        5,
        "unknown key `colour`",
        id="unknown-agent-key-at-the-key",
    ),
    pytest.param(
        lines(
            "agents:",
            "  - name: a",
            "    builtin: demo",
            "    mcpServers:",
            "      - name: fs",
            "        command: x",
            "        colour: red",
        ),
        7,
        9,
        "unknown key `colour`",
        id="unknown-mcp-server-key-at-the-key",
    ),
    pytest.param(
        lines("agents:", "  - name: a", f"    command: [{NO_SUCH_PROGRAM}, --acp]"),
        3,
        15,
        f"`{NO_SUCH_PROGRAM}` was not found on PATH",
        id="command-not-on-path-in-flow-style-at-the-program",
    ),
    pytest.param(
        lines(
            "agents:", "  - name: a", "    command:", f"      - {NO_SUCH_PROGRAM}", "      - acp"
        ),
        4,
        9,
        f"`{NO_SUCH_PROGRAM}` was not found on PATH",
        id="command-not-on-path-in-block-style-at-the-program",
    ),
    pytest.param(
        lines("agents:", "  - name: a", "    command: [./no-such-script.sh]"),
        3,
        15,
        "`./no-such-script.sh` was not found",
        id="relative-command-missing-at-the-program",
    ),
    pytest.param(
        lines(
            "agents:", "  - name: a", "    command: [sh]", "    env:", "      PATH: /nonexistent"
        ),
        3,
        15,
        "`sh` was not found on PATH",
        id="command-not-on-the-agents-own-path",
    ),
    pytest.param(
        lines("agents:", "  - name: a", "    builtin: demo", f"    cwd: {NO_SUCH_FOLDER}"),
        4,
        10,
        f"the folder `{NO_SUCH_FOLDER}` does not exist",
        id="absolute-cwd-missing-at-the-value",
    ),
    pytest.param(
        lines("agents:", "  - name: a", "    builtin: demo", "    cwd: no-such-subfolder"),
        4,
        10,
        "no-such-subfolder` does not exist",
        id="relative-cwd-missing-at-the-value",
    ),
]


@pytest.mark.parametrize(("text", "line", "column", "message"), WARNINGS)
def test_a_working_configuration_still_warns_at_the_offending_spot(
    text: str, line: int, column: int, message: str, tmp_path: Path
) -> None:
    result = validate(text, tmp_path)

    assert result.valid, result.entries
    assert result.config is not None
    assert result.problems == []
    assert result.warnings, "expected a warning"
    first = result.warnings[0]
    assert (first.line, first.column) == (line, column), first
    assert message in first.message
    assert first.warning


def test_a_relative_cwd_is_looked_up_next_to_the_configuration_file(tmp_path: Path) -> None:
    text = lines("agents:", "  - name: a", "    builtin: demo", "    cwd: no-such-subfolder")

    result = validate(text, tmp_path)

    assert str(tmp_path / "no-such-subfolder") in result.warnings[0].message


def test_a_duplicate_name_ignoring_case_is_reported_at_the_second_agents_name(
    tmp_path: Path,
) -> None:
    text = lines(
        "agents:",
        "  - name: a",
        "    builtin: demo",
        "  - name: b",
        "    builtin: demo",
        "  - name: A",
        "    builtin: demo",
    )

    result = validate(text, tmp_path)

    assert not result.valid
    at_second = [p for p in result.problems if (p.line, p.column) == (6, 11)]
    assert any("an agent named `a` already exists" in p.message for p in at_second), at_second
    assert all(p.line == 6 for p in result.problems), result.problems


def test_a_duplicate_name_is_reported_once_per_repetition(tmp_path: Path) -> None:
    text = lines(
        "agents:",
        "  - name: a",
        "    builtin: demo",
        "  - name: a",
        "    builtin: demo",
        "  - name: a",
        "    builtin: demo",
    )

    result = validate(text, tmp_path)

    assert [(p.line, p.column) for p in result.problems] == [(4, 11), (6, 11)]


def test_an_mcp_server_with_both_command_and_url_is_a_problem(tmp_path: Path) -> None:
    # Its position is not pinned here: see the report (it points at the server, not at `url`).
    text = lines(
        "agents:",
        "  - name: a",
        "    builtin: demo",
        "    mcpServers:",
        "      - name: fs",
        "        command: x",
        "        url: http://localhost:1",
    )

    result = validate(text, tmp_path)

    assert not result.valid
    assert len(result.problems) == 1
    assert "an MCP server needs `command` (stdio) or `url`" in result.problems[0].message


def test_an_unknown_key_next_to_a_problem_leaves_the_configuration_invalid(
    tmp_path: Path,
) -> None:
    text = lines("colour: blue", "theme: blue")

    result = validate(text, tmp_path)

    assert not result.valid
    assert result.config is None
    assert [(e.line, e.column, e.warning) for e in result.entries] == [(1, 1, True), (2, 8, False)]


def test_a_command_found_on_path_gives_no_warning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    install_program(bin_dir, "fake-agent")
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}")
    text = lines("agents:", "  - name: a", "    command: [fake-agent, --acp]")

    result = validate(text, tmp_path)

    assert result.valid
    assert result.entries == []


def test_an_existing_relative_cwd_gives_no_warning(tmp_path: Path) -> None:
    (tmp_path / "work").mkdir()
    text = lines("agents:", "  - name: a", "    builtin: demo", "    cwd: work")

    result = validate(text, tmp_path)

    assert result.valid
    assert result.entries == []


def test_a_valid_configuration_gives_its_values(tmp_path: Path) -> None:
    text = lines(
        "theme: dark",
        "language: fr",
        "limits:",
        "  maxRunningAgents: 2",
        "  stopIdleAgentsAfter: 1h30m",
        "agents:",
        "  - name: demo",
        "    builtin: demo",
        "  - name: other_1",
        "    builtin: demo",
        "    env: {PORT: 8080, DEBUG: true}",
    )

    result = validate(text, tmp_path)

    assert result.entries == []
    assert result.config is not None
    assert result.config.theme == "dark"
    assert result.config.language == "fr"
    assert result.config.limits.max_running_agents == 2
    assert result.config.limits.stop_idle_agents_after == 5400
    assert [a.name for a in result.config.agents] == ["demo", "other_1"]
    assert result.config.agents[1].env == {"PORT": "8080", "DEBUG": "true"}


def test_the_configuration_written_on_first_start_is_valid_without_warnings(
    tmp_path: Path,
) -> None:
    result = validate(default_config_text(), tmp_path)

    assert result.valid
    assert result.entries == []


def test_every_agent_commented_out_on_first_start_is_valid_once_uncommented(
    tmp_path: Path,
) -> None:
    text = default_config_text()
    uncommented = re.sub(r"(?m)^  # (-|  )", r"  \1", text)
    assert uncommented.count("- name:") > 1  # the commented-out agents were found

    result = validate(uncommented, tmp_path)

    assert result.valid, result.problems
    # No placeholder key and no example folder that may not exist: nothing to warn about.
    assert result.entries == []
    assert "env:" not in uncommented and "cwd:" not in uncommented.replace("`cwd:`", "")
