"""The real app in its window, offscreen, driven over CDP.

Linux only: the window runs on PyQt6 + QtWebEngine offscreen, installed on Linux alone
(requirements/app.txt), and Playwright reaches its page through QtWebEngine's remote debugging
port. The native windows of macOS (WKWebView) and Windows (WebView2) are covered by the packaged
app's self-test instead.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page

from tests.e2e.window import back_home, module_app, running_app, write_e2e_config

HERE = Path(__file__).resolve().parent
SHOTS = HERE.parents[1] / "test-output" / "screenshots"
WHY_LINUX = "the window under test is PyQt6/QtWebEngine offscreen, driven over its CDP port"


@pytest.hookimpl(tryfirst=True)  # before tests/conftest.py turns platform marks into skips
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test under tests/e2e is linux_only (hooks of this file see the whole session)."""
    for item in items:
        if HERE in item.path.resolve().parents:  # HERE is resolved (symlinks, macOS /var)
            item.add_marker(pytest.mark.linux_only(WHY_LINUX))


@pytest.fixture
def e2e_config(tmp_path: Path) -> Path:
    return write_e2e_config(tmp_path / "e2e.yaml")


@pytest.fixture
def window(e2e_config: Path, tmp_path: Path) -> Iterator[Page]:
    with running_app(["--config", str(e2e_config)], tmp_path / "app.log") as (page, _proc):
        yield page


@pytest.fixture(scope="module")
def module_window(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Page, Path]]:
    folder = tmp_path_factory.mktemp("module-window")
    config = write_e2e_config(folder / "e2e.yaml")
    with module_app(folder, ["--config", str(config)]) as (page, _proc):
        yield page, folder / "app.log"


@pytest.fixture
def reused_window(module_window: tuple[Page, Path]) -> Page:
    """`window`, one for the module's tests that each make what they use (their own channels,
    agents no other test of the module uses) and never change the configuration, the language
    or the window: reloaded before each test, which then finds the page as the app opened it
    (the backend keeps what earlier tests made)."""
    page, log = module_window
    return back_home(page, log)


@pytest.fixture
def shots() -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    return SHOTS
