"""Every test of the real window (tests/e2e) is linux_only, and only those: its hook in
tests/e2e/conftest.py sees the whole session's items."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e import conftest as e2e
from tests.platforms import apply_platform_marks

ROOT = Path(__file__).resolve().parents[3]


class Item:
    """What the hooks use of a collected test: its path and its marks."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.marks: list[pytest.Mark] = []

    def add_marker(self, marker: pytest.MarkDecorator) -> None:
        self.marks.append(marker.mark)

    def iter_markers(self, name: str) -> list[pytest.Mark]:
        return [mark for mark in self.marks if mark.name == name]


def test_the_window_tests_are_skipped_off_linux_with_the_reason_and_the_others_are_not() -> None:
    window = Item(ROOT / "tests" / "e2e" / "test_ui_search.py")
    other = Item(ROOT / "tests" / "unit" / "test_house_rules.py")
    items = [window, other]
    e2e.pytest_collection_modifyitems(items)  # type: ignore[arg-type]
    apply_platform_marks(items, "darwin")  # type: ignore[arg-type]
    assert [m.name for m in window.marks] == ["linux_only", "skip"]
    assert window.marks[-1].kwargs["reason"] == f"linux_only: {e2e.WHY_LINUX}"
    assert other.marks == []


def test_on_linux_the_window_tests_run() -> None:
    window = Item(ROOT / "tests" / "e2e" / "test_bridge.py")
    e2e.pytest_collection_modifyitems([window])  # type: ignore[list-item]
    apply_platform_marks([window], "linux")  # type: ignore[list-item]
    assert [m.name for m in window.marks] == ["linux_only"]
