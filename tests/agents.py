"""Configurations with fake and demo agents for tests."""

from __future__ import annotations

import json
import sys
from pathlib import Path

FAKE = str(Path(__file__).resolve().parent / "fakes" / "fake_agent.py")


def fake_command(*behaviours: str) -> list[str]:
    return [sys.executable, FAKE, *behaviours]


def agent_yaml(name: str, *behaviours: str, **extra: object) -> str:
    lines = [f"  - name: {name}", f"    command: {json.dumps(fake_command(*behaviours))}"]
    lines += [f"    {key}: {json.dumps(value)}" for key, value in extra.items()]
    return "\n".join(lines) + "\n"


def write_config(
    path: Path, agents: str, max_running: int = 4, idle: str = "15m", extra: str = ""
) -> Path:
    path.write_text(
        f"limits:\n  maxRunningAgents: {max_running}\n  stopIdleAgentsAfter: {idle}\n"
        f"{extra}agents:\n{agents}",
        encoding="utf-8",
    )
    return path
