"""The cut of the suite for pytest-xdist (tests/scheduling.py): every test file that opens the
app's real window is in the `window` group (one window at a time), and the packaged app's tests
are in one `package` group (one build per run)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.scheduling import PACKAGE, TESTS, WINDOW, apply_groups, group_of

# What starts the app with its window: tests/e2e/window.py's helpers, or a Qt offscreen
# environment made for a window of its own.
OPENS_A_WINDOW = re.compile(r"\b(running_app|running_frozen_app|running_command|offscreen_env)\(")


def every_test_file() -> list[Path]:
    return sorted(TESTS.rglob("test_*.py"))


@pytest.mark.parametrize("path", every_test_file(), ids=lambda p: str(p.relative_to(TESTS)))
def test_a_file_that_opens_a_window_is_in_a_group_that_runs_one_at_a_time(path: Path) -> None:
    if OPENS_A_WINDOW.search(path.read_text(encoding="utf-8")):
        assert group_of(path) in (WINDOW, PACKAGE), f"{path.name} opens a window: group it"


def test_the_e2e_tests_the_self_test_and_the_frozen_app_have_their_groups() -> None:
    assert group_of(TESTS / "e2e" / "test_bridge.py") == WINDOW
    assert group_of(TESTS / "integration" / "test_self_test.py") == WINDOW
    assert group_of(TESTS / "packaging" / "test_frozen_app.py") == PACKAGE
    assert group_of(TESTS / "packaging" / "test_frozen_launcher.py") == PACKAGE
    assert group_of(TESTS / "packaging" / "test_layout.py") is None
    assert group_of(TESTS / "unit" / "test_house_rules.py") is None


class Collected:
    """What apply_groups reads and writes of a collected test."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.marks: list[pytest.Mark] = []

    def add_marker(self, marker: pytest.MarkDecorator) -> None:
        self.marks.append(marker.mark)


def test_grouped_tests_carry_the_xdist_group_mark_and_free_ones_none() -> None:
    """Without the mark, `--dist loadgroup` would spread a group's tests over the workers."""
    window, free = Collected(TESTS / "e2e" / "test_ui_search.py"), Collected(Path(__file__))
    apply_groups([window, free])  # type: ignore[list-item]  # stand-ins for pytest.Item
    assert [(m.name, m.args) for m in window.marks] == [("xdist_group", (WINDOW,))]
    assert free.marks == []
