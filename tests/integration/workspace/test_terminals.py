"""Agents run commands through Sidekicks (issue 15: terminal capabilities): output and exit as
the agent reads them, live output to the page, the tool call showing the command and keeping its
final output, limits, errors."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from tests.integration.workspace.conftest import Desk


def py(script: str, **fields: Any) -> dict[str, Any]:
    return {"run": sys.executable, "args": ["-c", script], **fields}


def tool_terminals(message: dict[str, Any]) -> list[dict[str, Any]]:
    return [t for p in message["parts"] if p.get("tool") for t in p["tool"]["terminals"]]


def last_answer(desk: Desk, room: str) -> dict[str, Any]:
    messages = desk.channels.Conversation(room)["messages"]
    return [m for m in messages if m["role"] == "agent"][-1]


def test_a_command_s_output_and_exit_reach_the_agent_the_page_and_the_tool_call(
    desk: Desk,
) -> None:
    room = desk.channels.Direct("writer").id
    script = (
        "import sys; print('\\x1b[31mred\\x1b[0m'); print('oops', file=sys.stderr); sys.exit(2)"
    )
    results = desk.run(room, [py(script)])
    run = results[0]
    assert run["exit"] == {"exitCode": 2, "signal": None}
    assert run["output"].split() == ["\x1b[31mred\x1b[0m", "oops"]
    assert run["truncated"] is False and run["released"] is True
    answer = last_answer(desk, room)
    (view,) = tool_terminals(answer)
    assert view["id"] == run["terminalId"]
    assert view["command"].startswith(sys.executable) and "sys.exit(2)" in view["command"]
    assert view["output"] == run["output"]
    assert (view["running"], view["exitCode"], view["signal"]) == (False, 2, None)
    tool = next(p["tool"] for p in answer["parts"] if p.get("tool"))
    assert "[terminal" not in tool["output"]  # the terminal itself is shown, not a stand-in
    live = desk.log.named("terminal:output")
    assert "".join(e["data"] for e in live).split() == run["output"].split()
    assert {(e["messageId"], e["agent"], e["terminal"]) for e in live} == {
        (answer["id"], "writer", run["terminalId"])
    }
    exited = desk.log.wait("terminal:exited")
    assert (exited["exitCode"], exited["messageId"]) == (2, answer["id"])


def test_the_output_limit_keeps_the_tail_at_a_character_boundary(desk: Desk) -> None:
    room = desk.channels.Direct("writer").id
    results = desk.run(room, [py("print('é' * 100 + 'done', end='')", limit=9)])
    assert results[0]["output"] == "éédone"
    assert results[0]["truncated"] is True
    (view,) = tool_terminals(last_answer(desk, room))
    assert view["output"] == "éédone" and view["truncated"] is True


def test_the_agent_reads_errors_for_bad_commands_and_released_terminals(desk: Desk) -> None:
    room = desk.channels.Direct("writer").id
    results = desk.run(
        room,
        [
            {"run": "true", "cwd": "relative"},
            {"run": "no-such-program-xyz"},
            {"run": "true", "cwd": str(desk.root / "gone")},
            py("print('once')"),  # waited, read, released
            {"terminal": "output", "id": "last"},
            {"terminal": "wait_for_exit", "id": "never-made"},
        ],
    )
    errors = [r.get("error") for r in results]
    assert errors[0]["code"] == -32602 and "absolute" in errors[0]["message"]
    assert errors[1]["code"] == -32002 and "no-such-program-xyz" in errors[1]["message"]
    assert errors[2]["code"] == -32002 and "gone" in errors[2]["message"]
    assert errors[3] is None and results[3]["output"] == "once\n"
    assert errors[4]["code"] == -32002 and "released" in errors[4]["message"]
    assert errors[5]["code"] == -32002


def test_an_agent_reads_a_command_s_output_while_it_runs_then_kills_it(desk: Desk) -> None:
    room = desk.channels.Direct("writer").id
    script = "import time; print('started', flush=True); time.sleep(60)"  # killed before or after

    results = desk.run(
        room,
        [
            py(script, wait=False, release=False),
            {"terminal": "kill", "id": "last"},
            {"terminal": "wait_for_exit", "id": "last"},
            {"terminal": "output", "id": "last"},
            {"terminal": "release", "id": "last"},
        ],
    )
    assert results[2]["result"].get("signal") == "SIGTERM"
    output = results[3]["result"]
    assert "started\n".startswith(output["output"])  # it may be killed before it printed
    assert output["exitStatus"]["signal"] == "SIGTERM"
    (view,) = tool_terminals(last_answer(desk, room))
    assert (view["running"], view["signal"], view["output"]) == (False, "SIGTERM", output["output"])


def test_the_agent_is_offered_the_terminal_capability() -> None:
    from app.acp.handshake import client_capabilities

    assert client_capabilities().terminal is True


def test_a_command_that_outlives_its_answer_updates_the_kept_answer_when_it_ends(
    open_desk: Callable[[], Desk],
) -> None:
    desk = open_desk()
    room = desk.channels.Direct("writer").id
    script = "import time; print('serving', flush=True); time.sleep(60)"
    first = desk.run(room, [py(script, wait=False, release=False)])[0]
    (view,) = tool_terminals(last_answer(desk, room))
    assert view["running"] is True
    first_answer = last_answer(desk, room)["id"]
    mark = desk.send(room, [{"terminal": "kill", "id": first["terminalId"]}], "writer")
    # The first answer, kept, is updated with how its command ended …
    updated = desk.log.wait(
        "message:updated", lambda p: p["message"]["id"] == first_answer, since=mark
    )
    (ended,) = tool_terminals(updated["message"])
    # … while the second answer (which killed it) finishes on its own.
    desk.log.wait(
        "message:updated",
        lambda p: (
            p["message"]["role"] == "agent"
            and p["message"]["id"] != first_answer
            and p["message"]["done"]
        ),
        since=mark,
    )
    assert (ended["running"], ended["signal"]) == (False, "SIGTERM")
    desk.sk.close()
    again = open_desk()
    answers = [m for m in again.channels.Conversation(room)["messages"] if m["role"] == "agent"]
    assert tool_terminals(answers[0]) == [ended]
