"""Hostile stdout, at the connection: lines that are not JSON-RPC messages are skipped and
logged, an endless line is dropped as it streams, updates for sessions nobody opened are
buffered within bounds, and a connection lost while the process lives is reported."""

from __future__ import annotations

import asyncio
import functools
import json
import subprocess
import sys
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

import pytest

from app.acp.connection import AgentConnection
from tests.agents import fake_command
from tests.integration.acp.test_connection import Recorder

T = TypeVar("T")
ROOT = Path(__file__).resolve().parents[3]


@dataclass
class Seen:
    """What the connection told its owner: log lines, exits, lost connections."""

    logs: list[str] = field(default_factory=list)
    exits: list[int | None] = field(default_factory=list)
    lost: list[str] = field(default_factory=list)


def run(
    behaviours: list[str],
    body: Callable[[AgentConnection, Seen], Awaitable[T]],
    env: dict[str, str] | None = None,
) -> tuple[T, Seen]:
    """Starts a fake agent, runs `body` with its connection, always stops it."""
    seen = Seen()

    async def main() -> T:
        conn = AgentConnection(
            fake_command(*behaviours), env or {}, Path.cwd(), on_log=seen.logs.append,
            on_exit=seen.exits.append, on_lost=lambda reason: seen.lost.append(str(reason)),
        )  # fmt: skip
        await conn.start(timeout=10)
        try:
            return await body(conn, seen)
        finally:
            await conn.stop(1.0, 1.0)

    return asyncio.run(main()), seen


async def until(condition: Callable[[], object], timeout: float = 10.0) -> None:
    """Waits on the running loop for `condition`, failing after `timeout`."""
    async with asyncio.timeout(timeout):
        while not condition():
            await asyncio.sleep(0.01)


def test_json_lines_that_are_not_objects_are_skipped_logged_once_and_the_answer_arrives() -> None:
    async def body(conn: AgentConnection, seen: Seen) -> tuple[list[str], str]:
        recorder = Recorder()
        sid = (await conn.new_session(recorder)).session_id
        first = await conn.prompt(sid, "one")
        await conn.prompt(sid, "two")  # the same lines again: logged once, not every time
        return recorder.texts(), first

    (texts, reason), seen = run(["non-object-lines"], body)
    assert reason == "end_turn"
    assert texts == ["echo: one", "echo: two"]
    skipped = [line for line in seen.logs if "not a JSON object" in line]
    assert len(skipped) == 1, seen.logs
    assert "[1,2,3]" in skipped[0]
    assert seen.lost == []


def test_an_answer_the_sdk_cannot_read_fails_the_turn_and_reports_the_connection_lost() -> None:
    async def body(conn: AgentConnection, seen: Seen) -> tuple[str, bool]:
        sid = (await conn.new_session(Recorder())).session_id
        with pytest.raises(ConnectionError) as raised:
            await asyncio.wait_for(conn.prompt(sid, "hi"), 10)
        await until(lambda: seen.lost)
        return str(raised.value), conn.exited()

    (error, exited), seen = run(["bad-answer"], body)
    assert error
    assert not exited  # the process still lives: the owner decides to stop it
    assert len(seen.lost) == 1 and "connection to the agent failed" in seen.lost[0], seen.lost
    assert seen.exits == []


def test_an_agent_that_closes_stdout_but_keeps_running_is_reported_lost() -> None:
    async def body(conn: AgentConnection, seen: Seen) -> None:
        sid = (await conn.new_session(Recorder())).session_id
        with pytest.raises(ConnectionError):
            await asyncio.wait_for(conn.prompt(sid, "hi"), 10)
        await until(lambda: seen.lost)

    _, seen = run(["close-stdout"], body)
    assert len(seen.lost) == 1 and "closed its output" in seen.lost[0], seen.lost


def test_updates_for_sessions_nobody_opened_are_buffered_within_bounds() -> None:
    async def body(conn: AgentConnection, seen: Seen) -> tuple[dict[str, int], list[str]]:
        recorder = Recorder()
        sid = (await conn.new_session(recorder)).session_id
        await conn.prompt(sid, "after the strays")
        return conn.client.buffered(), recorder.texts()

    (buffered, texts), seen = run(["stray-sessions"], body, env={"FAKE_STRAY": "1000"})
    assert texts == ["echo: after the strays"]
    assert 0 < len(buffered) <= 16
    assert list(buffered)[-1] == "stray-999"  # the most recent ones are kept
    assert len([line for line in seen.logs if "sessions nobody opened" in line]) == 1


# Peak memory of a process that reads a 100 MB line: measured in a subprocess of its own (the
# test runner's peak is shared by every test), the peak reset just before the turn.
MEASURE = """
import asyncio, json, sys
from pathlib import Path
from app.acp.connection import AgentConnection
from tests.agents import fake_command
from tests.integration.acp.test_connection import Recorder

PROC = sys.platform.startswith("linux")  # the memory figures are read in /proc (Linux)

def status(key):
    if not PROC:
        return 0
    line = next(l for l in open("/proc/self/status") if l.startswith(key + ":"))
    return int(line.split()[1]) * 1024

async def main():
    logs = []
    conn = AgentConnection(fake_command("endless-line"), {"FAKE_LINE_MB": sys.argv[1]},
                           Path.cwd(), on_log=logs.append, on_exit=lambda code: None)
    await conn.start(timeout=10)
    try:
        recorder = Recorder()
        sid = (await conn.new_session(recorder)).session_id
        if PROC:
            with open("/proc/self/clear_refs", "w") as f:
                f.write("5")  # resets the peak (VmHWM) to the current size
        before = status("VmRSS")
        reason = await conn.prompt(sid, "after the line")
        peak = status("VmHWM")
        return {"reason": reason, "texts": recorder.texts(),
                "growth": peak - before if PROC else None, "logs": logs}
    finally:
        await conn.stop(1.0, 1.0)

print(json.dumps(asyncio.run(main())))
"""


@functools.cache  # one run serves both tests below
def measure_endless_line(megabytes: int) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", MEASURE, str(megabytes)],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(done.stdout.splitlines()[-1])
    return result


MB = 1024 * 1024


def test_a_100_mb_line_is_dropped_as_it_streams_and_the_answer_still_arrives() -> None:
    result = measure_endless_line(100)
    assert result["reason"] == "end_turn"
    assert result["texts"] == ["echo: after the line"]
    assert any("a line of 100 MB was dropped" in line for line in result["logs"])  # type: ignore[attr-defined]


@pytest.mark.linux_only("the peak memory is read in /proc/self/status (VmHWM, reset by clear_refs)")
def test_a_100_mb_line_never_takes_more_memory_than_a_valid_line_may() -> None:
    # At most the 64 MiB a valid line may take, never the whole line (nor copies of it).
    growth = measure_endless_line(100)["growth"]
    assert isinstance(growth, int) and growth < 100 * MB, f"grew by {growth / MB:.0f} MB"
