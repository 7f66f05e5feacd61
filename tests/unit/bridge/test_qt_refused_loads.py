"""Qt: a refused navigation keeps the page's bridge; a first load Qt reports as unfinished still
gets it (app/bridge/qt_navigation.keep_the_bridge_on_refused_loads)."""

from __future__ import annotations

from typing import Any

from app.bridge.qt_navigation import keep_the_bridge_on_refused_loads


def stand_in_view() -> Any:
    """pywebview's BrowserView as far as the patch sees it: on_load_finished injects."""

    class BrowserView:
        def __init__(self) -> None:
            self.injected = 0

        def on_load_finished(self) -> None:
            self.injected += 1

    keep_the_bridge_on_refused_loads(BrowserView)
    return BrowserView()


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
