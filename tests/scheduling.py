"""How the suite is cut for pytest-xdist (`./scripts/test` runs `pytest -n <cores + 1>`;
docs/testing.md, "Running the suite in parallel").

Two kinds of tests must not be spread over the workers:
- `window`: every test that starts the app with its real window (Qt WebEngine: a browser, a
  renderer and a GPU process each). They run in WINDOW_LANES lanes, each on one worker, one
  window at a time, so that no more windows load at once than the lanes allow; the other
  workers run the tests that need no window meanwhile.
- `package`: the frozen app's tests, which share one build of scripts/package per run
  (tests/packaging/conftest.py); grouped, they run on one worker, in order, after that build.

Every other test module is free: xdist hands it to whichever worker is idle.

The cut is made by a scheduler of our own (`GroupedScheduling`, returned by the public hook
`pytest_xdist_make_scheduler` in tests/conftest.py), not by `xdist_group` marks: xdist 3.8's
`--dist loadgroup` renames each marked test's node id through `item._nodeid`, which pytest 9.2 no
longer reads (`Node.nodeid` is `str(self._id)`), so its groups were silently ignored and windows
and package builds ran on both workers at once. A scheduler sees only node ids, so it groups by
the file each id names, with the same table the guard test reads.
"""

from __future__ import annotations

import os
from pathlib import Path

from xdist.scheduler import LoadScopeScheduling

TESTS = Path(__file__).resolve().parent
WINDOW = "window"
PACKAGE = "package"
# Windows at once: each lane runs its windows one at a time, the lanes side by side. Two on two
# cores: with one lane the windows alone took the whole run (7.5 of its 8 minutes), the other
# workers idle after the first three.
WINDOW_LANES = int(os.environ.get("SIDEKICKS_TEST_WINDOW_LANES", "2"))  # to compare cuts

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


def window_files() -> list[Path]:
    found = [*WINDOW_FILES, *(f for d in WINDOW_FOLDERS for f in d.rglob("test_*.py"))]
    return sorted(path.resolve() for path in found)


def window_lanes(files: list[Path], lanes: int = WINDOW_LANES) -> dict[Path, str]:
    """Each window file's lane: the biggest files first, each to the lightest lane so far (a
    file's size stands for its tests' cost), so that the lanes end at about the same time."""
    load = [0] * lanes
    chosen: dict[Path, str] = {}
    for path in sorted(files, key=lambda f: (-f.stat().st_size, f)):
        lane = load.index(min(load))
        load[lane] += path.stat().st_size
        chosen[path] = f"{WINDOW}-{lane + 1}"
    return chosen


_LANES: dict[Path, str] = {}


def scope_of(root: Path, nodeid: str) -> str | None:
    """The scope of the test whose node id (relative to the rootdir `root`) is `nodeid`: its
    window lane, `package`, or None (free)."""
    path = (root / nodeid.split("::", 1)[0]).resolve()
    group = group_of(path)
    if group != WINDOW:
        return group
    if not _LANES:
        _LANES.update(window_lanes(window_files()))
    return _LANES.get(path, f"{WINDOW}-1")  # a file made since: the first lane


class GroupedScheduling(LoadScopeScheduling):
    """xdist's scope scheduling (a module's tests stay together, so its module fixtures are made
    once), with each window lane and the `package` group as scopes of their own. Biggest scopes
    go first: the lanes' workers take the windows while another builds the package and runs the
    rest, then each takes what is left."""

    def _split_scope(self, nodeid: str) -> str:
        return scope_of(self.config.rootpath, nodeid) or super()._split_scope(nodeid)
