"""How the suite is cut for pytest-xdist (`./scripts/test` runs `pytest -n auto`;
docs/testing.md, "Running the suite in parallel").

Two kinds of tests must not be spread over the workers:
- `window`: every test that starts the app with its real window (Qt WebEngine: a browser, a
  renderer and a GPU process each). They run one at a time, on one worker, so that two windows
  never fight for the same cores while their pages load; the other workers run the tests that
  need no window meanwhile.
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

from pathlib import Path

from xdist.scheduler import LoadScopeScheduling

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


def scope_of(root: Path, nodeid: str) -> str | None:
    """The group of the test whose node id (relative to the rootdir `root`) is `nodeid`."""
    return group_of(root / nodeid.split("::", 1)[0])


class GroupedScheduling(LoadScopeScheduling):
    """xdist's scope scheduling (a module's tests stay together, so its module fixtures are made
    once), with the `window` and `package` groups as two scopes of their own. Biggest scopes go
    first: one worker takes the windows while the others build the package and run the rest."""

    def _split_scope(self, nodeid: str) -> str:
        return scope_of(self.config.rootpath, nodeid) or super()._split_scope(nodeid)
