"""Agents offering modes and options (tests/fakes/modes_agent.py) for the session-modes tests."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.integration.channels.conftest import Chat

MODES_FAKE = str(Path(__file__).resolve().parents[2] / "fakes" / "modes_agent.py")


def modes_agent(log_dir: Path, name: str, *args: str, **extra: object) -> str:
    """A YAML agent entry (its log in $FAKE_LOG like the conftest's agents)."""
    command = [sys.executable, MODES_FAKE, *args]
    lines = [f"  - name: {name}", f"    command: {json.dumps(command)}"]
    lines.append(f"    env: {{FAKE_LOG: {json.dumps(str(log_dir / (name + '.jsonl')))}}}")
    lines += [f"    {key}: {json.dumps(value)}" for key, value in extra.items()]
    return "\n".join(lines) + "\n"


def modes_agents(log_dir: Path) -> str:
    """The YAML entries of the agents these tests use (appended to the conftest's)."""
    return "".join(
        [
            modes_agent(log_dir, "codex", "codex"),
            modes_agent(log_dir, "opencode", "opencode"),
            modes_agent(log_dir, "claude", "claude"),
            modes_agent(log_dir, "switches", "switches"),
            modes_agent(log_dir, "forgetful", "switches", "no-load"),
            modes_agent(
                log_dir, "preset", "codex", mode="auto", options={"model": "gpt-5.1-codex-mini"}
            ),
            modes_agent(log_dir, "stubborn", "codex", "no-load", mode="auto"),
            modes_agent(log_dir, "amnesic", "claude", "load-fails"),
            modes_agent(
                log_dir,
                "wrong",
                "switches",
                mode="plan",
                options={"model": "gpt-9", "web_search": True},
            ),
        ]
    )


def open_modes_chat(open_chat: Callable[..., Chat], tmp_path: Path) -> Chat:
    """The conftest's headless app (its agents' logs in tmp_path/agent-logs) with these."""
    return open_chat(modes_agents(tmp_path / "agent-logs"))


def methods(chat: Chat, agent: str, method: str) -> list[dict[str, Any]]:
    return [m for m in chat.received(agent) if m.get("method") == method]


def session_changed(chat: Chat, channel: str, agent: str, since: int) -> dict[str, Any]:
    return chat.log.wait(
        "session:changed",
        lambda p: p["channel"] == channel and p["agent"] == agent,
        since=since,
        timeout=20,
    )
