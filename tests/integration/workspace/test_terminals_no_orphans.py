"""No command an agent ran outlives what it belonged to: a command whose child ignores SIGTERM
is gone, child included, after Stop, the channel's deletion, the app closing, and the agent's
process ending (checked in the process table, /proc)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import pytest

from tests.integration.workspace.conftest import Desk
from tests.processes import alive
from tests.waiting import wait_for

pytestmark = pytest.mark.linux_only("finds the commands' processes in /proc")

# The command starts a child that ignores SIGTERM, says both pids, and waits.
STUBBORN = (
    "import os, subprocess, sys, time\n"
    "child = subprocess.Popen([sys.executable, '-c', 'import signal, time; "
    'signal.signal(signal.SIGTERM, signal.SIG_IGN); print("armed", flush=True); '
    "time.sleep(120)'])\n"
    "print(f'pids {os.getpid()} {child.pid}', flush=True)\n"
    "time.sleep(120)\n"
)


def start_stubborn(desk: Desk, room: str, agent: str = "", **flags: Any) -> tuple[int, list[int]]:
    """Runs STUBBORN through the agent; the event mark and the pids, once the child is armed."""
    mark = desk.send(room, [{"run": sys.executable, "args": ["-c", STUBBORN], **flags}], agent)

    def printed() -> str:
        return "".join(e["data"] for e in desk.log.named("terminal:output", mark))

    text = wait_for(lambda: "armed" in printed() and "pids" in printed() and printed(), 15)
    pids = [int(p) for p in text.split("pids ")[1].split()[:2]]
    assert all(alive(pid) for pid in pids)
    return mark, pids


def gone(pids: list[int]) -> Callable[[], bool]:
    return lambda: not any(alive(pid) for pid in pids)


def test_stop_kills_the_command_and_its_stubborn_child(desk: Desk) -> None:
    room = desk.channels.Direct("writer").id
    mark, pids = start_stubborn(desk, room)  # the agent waits for it to end
    desk.channels.Cancel(room)
    wait_for(gone(pids), 10, "the command and its child to end")
    ended = desk.log.wait("terminal:exited", since=mark)
    assert ended["signal"] == "SIGTERM"
    result = desk.results(room, "writer", mark)[0]
    assert result["exit"]["signal"] == "SIGTERM"  # what the agent was told


def test_deleting_the_channel_kills_its_commands(desk: Desk) -> None:
    room = desk.channels.Create("builds").id
    desk.channels.AddMember(room, "writer")
    _, pids = start_stubborn(desk, room, agent="writer")
    desk.channels.Delete(room)
    wait_for(gone(pids), 10, "the command and its child to end")


def test_closing_the_app_kills_every_command(open_desk: Callable[[], Desk]) -> None:
    desk = open_desk()
    room = desk.channels.Direct("writer").id
    _, pids = start_stubborn(desk, room)
    desk.sk.close()
    assert gone(pids)()  # close returns once they are gone


def test_the_agent_s_process_ending_kills_the_commands_it_left_running(desk: Desk) -> None:
    room = desk.channels.Direct("writer").id
    mark, pids = start_stubborn(desk, room, wait=False, release=False)
    desk.results(room, "writer", mark)  # the answer ended; the command still runs
    kept = desk.channels.Conversation(room)["messages"][-1]
    (view,) = [t for p in kept["parts"] if p.get("tool") for t in p["tool"]["terminals"]]
    assert view["running"] is True
    before_stop = desk.log.mark()
    desk.sk.api.AgentService.Stop("writer")
    wait_for(gone(pids), 10, "the command and its child to end")
    # The kept answer now says how the command ended.
    updated = desk.log.wait(
        "message:updated", lambda p: p["message"]["id"] == kept["id"], since=before_stop
    )
    parts = updated["message"]["parts"]
    (ended,) = [t for p in parts if p.get("tool") for t in p["tool"]["terminals"]]
    assert (ended["running"], ended["signal"]) == (False, "SIGTERM")
    assert "armed" in ended["output"]
