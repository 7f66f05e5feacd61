"""gemini-cli 0.61.0 in ACP mode (`gemini --acp`) against a scripted Gemini API on 127.0.0.1
(tests/adapters/gemini_dialect.py): one answer asks for the CLI's own write_file (creating
notes.txt) and run_shell_command (`sed -i` on other.txt), then says "done".

What gemini-cli cannot do here, asserted as such: create a file with write_file (or replace)
through an ACP client that offers fs/read_text_file. Its AcpFileSystemService reads the file
first through the client; the client answers a missing file with a JSON-RPC error (-32002), which
the ACP SDK of gemini-cli hands on as a plain object, not an Error: `normalizeFileSystemError`
tests `String(err)` ("[object Object]") for "not found" and never sees it, so the error keeps no
ENOENT code and the tool fails ("Error checking existing file: … does not exist"; replace says
"[object Object]"). Any client that reports a missing file as an error gets this, not only
Sidekicks (upstream: google-gemini/gemini-cli#9280, #26448). Overwriting an existing file works
(test_gemini_write_file_overwrites_an_existing_file_through_the_app).

gemini-cli announces a command it asks about only in its permission request: the app takes the
command's first checkpoint then (test_gemini_shell_change_is_a_command: route `command`).

Permissions: gemini's default approval mode asks before run_shell_command and write_file; the
requests are answered "allow" through the app (ChannelService.AnswerPermission, the fixture)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from tests.adapters.conftest import (
    PROMPT,
    SED,
    AdapterDesk,
    OpenAdapter,
    snapshot,
)
from tests.adapters.gemini_dialect import Call, GeminiScript
from tests.adapters.scripted_http import ScriptedServer

MODEL = "gemini-2.5-flash"
AGENT = "gemini"
WRITE = Call("write_file", {"file_path": "notes.txt", "content": "hello from gemini\n"})
SED_CALL = Call("run_shell_command", {"command": SED})


def settings(home: Path) -> None:
    """~/.gemini/settings.json (GEMINI_CLI_HOME is the test's home): an API key sign-in, and no
    telemetry, update check, IDE, sandbox, folder trust, agents, skills nor hooks to wait for."""
    folder = home / ".gemini"
    folder.mkdir(parents=True, exist_ok=True)
    data = {
        "general": {
            "enableAutoUpdate": False,
            "enableAutoUpdateNotification": False,
            "checkpointing": {"enabled": False},
        },
        "privacy": {"usageStatisticsEnabled": False},
        "telemetry": {"enabled": False},
        "ide": {"enabled": False},
        "model": {"name": MODEL, "skipNextSpeakerCheck": True, "disableLoopDetection": True},
        "tools": {"sandbox": False, "useRipgrep": False},
        "security": {"auth": {"selectedType": "gemini-api-key"}, "folderTrust": {"enabled": False}},
        "experimental": {"enableAgents": False},
        "skills": {"enabled": False},
        "hooksConfig": {"enabled": False},
        "advanced": {"autoConfigureMemory": False},
    }
    (folder / "settings.json").write_text(json.dumps(data, indent=2), encoding="utf-8")


def open_gemini(adapter_desk: OpenAdapter, home: Path, server: ScriptedServer) -> AdapterDesk:
    settings(home)
    return adapter_desk(
        AGENT,
        "gemini",
        args=["--acp"],
        env={
            "GEMINI_CLI_HOME": str(home),
            "GEMINI_API_KEY": "fake-gemini-key",
            "GOOGLE_GEMINI_BASE_URL": server.url,  # generativelanguage's /v1beta/models/…
            "GEMINI_CLI_NO_RELAUNCH": "true",  # no second node process with a bigger heap
            "GEMINI_MODEL": MODEL,
            "NO_COLOR": "1",
        },
    )


def turn(desk: AdapterDesk, room: str, server: ScriptedServer) -> dict[str, Any]:
    try:
        return desk.turn(room, PROMPT)
    except AssertionError as error:
        seen = [(r.method, r.path) for r in server.requests]
        raise AssertionError(f"{error}\nrequests: {seen}\nlog: {desk.logs()}") from None


def tool(message: Mapping[str, Any], title_part: str) -> dict[str, Any]:
    found = [t for t in AdapterDesk.tools(message) if title_part in t["title"]]
    assert len(found) == 1, AdapterDesk.tools(message)
    return found[0]


def test_gemini_runs_its_shell_but_cannot_create_a_file_through_the_client(
    adapter_desk: OpenAdapter, tmp_path: Path
) -> None:
    script = GeminiScript([WRITE, SED_CALL, "done"])
    with ScriptedServer([script]) as server:
        desk = open_gemini(adapter_desk, tmp_path / "home", server)
        room = desk.channels.Direct(AGENT).id
        answer = turn(desk, room, server)
        notes = desk.work / "notes.txt"

        # write_file asked the app for notes.txt (fs/read_text_file), got "does not exist" and
        # failed instead of creating it (see the module's docstring): no request to write it.
        written = tool(answer, "notes.txt")
        assert written["kind"] == "edit" and written["status"] == "failed", written
        assert written["output"] == f"Error checking existing file: {notes} does not exist"
        shell = tool(answer, "sed -i")
        assert shell["kind"] == "execute" and shell["status"] == "completed", shell
        asked = [a["toolCall"]["title"] for a in desk.allowed]
        assert asked == [SED], asked
        # gemini runs its shell itself (node child process), not in a terminal of the app.
        assert shell["terminals"] == []
        assert snapshot(desk.work) == {"other.txt": "new line\n"}, desk.logs()
        assert "done" in desk.text(answer)
        # The model saw both results: the failed write, then the command's.
        results = [
            part["functionResponse"]
            for content in script.turns[-1]["contents"]
            for part in content["parts"]
            if "functionResponse" in part
        ]
        assert [r["name"] for r in results] == ["write_file", "run_shell_command"]
        assert "does not exist" in results[0]["response"]["error"]


def test_gemini_answer_is_in_changes_reverted_and_restored(
    adapter_desk: OpenAdapter, tmp_path: Path
) -> None:
    """Issue 25's "done when" with gemini-cli: one answer writes a file (write_file; notes.txt
    exists, since gemini cannot create one through an ACP client: the module's docstring) and
    runs a command that edits another; Changes lists both, Revert puts both back; the same
    message again, then Restore undoes that answer."""
    script = GeminiScript([WRITE, SED_CALL, "done"])
    with ScriptedServer([script]) as server:
        desk = open_gemini(adapter_desk, tmp_path / "home", server)
        notes = desk.work / "notes.txt"
        notes.write_text("old notes\n", encoding="utf-8", newline="\n")
        room = desk.channels.Direct(AGENT).id
        answer = turn(desk, room, server)
        assert snapshot(desk.work) == {
            "notes.txt": "hello from gemini\n",
            "other.txt": "new line\n",
        }
        changes = desk.sk.api.ChangesService.Changes(room)
        assert sorted((Path(c.path).name, c.status, c.route) for c in changes) == [
            ("notes.txt", "modified", "fs"),  # write_file goes through fs/write_text_file
            ("other.txt", "modified", "command"),  # run_shell_command, gemini's own shell
        ]
        assert {(c.agent, c.message_id) for c in changes} == {(AGENT, answer["id"])}
        desk.sk.api.ChangesService.Revert(room, [c.id for c in changes])
        assert snapshot(desk.work) == {"notes.txt": "old notes\n", "other.txt": "old line\n"}

        again = turn(desk, room, server)  # the same message: a second answer does it again
        assert again["id"] != answer["id"]
        assert snapshot(desk.work) == {
            "notes.txt": "hello from gemini\n",
            "other.txt": "new line\n",
        }
        checkpoints = desk.sk.api.CheckpointService
        preview = checkpoints.RestorePreview(room, again["id"])
        assert sorted((Path(f.path).name, f.status, f.skipped) for f in preview) == [
            ("notes.txt", "modified", ""),
            ("other.txt", "modified", ""),
        ], preview
        checkpoints.Restore(room, again["id"])
        assert snapshot(desk.work) == {"notes.txt": "old notes\n", "other.txt": "old line\n"}


def test_gemini_shell_change_is_a_command(adapter_desk: OpenAdapter, tmp_path: Path) -> None:
    """other.txt changed while gemini's own shell ran (run_shell_command, kind "execute"):
    route "command". gemini-cli 0.61.0 sends session/request_permission with the tool call
    (status pending, kind execute), runs it once allowed, then sends one tool_call_update
    (completed): the app could take the command's first snapshot when the person allows it,
    before the answer reaches the agent (the command cannot start earlier)."""
    script = GeminiScript([SED_CALL, "done"])
    with ScriptedServer([script]) as server:
        desk = open_gemini(adapter_desk, tmp_path / "home", server)
        room = desk.channels.Direct(AGENT).id
        turn(desk, room, server)
        changes = desk.sk.api.ChangesService.Changes(room)
        assert [(Path(c.path).name, c.route) for c in changes] == [("other.txt", "command")]


def test_gemini_write_file_overwrites_an_existing_file_through_the_app(
    adapter_desk: OpenAdapter, tmp_path: Path
) -> None:
    """write_file on a file that exists: the read succeeds, and the CLI writes through the
    client (fs/write_text_file), after asking (answered "allow" through the app)."""
    script = GeminiScript([WRITE, "done"])
    with ScriptedServer([script]) as server:
        desk = open_gemini(adapter_desk, tmp_path / "home", server)
        notes = desk.work / "notes.txt"
        notes.write_text("old notes\n", encoding="utf-8", newline="\n")
        room = desk.channels.Direct(AGENT).id
        answer = turn(desk, room, server)
        written = tool(answer, "notes.txt")
        assert written["status"] == "completed", written
        assert [a["toolCall"]["kind"] for a in desk.allowed] == ["edit"]
        assert notes.read_text(encoding="utf-8") == "hello from gemini\n"
        assert "done" in desk.text(answer)
        changes = desk.sk.api.ChangesService.Changes(room)
        # The write went through the app's fs/write_text_file: route "fs", one record.
        assert [(Path(c.path).name, c.agent, c.message_id) for c in changes] == [
            ("notes.txt", AGENT, answer["id"])
        ]
        assert (changes[0].status, changes[0].route) == ("modified", "fs")
