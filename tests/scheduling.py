"""How the suite is cut for pytest-xdist (`./scripts/test` runs `pytest -n auto --dist loadgroup`;
docs/testing.md, "Running the suite in parallel").

Two kinds of tests must not be spread over the workers:
- `window`: every test that starts the app with its real window (Qt WebEngine: a browser, a
  renderer and a GPU process each). They run one at a time, on one worker, so that two windows
  never fight for the same cores while their pages load; the other workers run the tests that
  need no window meanwhile.
- `package`: the frozen app's tests, which share one build of scripts/package per run
  (tests/packaging/conftest.py); grouped, they run on one worker, in order, after that build.

Every other test is free: xdist hands it to whichever worker is idle. Without xdist the marks
change nothing.
"""

from __future__ import annotations

from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
WINDOW = "window"
PACKAGE = "package"

# Files whose tests start `python -m app` with its window (the e2e folder aside).
WINDOW_FILES = (
    TESTS / "integration" / "test_self_test.py",  # --self-test opens the window
    TESTS / "integration" / "test_signals.py",  # SIGTERM while the window opens
    TESTS / "bench" / "test_window_benchmarks.py",  # bench/'s window benchmarks, tiny
)
WINDOW_FOLDERS = (TESTS / "e2e",)
# The tests of the built app (scripts/package): one build per run, shared by these files.
PACKAGE_FILES = (
    TESTS / "packaging" / "test_frozen_app.py",
    TESTS / "packaging" / "test_frozen_launcher.py",
    TESTS / "packaging" / "test_gtk_variant.py",
    TESTS / "packaging" / "test_frozen_start_benchmark.py",
)


def group_of(path: Path) -> str | None:
    """The xdist group of the tests in the file at `path` (None: free)."""
    path = path.resolve()
    if path in PACKAGE_FILES:
        return PACKAGE
    if path in WINDOW_FILES or any(folder in path.parents for folder in WINDOW_FOLDERS):
        return WINDOW
    return None


def apply_groups(items: list[pytest.Item]) -> None:
    for item in items:
        group = group_of(Path(item.path))
        if group is not None:
            item.add_marker(pytest.mark.xdist_group(group))
