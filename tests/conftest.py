"""Shared fixtures: every test runs with its own user config dir (never the real ~/.config)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from app.i18n import set_language


@pytest.fixture(autouse=True)
def user_config_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    folder = tmp_path / "user-config"
    folder.mkdir()
    monkeypatch.setenv("XDG_CONFIG_HOME", str(folder))
    monkeypatch.delenv("SIDEKICKS_CONFIG", raising=False)
    set_language("en")
    yield folder
    set_language("en")
