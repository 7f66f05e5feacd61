"""Shared fixtures: every test runs with its own user config dir (never the real ~/.config),
and no test may leave a process behind."""

from __future__ import annotations

import sys
import uuid
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import Any

import pytest

from app.i18n import set_language
from tests.platforms import apply_platform_marks
from tests.processes import MARKER, left_running
from tests.scheduling import WINDOW, GroupedScheduling, group_of


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    apply_platform_marks(items)


@pytest.hookimpl(optionalhook=True)  # an xdist hook: absent when xdist is not loaded
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> GroupedScheduling | None:
    """Which tests share a worker (tests/scheduling.py), for `-n`'s default distribution; an
    explicit `--dist` other than `load` keeps xdist's own."""
    return GroupedScheduling(config, log) if config.getvalue("dist") == "load" else None


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> Generator[None]:
    """The Playwright driver the windows share (tests/e2e/window.py) ends after the last of a
    run of window tests (their module fixtures torn down first): while it runs, its event loop
    counts as running on this thread, and a later test's asyncio.run() would refuse to start.
    Window modules that follow each other on a worker (its window lane) keep it: a driver's
    start is a node process, ~0.3 s of CPU."""
    try:
        return (yield)
    finally:
        if nextitem is None or group_of(nextitem.path) != WINDOW:
            window = sys.modules.get("tests.e2e.window")
            if window is not None:
                window.end_driver()


@pytest.fixture(autouse=True)
def user_config_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The folder app.paths.user_config_dir() gives during the test, on every platform: Linux
    honours $XDG_CONFIG_HOME, Windows $APPDATA, macOS ~/Library/Application Support (so $HOME
    moves into the test's folder there)."""
    folder = tmp_path / "user-config"
    folder.mkdir()
    monkeypatch.setenv("XDG_CONFIG_HOME", str(folder))
    monkeypatch.setenv("APPDATA", str(folder))
    if sys.platform == "darwin":
        home = tmp_path / "home"
        folder = home / "Library" / "Application Support"
        folder.mkdir(parents=True)
        monkeypatch.setenv("HOME", str(home))
    # Saved sign-in values go to a file in the test's folder, never to the real keychain.
    monkeypatch.setenv("SIDEKICKS_SECRETS_DIR", str(folder / "sidekicks" / "secrets"))
    monkeypatch.delenv("SIDEKICKS_CONFIG", raising=False)
    # pytest-xdist's workers have COLUMNS=80 and LINES=24: a program on a terminal the app
    # made would read them before the terminal's own size (shutil.get_terminal_size does).
    monkeypatch.delenv("COLUMNS", raising=False)
    monkeypatch.delenv("LINES", raising=False)
    monkeypatch.setenv("SIDEKICKS_DEMO_DELAY", "0")
    # The agent gallery never fetches the public ACP Registry in a test (nor does any app a
    # test starts): a test that wants one serves its own (tests/gallery_server.py).
    monkeypatch.setenv("SIDEKICKS_REGISTRY_URL", "off")
    set_language("en")
    yield folder
    set_language("en")


@pytest.fixture(autouse=True)
def no_process_left_behind(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Marks the environment every process started by the test inherits; fails the test if
    one of them is still running once the test is over (and kills it). Linux only: the marker is
    found in /proc/<pid>/environ (tests/processes.py); elsewhere the check is not made."""
    if not sys.platform.startswith("linux"):
        yield
        return
    mark = uuid.uuid4().hex
    monkeypatch.setenv(MARKER, mark)
    yield
    left = left_running(mark, "the test's processes to end")
    if left:
        pytest.fail(f"the test left processes running: {left}")
