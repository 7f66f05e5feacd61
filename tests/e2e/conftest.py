"""The real app in its window, offscreen, driven over CDP.

Linux only: the window runs on PyQt6 + QtWebEngine offscreen, installed on Linux alone
(requirements/app.txt), and Playwright reaches its page through QtWebEngine's remote debugging
port. The native windows of macOS (WKWebView) and Windows (WebView2) are covered by the packaged
app's self-test instead.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page

from tests.agents import agent_yaml
from tests.e2e.window import running_app
from tests.processes import MARKER, left_running

HERE = Path(__file__).resolve().parent
SHOTS = HERE.parents[1] / "test-output" / "screenshots"
WHY_LINUX = "the window under test is PyQt6/QtWebEngine offscreen, driven over its CDP port"


@pytest.hookimpl(tryfirst=True)  # before tests/conftest.py turns platform marks into skips
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test under tests/e2e is linux_only (hooks of this file see the whole session)."""
    for item in items:
        if HERE in item.path.resolve().parents:  # HERE is resolved (symlinks, macOS /var)
            item.add_marker(pytest.mark.linux_only(WHY_LINUX))


def write_e2e_config(path: Path) -> Path:
    path.write_text(
        "agents:\n  - name: demo\n    builtin: demo\n"
        + agent_yaml("alpha")
        + agent_yaml("crashy", "exit-after-init"),
        encoding="utf-8",
    )
    return path


@pytest.fixture
def e2e_config(tmp_path: Path) -> Path:
    return write_e2e_config(tmp_path / "e2e.yaml")


@pytest.fixture
def window(e2e_config: Path, tmp_path: Path) -> Iterator[Page]:
    with running_app(["--config", str(e2e_config)], tmp_path / "app.log") as (page, _proc):
        yield page


@pytest.fixture(scope="module")
def shared_window(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Page]:
    """`window`, one for the module's tests that only read: none sends, creates, starts or
    stops anything, saves, reloads, or changes the configuration, the language or the page (a
    test that does takes `window`). It saves a window's start per test that takes it.

    Made before any test's own fixtures, so it gets what tests/conftest.py gives each test
    itself: a user config folder of its own and a process mark, checked when the module ends."""
    folder = tmp_path_factory.mktemp("shared-window")
    user = folder / "user-config"
    user.mkdir()
    mark = uuid.uuid4().hex
    env = {
        "XDG_CONFIG_HOME": str(user),
        "SIDEKICKS_SECRETS_DIR": str(user / "sidekicks" / "secrets"),
        "SIDEKICKS_DEMO_DELAY": "0",
        MARKER: mark,
    }
    config = write_e2e_config(folder / "e2e.yaml")
    with running_app(["--config", str(config)], folder / "app.log", env) as (page, _proc):
        yield page
    left = left_running(mark, "the window's processes")
    if left:
        pytest.fail(f"the shared window left processes running: {left}")


@pytest.fixture
def shots() -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    return SHOTS
