"""No command an agent ran outlives what it belonged to: a command whose child ignores SIGTERM
is gone, child included, after Stop, the channel's deletion, the app closing, and the agent's
process ending — and so are children that left the command's group and session with `setsid`
(they carry the tree's mark; checked in the process table, /proc)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import pytest

from app.workspace import commands
from tests.integration.workspace.conftest import Desk
from tests.processes import alive
from tests.setsid_children import SETSID, escaped_pids, printed_pids
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


@pytest.fixture(params=["stubborn", "setsid"])
def script(request: pytest.FixtureRequest) -> str:
    """What the command runs: STUBBORN, or SETSID (children in sessions of their own)."""
    return STUBBORN if request.param == "stubborn" else SETSID


def start_stubborn(
    desk: Desk, room: str, script: str = STUBBORN, agent: str = "", **flags: Any
) -> tuple[int, list[int]]:
    """Runs `script` through the agent; the event mark and the pids, once the child is armed
    (and, for SETSID, once its children left the command's session)."""
    mark = desk.send(room, [{"run": sys.executable, "args": ["-c", script], **flags}], agent)

    def printed() -> str:
        return "".join(e["data"] for e in desk.log.named("terminal:output", mark))

    def ready() -> list[int]:
        text = printed()
        if script != STUBBORN:
            return escaped_pids(text)
        return printed_pids(text, 2)

    pids = wait_for(ready, 15, "the command's children")
    assert all(alive(pid) for pid in pids)
    return mark, pids


def gone(pids: list[int]) -> Callable[[], bool]:
    return lambda: not any(alive(pid) for pid in pids)


@pytest.fixture
def quicker_kill(monkeypatch: pytest.MonkeyPatch) -> Callable[[], None]:
    """SIGKILL 0.3 s after SIGTERM instead of the app's 2 s (KILL_GRACE): what ignores SIGTERM
    is killed either way. Stop's stubborn case keeps the app's 2 s."""
    return lambda: monkeypatch.setattr(commands, "KILL_GRACE", 0.3)


def test_stop_kills_the_command_and_its_stubborn_child(
    desk: Desk, script: str, quicker_kill: Callable[[], None]
) -> None:
    if script != STUBBORN:
        quicker_kill()
    room = desk.channels.Direct("writer").id
    mark, pids = start_stubborn(desk, room, script)  # the agent waits for it to end
    desk.channels.Cancel(room)
    wait_for(gone(pids), 10, "the command and its child to end")
    ended = desk.log.wait("terminal:exited", since=mark)
    assert ended["signal"] == "SIGTERM"
    result = desk.results(room, "writer", mark)[0]
    assert result["exit"]["signal"] == "SIGTERM"  # what the agent was told


def test_deleting_the_channel_kills_its_commands(
    desk: Desk, script: str, quicker_kill: Callable[[], None]
) -> None:
    quicker_kill()
    room = desk.channels.Create("builds").id
    desk.channels.AddMember(room, "writer")
    _, pids = start_stubborn(desk, room, script, agent="writer")
    desk.channels.Delete(room)
    wait_for(gone(pids), 10, "the command and its child to end")


def test_closing_the_app_kills_every_command(
    open_desk: Callable[[], Desk], script: str, quicker_kill: Callable[[], None]
) -> None:
    quicker_kill()
    desk = open_desk()
    room = desk.channels.Direct("writer").id
    _, pids = start_stubborn(desk, room, script)
    desk.sk.close()
    assert gone(pids)()  # close returns once they are gone


def test_the_agent_s_process_ending_kills_the_commands_it_left_running(
    desk: Desk, script: str, quicker_kill: Callable[[], None]
) -> None:
    quicker_kill()
    room = desk.channels.Direct("writer").id
    mark, pids = start_stubborn(desk, room, script, wait=False, release=False)
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
