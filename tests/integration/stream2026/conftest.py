"""A headless app with tests/fakes/acp2026_stream.py (issue 26: what the stream carries now)."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app import Sidekicks
from tests.integration.channels.conftest import FAST
from tests.waiting import EventLog

FAKE = str(Path(__file__).resolve().parents[2] / "fakes" / "acp2026_stream.py")


class Stream:
    def __init__(self, sk: Sidekicks, log: EventLog, fake_log: Path) -> None:
        self.sk, self.log, self.fake_log = sk, log, fake_log
        self.channels = sk.api.ChannelService
        self.channel = self.channels.Direct("streamer").id

    def ask(self, word: str) -> int:
        mark = self.log.mark()
        self.channels.Send(self.channel, word)
        return mark

    def finished(self, since: int) -> Any:
        return self.log.wait(
            "message:updated",
            lambda p: (
                p["channel"] == self.channel
                and p["message"]["role"] == "agent"
                and p["message"]["done"]
            ),
            since=since,
            timeout=20,
        )["message"]

    def received(self, method: str) -> list[dict[str, Any]]:
        lines = self.fake_log.read_text(encoding="utf-8").splitlines()
        return [m for m in map(json.loads, filter(str.strip, lines)) if m.get("method") == method]


@pytest.fixture
def stream(tmp_path: Path) -> Iterator[Stream]:
    fake_log = tmp_path / "fake.jsonl"
    config = tmp_path / "stream.yaml"
    config.write_text(
        "agents:\n  - name: streamer\n"
        f"    command: {json.dumps([sys.executable, FAKE])}\n"
        f"    env: {{FAKE_LOG: {json.dumps(str(fake_log))}}}\n",
        encoding="utf-8",
        newline="\n",
    )
    sk = Sidekicks(config=config, tuning=FAST).start()
    log = EventLog()
    sk.events.subscribe(log)
    try:
        yield Stream(sk, log, fake_log)
    finally:
        sk.close()
