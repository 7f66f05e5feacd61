"""A headless app with tests/fakes/acp2026_sessions.py agents (issue 26: the agent's own
sessions): `keeper` can do everything, `plain` cannot list, resume, close nor log out."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from app import Sidekicks
from tests.integration.channels.conftest import FAST
from tests.waiting import EventLog

FAKE = str(Path(__file__).resolve().parents[2] / "fakes" / "acp2026_sessions.py")
AGENTS: dict[str, list[str]] = {
    "keeper": [],
    "plain": ["no-list", "no-resume", "no-close", "no-logout"],
    "broken": ["list-fails"],
    "crowd": ["many"],
    "flaky": ["resume-fails"],
}


class Keeper:
    """The app, its event log and what the fake agents read."""

    def __init__(self, sk: Sidekicks, log: EventLog, log_dir: Path, work: Path) -> None:
        self.sk, self.log, self.log_dir, self.work = sk, log, log_dir, work
        self.channels = sk.api.ChannelService
        self.agents = sk.api.AgentService

    def received(self, agent: str, method: str) -> list[dict[str, Any]]:
        path = self.log_dir / f"{agent}.jsonl"
        if not path.exists():
            return []
        lines = path.read_text(encoding="utf-8").splitlines()
        return [m for m in map(json.loads, filter(str.strip, lines)) if m.get("method") == method]

    def finished(self, channel: str, agent: str, since: int = 0) -> Any:
        return self.log.wait(
            "message:updated",
            lambda p: (
                p["channel"] == channel
                and p["message"]["agent"] == agent
                and p["message"]["role"] == "agent"
                and p["message"]["done"]
            ),
            since=since,
            timeout=20,
        )["message"]


@pytest.fixture
def open_keeper(tmp_path: Path) -> Iterator[Callable[[], Keeper]]:
    opened: list[Sidekicks] = []
    log_dir, work = tmp_path / "logs", tmp_path / "work"
    log_dir.mkdir()
    work.mkdir()
    config = tmp_path / "sessions.yaml"
    lines = ["agents:"]
    for name, flags in AGENTS.items():
        lines += [
            f"  - name: {name}",
            f"    command: {json.dumps([sys.executable, FAKE, *flags])}",
            f"    cwd: {json.dumps(str(work))}",
            f"    env: {{FAKE_LOG: {json.dumps(str(log_dir / (name + '.jsonl')))}}}",
        ]
    config.write_text("\n".join(lines) + "\n", encoding="utf-8", newline="\n")

    def open_() -> Keeper:
        sk = Sidekicks(config=config, tuning=FAST).start()
        opened.append(sk)
        log = EventLog()
        sk.events.subscribe(log)
        return Keeper(sk, log, log_dir, work)

    yield open_
    for sk in opened:
        sk.close()


@pytest.fixture
def keeper(open_keeper: Callable[[], Keeper]) -> Keeper:
    return open_keeper()
