"""Fixtures shared by unit tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from app.history.base import History
from tests.unit.history.samples import KINDS, make_history


@pytest.fixture(params=KINDS)
def history(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[History]:
    """Each history implementation in turn (memory, LMDB), closed after the test."""
    opened = make_history(request.param, tmp_path / "history")
    yield opened
    opened.close()
