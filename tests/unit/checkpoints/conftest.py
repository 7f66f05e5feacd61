"""A folder to snapshot and a store beside it (never inside it)."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.checkpoints import CheckpointStore


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    made = tmp_path / "folder"
    made.mkdir()
    return made


@pytest.fixture
def store(tmp_path: Path) -> CheckpointStore:
    return CheckpointStore(tmp_path / "data" / "checkpoints", max_file_bytes=1000)
