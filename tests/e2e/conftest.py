"""The real app in its window, offscreen, driven over CDP."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page

from tests.agents import agent_yaml
from tests.e2e.window import running_app

SHOTS = Path(__file__).resolve().parents[2] / "test-output" / "screenshots"


@pytest.fixture
def e2e_config(tmp_path: Path) -> Path:
    path = tmp_path / "e2e.yaml"
    path.write_text(
        "agents:\n  - name: demo\n    builtin: demo\n"
        + agent_yaml("alpha")
        + agent_yaml("crashy", "exit-after-init"),
        encoding="utf-8",
    )
    return path


@pytest.fixture
def window(e2e_config: Path, tmp_path: Path) -> Iterator[Page]:
    with running_app(["--config", str(e2e_config)], tmp_path / "app.log") as (page, _proc):
        yield page


@pytest.fixture
def shots() -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    return SHOTS
