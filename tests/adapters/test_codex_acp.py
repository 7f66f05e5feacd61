"""codex-acp (Codex, its Rust adapter) plays the scenario against the scripted OpenAI Responses
server: its own apply_patch (a freeform tool) adds notes.txt, its own exec_command runs sed on
other.txt, then "done".

Offline set-up: CODEX_HOME in tmp_path with a config.toml whose model provider "scripted" has
base_url at the scripted server (wire_api "responses", env_key OPENAI_API_KEY = a fake key);
model "gpt-5.5", one Codex ships metadata for (with another name Codex warns in the answer and
offers no apply_patch). Codex's sandbox needs bubblewrap, which this machine lacks (a sandboxed
command panics), so config.toml sets sandbox_mode "danger-full-access" with approval_policy
"untrusted": Codex then asks before the patch and before the command, and both come to Sidekicks
as permission requests, answered "allow" with AnswerPermission."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.adapters.conftest import (
    PROMPT,
    SED,
    AdapterDesk,
    OpenAdapter,
    assert_changes_revert_restore,
    assert_played,
)
from tests.adapters.openai_responses_dialect import Call, Custom, ResponsesDialect, Say
from tests.adapters.scripted_http import ScriptedServer

PATCH = "*** Begin Patch\n*** Add File: notes.txt\n+hello from codex\n*** End Patch\n"


def codex_config(url: str) -> str:
    return (
        'model = "gpt-5.5"\n'
        'model_provider = "scripted"\n'
        'approval_policy = "untrusted"\n'
        'sandbox_mode = "danger-full-access"\n'
        "[model_providers.scripted]\n"
        'name = "scripted"\n'
        f'base_url = "{url}/v1"\n'
        'env_key = "OPENAI_API_KEY"\n'
        'wire_api = "responses"\n'
    )


@pytest.fixture
def codex(
    adapter_desk: OpenAdapter, tmp_path: Path
) -> Iterator[tuple[AdapterDesk, ResponsesDialect]]:
    dialect = ResponsesDialect(
        [Custom("apply_patch", PATCH), Call("exec_command", {"cmd": SED}), Say("done")]
    )
    with ScriptedServer([dialect]) as server:
        codex_home = tmp_path / "home" / ".codex"
        codex_home.mkdir(parents=True)
        (codex_home / "config.toml").write_text(codex_config(server.url), encoding="utf-8")
        desk = adapter_desk(
            "codex",
            "codex-acp",
            env={"CODEX_HOME": str(codex_home), "OPENAI_API_KEY": "sk-scripted"},
        )
        yield desk, dialect
        assert all(r.path.startswith("/v1/") for r in server.requests), [
            r.path for r in server.requests
        ]


def test_codex_patches_runs_sed_and_its_answer_is_reverted_and_restored(
    codex: tuple[AdapterDesk, ResponsesDialect],
) -> None:
    desk, dialect = codex
    room = desk.channels.Direct("codex").id
    answer = desk.turn(room, PROMPT)
    assert_played(desk, answer)

    notes = str((desk.work / "notes.txt").resolve())
    patch, command = desk.tools(answer)
    assert (patch["kind"], patch["status"]) == ("edit", "completed")
    assert patch["diffs"][0]["newText"] == "hello from codex\n" and patch["diffs"][0]["newFile"]
    assert Path(patch["diffs"][0]["path"]).resolve() == Path(notes)
    assert (command["kind"], command["status"], command["title"]) == ("execute", "completed", SED)
    # Both came to Sidekicks as permission requests (approval_policy "untrusted"), allowed once.
    assert [a["toolCall"]["kind"] for a in desk.allowed] == ["edit", "execute"]
    assert desk.allowed[1]["toolCall"]["title"] == SED
    # The model saw the patch's and the command's outputs: the three steps of its loop.
    assert len(dialect.loop_requests) == 3
    outputs = [
        i["output"]
        for i in dialect.loop_requests[-1]["input"]
        if i.get("type") in ("custom_tool_call_output", "function_call_output")
    ]
    assert "Success" in outputs[0] and "exited with code 0" in outputs[1], outputs

    # Phase 2 (checkpoints): apply_patch writes the file in Codex's own process, not through
    # fs/write_text_file, so notes.txt's route is "agent". exec_command's tool call is announced
    # only as the command begins (sed is over by then); its permission request, which comes
    # before, is what lets the app snapshot before it: route "command".
    assert_changes_revert_restore(desk, room, answer, notes_route="agent")
