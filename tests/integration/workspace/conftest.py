"""A headless app whose agents read, write and run commands through Sidekicks
(tests/fakes/workspace_agent.py), each working in its own folder of the test's."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from app import Sidekicks
from app.agents.supervisor import Tuning
from tests.waiting import EventLog

FAST = Tuning(stdin_grace=1.0, term_grace=1.0, initialize_timeout=10.0)
WORKSPACE_AGENT = str(Path(__file__).resolve().parents[2] / "fakes" / "workspace_agent.py")


class Desk:
    """The app, the agents' folders, and helpers that run actions through an agent."""

    def __init__(self, sk: Sidekicks, log: EventLog, root: Path) -> None:
        self.sk, self.log, self.root = sk, log, root
        self.channels = sk.api.ChannelService
        self.work = root / "work"  # writer's and other's cwd
        self.extra = root / "extra"  # writer's `folders:` entry
        self.outside = root / "outside"  # nobody's folder

    def send(self, channel: str, actions: list[dict[str, Any]], agent: str = "") -> int:
        """Sends the actions (to `agent` by mention, if given); the event mark before it."""
        mark = self.log.mark()
        text = json.dumps(actions)
        self.channels.Send(channel, f"@{agent} {text}" if agent else text)
        return mark

    def results(self, channel: str, agent: str, mark: int) -> list[dict[str, Any]]:
        """The agent's report of each action of its next finished answer."""
        message = self.log.wait(
            "message:updated",
            lambda p: (
                p["channel"] == channel
                and p["message"]["agent"] == agent
                and p["message"]["role"] == "agent"
                and p["message"]["done"]
            ),
            timeout=20,
            since=mark,
        )["message"]
        self.log.wait(
            "turn:changed", lambda p: p["channel"] == channel and not p["busy"], since=mark
        )
        text = "".join(p.get("text", "") for p in message["parts"] if p["kind"] == "text")
        return [json.loads(line) for line in text.splitlines() if line.strip()]

    def run(
        self, channel: str, actions: list[dict[str, Any]], agent: str = "writer"
    ) -> list[dict[str, Any]]:
        mark = self.send(channel, actions, agent)
        return self.results(channel, agent, mark)

    def answer_ids(self, channel: str) -> list[str]:
        messages = self.channels.Conversation(channel)["messages"]
        return [m["id"] for m in messages if m["role"] == "agent"]


def config_text(root: Path) -> str:
    command = json.dumps([sys.executable, WORKSPACE_AGENT])
    return (
        "agents:\n"
        f"  - name: writer\n    command: {command}\n    cwd: work\n    folders: [extra]\n"
        f"  - name: other\n    command: {command}\n    cwd: work\n"
    )


@pytest.fixture
def open_desk(tmp_path: Path) -> Iterator[Callable[[], Desk]]:
    opened: list[Sidekicks] = []
    for folder in ("work", "extra", "outside"):
        (tmp_path / folder).mkdir()
    config = tmp_path / "desk.yaml"
    config.write_text(config_text(tmp_path), encoding="utf-8")

    def open_() -> Desk:
        sk = Sidekicks(config=config, tuning=FAST).start()
        opened.append(sk)
        log = EventLog()
        sk.events.subscribe(log)
        return Desk(sk, log, tmp_path)

    yield open_
    for sk in opened:
        sk.close()


@pytest.fixture
def desk(open_desk: Callable[[], Desk]) -> Desk:
    return open_desk()
