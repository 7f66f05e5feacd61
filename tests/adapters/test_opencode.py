"""opencode 1.18.33 in ACP mode (`opencode acp`) against a scripted OpenAI-compatible Chat
Completions server on 127.0.0.1 (tests/adapters/chat_completions_dialect.py): one answer writes
notes.txt with opencode's own `write` tool and edits other.txt with its own `bash` tool
(`sed -i`), then says "done".

Permissions: the configuration makes `edit` and `bash` ask (opencode's default allows them); the
requests are answered "allow" through the app (ChannelService.AnswerPermission, the fixture).
Asking matters for the write's route: when an edit is allowed, opencode's ACP agent sends the
proposed file through fs/write_text_file (writeProposedEdit, not awaited) before its tool writes
the same bytes itself, so the app sees an `fs` write; with `edit: allow` nothing would go
through the client and only the folder's difference (route `agent`) would show it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.adapters.chat_completions_dialect import ChatScript, ToolCall
from tests.adapters.conftest import (
    PROMPT,
    SED,
    TURN_TIMEOUT,
    AdapterDesk,
    OpenAdapter,
    allow_option,
    snapshot,
)
from tests.adapters.scripted_http import ScriptedServer
from tests.waiting import wait_for

PROVIDER, MODEL = "scripted", "scripted-model"
AGENT = "opencode"


def config(base_url: str) -> str:
    """opencode's configuration (OPENCODE_CONFIG_CONTENT): one OpenAI-compatible provider whose
    baseURL is the scripted server; edits and commands ask (answered through the app); no
    sharing, updates, LSP, formatters nor snapshots of its own."""
    return json.dumps(
        {
            "$schema": "https://opencode.ai/config.json",
            "model": f"{PROVIDER}/{MODEL}",
            "small_model": f"{PROVIDER}/{MODEL}",
            "provider": {
                PROVIDER: {
                    "npm": "@ai-sdk/openai-compatible",
                    "name": "Scripted",
                    "options": {"baseURL": f"{base_url}/v1", "apiKey": "fake-opencode-key"},
                    "models": {MODEL: {"name": "Scripted model", "tool_call": True}},
                }
            },
            "enabled_providers": [PROVIDER],
            "permission": {"edit": "ask", "bash": "ask"},
            "autoupdate": False,
            "share": "disabled",
            "snapshot": False,
            "lsp": False,
            "formatter": False,
        }
    )


def open_opencode(adapter_desk: OpenAdapter, server: ScriptedServer) -> AdapterDesk:
    return adapter_desk(
        AGENT,
        "opencode",
        args=["acp"],
        env={
            "OPENCODE_CONFIG_CONTENT": config(server.url),
            # Nothing from work/ nor from models.dev, npm, LSP or plugin downloads.
            "OPENCODE_DISABLE_PROJECT_CONFIG": "1",
            "OPENCODE_DISABLE_MODELS_FETCH": "1",
            "OPENCODE_DISABLE_AUTOUPDATE": "1",
            "OPENCODE_DISABLE_DEFAULT_PLUGINS": "1",
            "OPENCODE_DISABLE_LSP_DOWNLOAD": "1",
            "OPENCODE_DISABLE_SHARE": "1",
            "OPENCODE_DISABLE_CLAUDE_CODE": "1",
        },
    )


def turn(desk: AdapterDesk, room: str, server: ScriptedServer) -> dict[str, Any]:
    try:
        return desk.turn(room, PROMPT)
    except AssertionError as error:
        seen = [(r.method, r.path) for r in server.requests]
        raise AssertionError(f"{error}\nrequests: {seen}\nlog: {desk.logs()}") from None


def turn_with_notices(
    desk: AdapterDesk, room: str, server: ScriptedServer
) -> tuple[dict[str, Any], list[str]]:
    """A turn whose answer may come with the app's notices (system messages with an error,
    which `desk.turn` takes for a failure): the answer, and the notices' texts. Permission
    requests are answered "allow" as in the fixture."""
    mark = desk.send(room, PROMPT)
    answered: set[str] = set()

    def finished() -> dict[str, Any] | None:
        for asked in desk.log.named("permission:requested", mark):
            if asked["channel"] == room and asked["id"] not in answered:
                answered.add(asked["id"])
                desk.allowed.append(asked)
                desk.channels.AnswerPermission(asked["id"], allow_option(asked))
        for p in desk.log.named("message:updated", mark):
            message = p["message"]
            if p["channel"] == room and message["role"] == "agent" and message["done"]:
                return message
        return None

    try:
        message = wait_for(finished, TURN_TIMEOUT, what="opencode's answer")
        desk.log.wait("turn:changed", lambda p: p["channel"] == room and not p["busy"], since=mark)
    except AssertionError as error:
        seen = [(r.method, r.path) for r in server.requests]
        raise AssertionError(f"{error}\nrequests: {seen}\nlog: {desk.logs()}") from None
    notices = [
        p["message"]["error"]
        for p in desk.log.named("message:updated", mark)
        if p["channel"] == room and p["message"]["role"] == "system" and p["message"]["error"]
    ]
    return desk.message(room, message["id"]), sorted(set(notices))


def script() -> ChatScript:
    return ChatScript(
        [
            ToolCall("write", {"filePath": "notes.txt", "content": "hello from opencode\n"}),
            ToolCall("bash", {"command": SED, "description": "Edit other.txt"}),
            "done",
        ],
        model=MODEL,
    )


def test_opencode_writes_a_file_and_runs_a_command(adapter_desk: OpenAdapter) -> None:
    model = script()
    with ScriptedServer([model]) as server:
        desk = open_opencode(adapter_desk, server)
        room = desk.channels.Direct(AGENT).id
        answer = turn(desk, room, server)
        notes = desk.work / "notes.txt"
        assert snapshot(desk.work) == {
            "notes.txt": "hello from opencode\n",
            "other.txt": "new line\n",
        }, desk.logs()
        assert "done" in desk.text(answer)
        kinds = [(t["kind"], t["status"]) for t in desk.tools(answer)]
        assert kinds == [("edit", "completed"), ("execute", "completed")], desk.tools(answer)
        asked = [(a["toolCall"]["kind"], a["toolCall"]["title"]) for a in desk.allowed]
        assert asked == [("edit", str(notes)), ("execute", SED)]
        # opencode runs its bash itself (Bun child process), not in a terminal of the app.
        assert all(t["terminals"] == [] for t in desk.tools(answer))
        # The model got both tool results (and nothing else asked it with tools).
        assert [m["content"] for m in model.turns[-1]["messages"] if m["role"] == "tool"] == [
            "Wrote file successfully.",
            "(no output)",
        ]
        assert len(model.turns) == 3


def test_opencode_answer_is_in_changes_reverted_and_restored(adapter_desk: OpenAdapter) -> None:
    with ScriptedServer([script()]) as server:
        desk = open_opencode(adapter_desk, server)
        room = desk.channels.Direct(AGENT).id
        answer = turn(desk, room, server)
        notes, other = desk.work / "notes.txt", desk.work / "other.txt"
        changes = desk.sk.api.ChangesService.Changes(room)
        by_name = {Path(c.path).name: c for c in changes}
        assert sorted(by_name) == ["notes.txt", "other.txt"] and len(changes) == 2, changes
        # notes.txt: route "fs" (opencode's writeProposedEdit on the allowed permission, see the
        # module's docstring), merged with the folder's difference into one record.
        assert (by_name["notes.txt"].status, by_name["notes.txt"].route) == ("added", "fs")
        assert (by_name["notes.txt"].additions, by_name["notes.txt"].deletions) == (1, 0)
        assert (by_name["other.txt"].status, by_name["other.txt"].route) == ("modified", "command")
        assert {(c.agent, c.message_id) for c in changes} == {(AGENT, answer["id"])}
        desk.sk.api.ChangesService.Revert(room, [c.id for c in changes])
        assert snapshot(desk.work) == {"other.txt": "old line\n"}

        # opencode writes notes.txt again. When it does so without reading it first, the app
        # tells the person the agent wrote over their revert (session_workspace.py's conflict
        # notice, a system message beside the answer, not a failure of the turn); when it reads
        # it first (it does, some runs: its file-time cache), there is nothing to tell.
        again, notices = turn_with_notices(desk, room, server)
        assert again["id"] != answer["id"]
        assert notices in (
            [],
            [f"@{AGENT} wrote {notes}, which you reverted since @{AGENT} last read it"],
        ), notices
        assert snapshot(desk.work) == {
            "notes.txt": "hello from opencode\n",
            "other.txt": "new line\n",
        }
        checkpoints = desk.sk.api.CheckpointService
        preview = checkpoints.RestorePreview(room, again["id"])
        # What Restore will do: remove notes.txt, put other.txt back.
        assert sorted((Path(f.path).name, f.status, f.skipped) for f in preview) == [
            ("notes.txt", "deleted", ""),
            ("other.txt", "modified", ""),
        ], preview
        checkpoints.Restore(room, again["id"])
        assert snapshot(desk.work) == {"other.txt": "old line\n"}
        assert not notes.exists() and other.read_text(encoding="utf-8") == "old line\n"
