"""A headless app whose agents are tests/fakes/handoff_agent.py, each told what to answer, for
the hand-off tests (issue 28) and the benchmark's tiny run."""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from app import Sidekicks
from app.agents.supervisor import Tuning
from tests.waiting import EventLog

FAST = Tuning(stdin_grace=1.0, term_grace=1.0, initialize_timeout=10.0)
HANDOFF_AGENT = str(Path(__file__).resolve().parents[2] / "fakes" / "handoff_agent.py")


@dataclass
class Fake:
    say: str = "done"
    env: dict[str, str] = field(default_factory=dict)


def config_text(root: Path, agents: dict[str, Fake]) -> str:
    lines = ["agents:"]
    for name, fake in agents.items():
        env = {"FAKE_LOG": str(root / f"{name}.jsonl"), "FAKE_SAY": fake.say, **fake.env}
        lines += [
            f"  - name: {name}",
            f"    command: {json.dumps([sys.executable, HANDOFF_AGENT])}",
            "    cwd: work",
            f"    env: {json.dumps(env)}",
        ]
    return "\n".join(lines) + "\n"


class Room:
    """The app, a channel of the given members, and what its agents received."""

    def __init__(
        self, root: Path, agents: dict[str, Fake], members: list[str], reopen: str = ""
    ) -> None:
        """A new channel of `members`, or the channel `reopen` of the history kept there."""
        self.root = root
        (root / "work").mkdir(exist_ok=True)
        config = root / "room.yaml"
        config.write_text(config_text(root, agents), encoding="utf-8", newline="\n")
        self.sk = Sidekicks(config=config, tuning=FAST).start()
        self.log = EventLog()
        self.sk.events.subscribe(self.log)
        self.channels = self.sk.api.ChannelService
        self.handoffs = self.sk.api.HandoffService
        self.id = reopen or self.channels.Create("room", "", members).id

    def close(self) -> None:
        self.sk.close()

    def send(self, text: str) -> int:
        mark = self.log.mark()
        self.channels.Send(self.id, text)
        return mark

    def idle(self, since: int, timeout: float = 20) -> None:
        self.log.wait(
            "turn:changed",
            lambda p: p["channel"] == self.id and not p["busy"],
            since=since,
            timeout=timeout,
        )

    def messages(self) -> list[dict[str, Any]]:
        return list(self.channels.Conversation(self.id)["messages"])

    def answers(self) -> list[dict[str, Any]]:
        return [m for m in self.messages() if m["role"] == "agent"]

    def system(self, code: str) -> list[dict[str, Any]]:
        return [m for m in self.messages() if m.get("code") == code]

    def prompts(self, agent: str) -> list[dict[str, Any]]:
        """The `session/prompt` params the agent received."""
        path = self.root / f"{agent}.jsonl"
        if not path.exists():
            return []
        read = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
        return [m["params"] for m in read if m.get("method") == "session/prompt"]


def text_of(prompt: dict[str, Any]) -> str:
    return "".join(b.get("text", "") for b in prompt["prompt"] if b.get("type") == "text")
