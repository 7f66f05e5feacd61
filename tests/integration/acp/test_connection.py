"""The session boundary the channel engine uses, against real misbehaving agent processes."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TypeVar

import pytest

from app.acp.connection import AgentConnection
from app.acp.errors import AgentRequestError, describe_error
from app.acp.updates import PermissionAsked, SessionEvent, TextDelta
from tests.agents import fake_command

T = TypeVar("T")


class Recorder:
    """A session handler that records the typed events and answers permissions with `choice`."""

    def __init__(self, choice: str | None = "allow") -> None:
        self.updates: list[SessionEvent] = []
        self.permissions: list[PermissionAsked] = []
        self.choice = choice

    def on_event(self, event: SessionEvent | PermissionAsked) -> None:
        if isinstance(event, PermissionAsked):
            self.permissions.append(event)
            event.reply.set_result(self.choice)
        else:
            self.updates.append(event)

    def texts(self) -> list[str]:
        return [u.text for u in self.updates if isinstance(u, TextDelta) and u.kind == "text"]


def run(behaviours: list[str], body: Callable[[AgentConnection], Awaitable[T]]) -> T:
    """Starts a fake agent, runs `body` with its connection, always stops it."""

    async def main() -> T:
        exits: list[int | None] = []
        conn = AgentConnection(
            fake_command(*behaviours), {}, Path.cwd(), on_log=lambda line: None,
            on_exit=exits.append,
        )  # fmt: skip
        await conn.start(timeout=10)
        try:
            return await body(conn)
        finally:
            await conn.stop(1.0, 1.0)

    return asyncio.run(main())


def test_a_prompt_gets_its_updates_and_stop_reason() -> None:
    async def body(conn: AgentConnection) -> tuple[str, list[str]]:
        recorder = Recorder()
        sid = (await conn.new_session(recorder)).session_id
        return await conn.prompt(sid, "hello"), recorder.texts()

    assert run([], body) == ("end_turn", ["echo: hello"])


def test_updates_sent_before_the_session_new_answer_are_not_lost() -> None:
    async def body(conn: AgentConnection) -> list[str]:
        recorder = Recorder()
        sid = (await conn.new_session(recorder)).session_id
        await conn.prompt(sid, "after")
        return recorder.texts()

    assert run(["early-updates"], body) == ["early", "echo: after"]


def test_updates_arrive_in_the_order_they_were_sent() -> None:
    async def body(conn: AgentConnection) -> list[str]:
        recorder = Recorder()
        sid = (await conn.new_session(recorder)).session_id
        prompt = asyncio.ensure_future(conn.prompt(sid, "go"))
        while len(recorder.updates) < 40:
            await asyncio.sleep(0.01)
        await conn.cancel(sid)
        assert await prompt == "cancelled"
        return recorder.texts()

    texts = run(["slow"], body)
    assert texts == [f"tick {i} " for i in range(len(texts))]


def test_garbage_lines_on_stdout_are_skipped() -> None:
    async def body(conn: AgentConnection) -> list[str]:
        recorder = Recorder()
        sid = (await conn.new_session(recorder)).session_id
        await conn.prompt(sid, "still works")
        return recorder.texts()

    assert run(["garbage-stdout"], body) == ["echo: still works"]


def test_a_5_mib_line_is_read_whole() -> None:
    async def body(conn: AgentConnection) -> list[int]:
        recorder = Recorder()
        sid = (await conn.new_session(recorder)).session_id
        await conn.prompt(sid, "big")
        return [len(t) for t in recorder.texts()]

    assert run(["huge-line"], body) == [5 * 1024 * 1024, len("echo: big")]


def test_a_permission_request_reaches_the_session_and_the_answer_the_agent() -> None:
    for choice, expected in (("allow", "permission: allow"), ("reject", "permission: reject")):

        async def body(conn: AgentConnection, choice: str = choice) -> tuple[list[str], int]:
            recorder = Recorder(choice)
            sid = (await conn.new_session(recorder)).session_id
            await conn.prompt(sid, "edit")
            return recorder.texts(), len(recorder.permissions)

        texts, asked = run(["permission"], body)
        assert asked == 1
        assert texts[0] == expected


def test_a_cancelled_permission_ends_the_turn_cancelled() -> None:
    async def body(conn: AgentConnection) -> str:
        sid = (await conn.new_session(Recorder(choice=None))).session_id
        return await conn.prompt(sid, "edit")

    assert run(["permission"], body) == "cancelled"


def test_an_agent_that_dies_mid_turn_fails_the_prompt_with_connection_error() -> None:
    async def body(conn: AgentConnection) -> str:
        sid = (await conn.new_session(Recorder())).session_id
        with pytest.raises(ConnectionError) as raised:
            await conn.prompt(sid, "die")
        return describe_error(raised.value)

    assert "connection closed" in run(["exit-mid-turn"], body)


def test_a_death_is_seen_even_when_a_grandchild_holds_stdout_open(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FAKE_PIDFILE", str(tmp_path / "pids"))

    async def body(conn: AgentConnection) -> bool:
        sid = (await conn.new_session(Recorder())).session_id
        with pytest.raises(ConnectionError):
            await asyncio.wait_for(conn.prompt(sid, "die"), timeout=10)
        return conn.exited()

    assert run(["grandchildren", "exit-mid-turn"], body) is True


def test_an_authentication_error_is_readable() -> None:
    async def body(conn: AgentConnection) -> tuple[str, bool]:
        with pytest.raises(AgentRequestError) as raised:
            await conn.new_session(Recorder())
        return describe_error(raised.value), raised.value.auth_required

    description, auth_required = run(["auth-required"], body)
    assert "Authentication required" in description
    assert auth_required


def test_load_session_replays_to_the_handler_before_returning() -> None:
    async def body(conn: AgentConnection) -> tuple[bool, list[str]]:
        recorder = Recorder()
        await conn.load_session("earlier-session", recorder)
        return conn.supports_load, recorder.texts()

    assert run(["load-session"], body) == (True, ["replayed"])


def test_the_agent_only_gets_the_capabilities_we_implement(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = tmp_path / "received.jsonl"

    async def body(conn: AgentConnection) -> None:
        return None

    monkeypatch.setenv("FAKE_LOG", str(log))
    run([], body)
    init = json.loads(log.read_text(encoding="utf-8").splitlines()[0])
    assert init["method"] == "initialize"
    assert init["params"]["protocolVersion"] == 1
    assert init["params"]["clientInfo"]["name"] == "sidekicks"
    # Files and terminals, as app/workspace/ serves them (issue 15).
    caps = init["params"].get("clientCapabilities") or {}
    assert caps["fs"] == {"readTextFile": True, "writeTextFile": True}
    assert caps["terminal"] is True
