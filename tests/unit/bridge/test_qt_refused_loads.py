"""Qt: a refused navigation keeps the page's bridge; a first load Qt reports as unfinished still
gets it (app/bridge/qt_navigation.locked_browser_view, on a stand-in for pywebview's
BrowserView)."""

from __future__ import annotations

from typing import Any

from app.bridge.navigation import AppPage
from app.bridge.qt_navigation import locked_browser_view


def stand_in_view() -> Any:
    """pywebview's BrowserView as far as the patch sees it: on_load_finished injects."""

    class BrowserView:
        def __init__(self) -> None:
            self.injected = 0

        def on_load_finished(self) -> None:
            self.injected += 1

    locked = locked_browser_view(BrowserView, lambda: AppPage("http://127.0.0.1:1/index.html"))
    assert locked_browser_view(locked, lambda: AppPage(None)) is locked  # once is enough
    return locked()


def test_a_load_that_finished_gets_the_bridge() -> None:
    view = stand_in_view()
    view.on_load_finished(True)
    assert view.injected == 1


def test_after_a_finished_load_a_refused_one_keeps_the_pages_bridge() -> None:
    view = stand_in_view()
    view.on_load_finished(True)
    view.on_load_finished(False)  # a refused navigation: the app's page stayed
    assert view.injected == 1


def test_a_first_load_reported_unfinished_still_gets_the_bridge() -> None:
    view = stand_in_view()
    view.on_load_finished(False)  # Qt says so of a first load interrupted on a busy machine
    assert view.injected == 1
    view.on_load_finished(False)
    assert view.injected == 2  # until a load has finished, each one gets it
