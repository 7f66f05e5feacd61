"""A headless app on a real configuration file in a temporary folder, with its event log."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from app import Sidekicks
from tests.waiting import EventLog

VALID = "theme: dark\nagents:\n  - name: demo\n    builtin: demo\n"


@pytest.fixture
def config_file(tmp_path: Path) -> Path:
    path = tmp_path / "work" / "sidekicks.yaml"
    path.parent.mkdir()
    path.write_text(VALID, encoding="utf-8", newline="\n")  # Content() gives it back as is
    return path


@pytest.fixture
def app(config_file: Path) -> Iterator[tuple[Sidekicks, EventLog]]:
    log = EventLog()
    with Sidekicks(config=config_file) as sk:
        sk.events.subscribe(log)
        yield sk, log
