"""An agent's error reaches the channel as its own explanation, without terminal codes."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from app import Sidekicks
from app.agents.supervisor import Tuning
from tests.waiting import EventLog

CODEX_LIKE = str(Path(__file__).resolve().parents[2] / "fakes" / "codex_like.py")


@pytest.fixture
def app_with_codex_like(tmp_path: Path) -> Iterator[tuple[Sidekicks, EventLog]]:
    config = tmp_path / "errors.yaml"
    command = json.dumps([sys.executable, CODEX_LIKE])
    dying = json.dumps([sys.executable, CODEX_LIKE, "dies-coloured"])
    config.write_text(
        f"agents:\n  - name: codex\n    command: {command}\n"
        f"  - name: dying\n    command: {dying}\n",
        encoding="utf-8",
    )
    sk = Sidekicks(config=config, tuning=Tuning(initialize_timeout=10.0)).start()
    log = EventLog()
    sk.events.subscribe(log)
    yield sk, log
    sk.close()


def test_a_failed_session_says_the_agents_explanation_without_escape_codes(
    app_with_codex_like: tuple[Sidekicks, EventLog],
) -> None:
    sk, log = app_with_codex_like
    channels = sk.api.ChannelService
    room = channels.Direct("codex")
    mark = log.mark()
    channels.Send(room.id, "hello?")
    message = log.wait(
        "message:updated",
        lambda p: p["channel"] == room.id and p["message"]["code"] == "agent-unavailable",
        since=mark,
    )["message"]
    assert message["agent"] == "codex"
    assert message["error"] == "model gpt-x not available"


def test_an_agent_dying_mid_turn_shows_its_last_words_without_escape_codes(
    app_with_codex_like: tuple[Sidekicks, EventLog],
) -> None:
    sk, log = app_with_codex_like
    channels = sk.api.ChannelService
    room = channels.Direct("dying")
    mark = log.mark()
    channels.Send(room.id, "hello?")
    answer = log.wait(
        "message:updated",
        lambda p: (
            p["channel"] == room.id and p["message"]["role"] == "agent" and p["message"]["done"]
        ),
        since=mark,
    )["message"]
    assert "error: stream disconnected" in answer["error"]
    assert "\x1b" not in answer["error"] and "\x07" not in answer["error"]
