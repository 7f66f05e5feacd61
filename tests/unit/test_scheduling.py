"""The cut of the suite for pytest-xdist (tests/scheduling.py): every test file that opens the
app's real window is in the `window` group (one window at a time), and the packaged app's tests
are in one `package` group (one build per run)."""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

import pytest

from tests.scheduling import (
    PACKAGE,
    TESTS,
    WINDOW,
    WINDOW_LANES,
    GroupedScheduling,
    group_of,
    scope_of,
    window_files,
    window_lanes,
)

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


def scheduler(root: Path) -> GroupedScheduling:
    """The scheduler as xdist's controller holds it (its scope split needs only the rootdir)."""
    made = GroupedScheduling.__new__(GroupedScheduling)
    made.config = SimpleNamespace(rootpath=root)  # type: ignore[assignment]
    return made


def test_the_scheduler_makes_each_group_one_scope_and_leaves_modules_free() -> None:
    """xdist's schedule() cuts the collection into work units by _split_scope: a group is one
    unit (one worker, in order); any other module is a unit of its own."""
    root = TESTS.parent
    split = scheduler(root)._split_scope
    lanes = {f"{WINDOW}-{n + 1}" for n in range(WINDOW_LANES)}
    assert split("tests/e2e/test_ui_search.py::test_a") in lanes
    assert split("tests/e2e/test_bridge.py::TestX::test_b[1]") in lanes
    assert split("tests/e2e/test_bridge.py::test_c") == split("tests/e2e/test_bridge.py::test_d")
    assert split("tests/integration/test_self_test.py::test_c") in lanes
    assert split("tests/packaging/test_frozen_app.py::test_d") == PACKAGE
    assert split("tests/packaging/test_frozen_launcher.py::test_e") == PACKAGE
    assert split("tests/unit/test_house_rules.py::test_f") == "tests/unit/test_house_rules.py"
    assert scope_of(root, "tests/unit/test_house_rules.py::test_f") is None


def test_the_window_files_share_the_lanes_evenly_each_file_in_one(tmp_path: Path) -> None:
    files = window_files()
    assert TESTS.joinpath("e2e", "test_bridge.py").resolve() in files
    lanes = window_lanes(files, 2)
    assert sorted(lanes) == files and set(lanes.values()) == {f"{WINDOW}-1", f"{WINDOW}-2"}
    sizes = [
        sum(f.stat().st_size for f, lane in lanes.items() if lane == name)
        for name in sorted(set(lanes.values()))
    ]
    assert max(sizes) - min(sizes) <= max(f.stat().st_size for f in files)  # greedy's bound

    made = []
    for name, size in (("a", 900), ("b", 500), ("c", 400), ("d", 100)):
        made.append(tmp_path / f"test_{name}.py")
        made[-1].write_text("#" * size, encoding="utf-8")
    by_name = {path.stem: lane for path, lane in window_lanes(made, 2).items()}
    assert by_name == {
        "test_a": "window-1",
        "test_b": "window-2",
        "test_c": "window-2",
        "test_d": "window-1",
    }


def test_the_suite_uses_the_scheduler_for_the_default_distribution_only(
    pytestconfig: pytest.Config,
) -> None:
    from tests.conftest import pytest_xdist_make_scheduler

    other = SimpleNamespace(getvalue=lambda name: "loadfile")
    assert pytest_xdist_make_scheduler(other, None) is None  # type: ignore[arg-type]
    if pytestconfig.getvalue("numprocesses"):  # under xdist: the real configuration
        made = pytest_xdist_make_scheduler(pytestconfig, None)
        assert pytestconfig.getvalue("dist") != "load" or isinstance(made, GroupedScheduling)
