"""claude-agent-acp (Claude Code through the Claude Agent SDK, its own bundled `claude` binary)
plays the scenario against the scripted Anthropic Messages server: its own Write creates
notes.txt, its own Bash runs sed on other.txt, then "done".

Offline set-up: ANTHROPIC_BASE_URL at the scripted server, a fake ANTHROPIC_API_KEY, HOME in
tmp_path. The session runs in the "default" mode (Claude Code's "Manual": it asks before every
edit and command) so that both tool calls come to Sidekicks as permission requests, answered
"allow" with AnswerPermission; the adapter's own default, "auto", would have the scripted server
answer Claude Code's permission classifier instead. IS_SANDBOX=1: this suite may run as root,
and Claude Code refuses to start as root unless told it is in a sandbox (bypass_root)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.adapters.anthropic_dialect import AnthropicDialect, Text, ToolUse
from tests.adapters.conftest import (
    PROMPT,
    SED,
    AdapterDesk,
    OpenAdapter,
    assert_changes_revert_restore,
    assert_played,
)
from tests.adapters.scripted_http import ScriptedServer


@pytest.fixture
def claude(
    adapter_desk: OpenAdapter, tmp_path: Path
) -> Iterator[tuple[AdapterDesk, AnthropicDialect]]:
    notes = tmp_path / "work" / "notes.txt"
    dialect = AnthropicDialect(
        [
            ToolUse("Write", {"file_path": str(notes), "content": "hello from claude\n"}),
            ToolUse("Bash", {"command": SED, "description": "Replace old with new in other.txt"}),
            Text("done"),
        ]
    )
    with ScriptedServer([dialect]) as server:
        desk = adapter_desk(
            "claude",
            "claude-agent-acp",
            mode="default",
            env={
                "ANTHROPIC_BASE_URL": server.url,
                "ANTHROPIC_API_KEY": "sk-ant-scripted",
                "IS_SANDBOX": "1",
                "DISABLE_AUTOUPDATER": "1",
                "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
                # After a turn Claude Code asks the model, with the loop's tools, what the person
                # might type next: the script would answer it as a new prompt.
                "CLAUDE_CODE_ENABLE_PROMPT_SUGGESTION": "false",
            },
        )
        yield desk, dialect
        assert all(r.path.startswith("/v1/messages") for r in server.requests), [
            r.path for r in server.requests
        ]


def test_claude_writes_runs_sed_and_its_answer_is_reverted_and_restored(
    claude: tuple[AdapterDesk, AnthropicDialect],
) -> None:
    desk, dialect = claude
    room = desk.channels.Direct("claude").id
    answer = desk.turn(room, PROMPT)
    assert_played(desk, answer)

    write, bash = desk.tools(answer)
    assert (write["kind"], write["status"], write["title"]) == (
        "edit",
        "completed",
        "Write notes.txt",
    )
    assert write["diffs"][0]["newText"] == "hello from claude\n" and write["diffs"][0]["newFile"]
    assert (bash["kind"], bash["status"], bash["title"]) == ("execute", "completed", SED)
    # Both came to Sidekicks as permission requests (Manual mode) and were allowed once.
    assert [(a["toolCall"]["kind"], a["toolCall"]["title"]) for a in desk.allowed] == [
        ("edit", "Write notes.txt"),
        ("execute", SED),
    ]
    # The model saw both tool results, neither an error: the three steps of its loop.
    assert len(dialect.loop_requests) == 3
    results = [
        block
        for message in dialect.loop_requests[-1]["messages"]
        if isinstance(message["content"], list)
        for block in message["content"]
        if block.get("type") == "tool_result"
    ]
    assert [r.get("is_error", False) for r in results] == [False, False], results
    # Claude Code kept its settings in the test's HOME, never in the real ~/.claude.
    assert (desk.home / ".claude").is_dir() or (desk.home / ".claude.json").is_file()

    # Phase 2 (checkpoints): Write writes the file in Claude Code's own process, not through
    # fs/write_text_file, so notes.txt's route is "agent"; Bash's sed is a command (its tool call
    # of kind execute is announced before its permission is asked).
    assert_changes_revert_restore(desk, room, answer, notes_route="agent")
