"""A headless app with the demo agent and scriptable fakes, for conversation tests."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from app import Sidekicks
from app.agents.supervisor import Tuning
from tests.agents import fake_command
from tests.waiting import EventLog

FAST = Tuning(stdin_grace=1.0, term_grace=1.0, initialize_timeout=10.0)

AGENTS: dict[str, list[str]] = {
    "alpha": [],
    "beta": [],
    "slow": ["slow"],
    "perm": ["permission"],
    "perm2": ["permission-twice"],
    "crashy": ["exit-mid-turn"],
    "loader": ["load-session", "commands", "usage"],
}


def config_text(log_dir: Path, extra: str = "") -> str:
    lines = ["agents:", "  - name: demo", "    builtin: demo"]
    for name, behaviours in AGENTS.items():
        lines += [
            f"  - name: {name}",
            f"    command: {json.dumps(fake_command(*behaviours))}",
            f"    env: {{FAKE_LOG: {json.dumps(str(log_dir / (name + '.jsonl')))}}}",
        ]
    return "\n".join(lines) + "\n" + extra


class Chat:
    """The app and its event log, with helpers that wait on what a test expects."""

    def __init__(self, sk: Sidekicks, log: EventLog, log_dir: Path) -> None:
        self.sk, self.log, self.log_dir = sk, log, log_dir
        self.channels = sk.api.ChannelService

    def finished(self, channel: str, agent: str, since: int = 0, timeout: float = 20) -> Any:
        """The next finished answer of `agent` in `channel`."""
        return self.log.wait(
            "message:updated",
            lambda p: (
                p["channel"] == channel
                and p["message"]["agent"] == agent
                and p["message"]["role"] == "agent"
                and p["message"]["done"]
            ),
            timeout=timeout,
            since=since,
        )["message"]

    def system(self, channel: str, code: str, since: int = 0) -> Any:
        return self.log.wait(
            "message:updated",
            lambda p: p["channel"] == channel and p["message"]["code"] == code,
            since=since,
        )["message"]

    def idle(self, channel: str, since: int = 0, timeout: float = 20) -> Any:
        return self.log.wait(
            "turn:changed",
            lambda p: p["channel"] == channel and not p["busy"],
            since=since,
            timeout=timeout,
        )

    def received(self, agent: str) -> list[dict[str, Any]]:
        """Every JSON-RPC message the fake agent read."""
        path = self.log_dir / f"{agent}.jsonl"
        if not path.exists():
            return []
        return [
            json.loads(line)
            for line in path.read_text(encoding="utf-8").splitlines()
            if line.strip()
        ]

    def prompts(self, agent: str) -> list[str]:
        return [
            "".join(b.get("text", "") for b in m["params"]["prompt"])
            for m in self.received(agent)
            if m.get("method") == "session/prompt"
        ]


@pytest.fixture
def open_chat(tmp_path: Path) -> Iterator[Callable[..., Chat]]:
    opened: list[Sidekicks] = []
    log_dir = tmp_path / "agent-logs"
    log_dir.mkdir()
    config = tmp_path / "chat.yaml"

    def open_(extra: str = "") -> Chat:
        if not config.exists() or extra:
            # "\n" on Windows too: tests find lines in the text Content() gives back
            config.write_text(config_text(log_dir, extra), encoding="utf-8", newline="\n")
        sk = Sidekicks(config=config, tuning=FAST).start()
        opened.append(sk)
        log = EventLog()
        sk.events.subscribe(log)
        return Chat(sk, log, log_dir)

    yield open_
    for sk in opened:
        sk.close()


@pytest.fixture
def chat(open_chat: Callable[..., Chat]) -> Chat:
    return open_chat()
