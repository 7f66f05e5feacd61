"""Hostile stdout through the whole app: a line that is not a JSON object costs nothing, and a
connection lost while the agent's process lives puts the agent in `error` (with the reason) and
stops that process, instead of leaving it `ready` with every message failing."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app import Sidekicks
from app.agents.supervisor import Tuning
from app.core.errors import UserError
from tests.agents import agent_yaml, write_config
from tests.running import running
from tests.waiting import EventLog, wait_for

FAST = Tuning(stdin_grace=1.0, term_grace=1.0, initialize_timeout=10.0)


class App:
    def __init__(self, sk: Sidekicks) -> None:
        self.sk, self.log = sk, EventLog()
        sk.events.subscribe(self.log)

    def answer(self, agent: str, text: str) -> dict[str, Any]:
        """Sends `text` to `agent` in their direct channel; the finished answer."""
        channel = self.sk.api.ChannelService.Direct(agent).id
        since = self.log.mark()
        self.sk.api.ChannelService.Send(channel, text)
        message: dict[str, Any] = self.log.wait(
            "message:updated",
            lambda p: p["message"]["role"] == "agent" and p["message"]["done"],
            timeout=20,
            since=since,
        )["message"]
        return message

    def state(self, agent: str) -> tuple[str, str]:
        info = next(a for a in self.sk.api.AgentService.List() if a.name == agent)
        return info.state, info.error

    def pid(self, agent: str) -> int:
        conn = self.sk._supervisor.runtime(agent).conn
        assert conn is not None and conn.process is not None
        return conn.process.pid


@pytest.fixture
def open_app(tmp_path: Path) -> Iterator[Any]:
    opened: list[Sidekicks] = []

    def open_(agents: str) -> App:
        config = write_config(tmp_path / "hostile.yaml", agents)
        sk = Sidekicks(config=config, tuning=FAST).start()
        opened.append(sk)
        return App(sk)

    yield open_
    for sk in opened:
        sk.close()


def texts(message: dict[str, Any]) -> list[str]:
    return [p["text"] for p in message["parts"] if p["kind"] == "text"]


def test_json_lines_that_are_not_objects_leave_the_agent_answering(open_app: Any) -> None:
    app = open_app(agent_yaml("odd", "non-object-lines"))
    for text in ("first", "second"):
        answer = app.answer("odd", text)
        assert answer["error"] == ""
        assert texts(answer) == [f"echo: {text}"]
    assert app.state("odd") == ("ready", "")
    logs = app.sk.api.AgentService.Logs("odd")
    assert len([line for line in logs if "not a JSON object" in line]) == 1


@pytest.mark.parametrize(
    ("behaviour", "reason"),
    [
        ("bad-answer", "connection to the agent failed"),
        ("close-stdout", "closed its output"),
    ],
)
def test_a_connection_lost_while_the_process_lives_is_an_error_and_the_process_is_stopped(
    open_app: Any, behaviour: str, reason: str
) -> None:
    app = open_app(agent_yaml("lost", behaviour))
    app.sk.api.AgentService.Start("lost")
    pid = app.pid("lost")
    answer = app.answer("lost", "hi")
    assert answer["error"] != ""  # the turn ends with an error, never a stuck "busy"
    event = app.log.wait("agent:state", lambda p: p["state"] == "error", timeout=10)
    assert reason in event["error"]
    assert app.state("lost")[0] == "error"
    wait_for(lambda: not running(pid), timeout=10, what="the agent's process to be stopped")
    # The user can start it again.
    assert app.sk.api.AgentService.Start("lost").state == "ready"


def test_an_agent_that_closes_stdout_while_starting_fails_with_that_reason(open_app: Any) -> None:
    command = json.dumps([sys.executable, "-c", "import os, time; os.close(1); time.sleep(60)"])
    app = open_app(f"  - name: mute\n    command: {command}\n")
    with pytest.raises(UserError) as raised:
        app.sk.api.AgentService.Start("mute")
    assert "closed its output" in str(raised.value)
    assert app.state("mute")[0] == "error"
