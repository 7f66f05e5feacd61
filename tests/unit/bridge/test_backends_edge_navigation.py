"""The navigation lock on the edgechromium backend (Windows), on a stand-in for pywebview's
EdgeChrome class (WebView2 cannot run here): the handlers WebView2 calls decide with
app/bridge/navigation.py's policy. That the real class subscribes these handlers by attribute is
checked in its shipped source (test_backends.py)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from app.bridge import edge_navigation
from app.bridge.navigation import AppPage, is_app
from tests.waiting import wait_for

APP = AppPage("http://127.0.0.1:41234/index.html")


class EdgeChrome:
    """pywebview's handlers, recording that they ran."""

    def __init__(self) -> None:
        self.ran: list[str] = []

    def on_navigation_start(self, sender: Any, args: Any) -> None:
        self.ran.append("start")

    def on_new_window_request(self, sender: Any, args: Any) -> None:
        raise AssertionError("pywebview's own handler opened the address")

    def on_navigation_completed(self, sender: Any, args: Any) -> None:
        self.ran.append("bridge injected")


@pytest.fixture
def edge() -> EdgeChrome:
    locked = edge_navigation.locked(EdgeChrome, lambda: APP)
    assert edge_navigation.locked(locked, lambda: APP) is locked  # once is enough
    edge: EdgeChrome = locked()
    return edge


def starting(url: str, user: bool = False) -> SimpleNamespace:
    return SimpleNamespace(Uri=url, IsUserInitiated=user, Cancel=False)


def test_the_apps_own_pages_load(edge: EdgeChrome) -> None:
    args = starting("http://127.0.0.1:41234/index.html#settings")
    edge.on_navigation_start(None, args)
    assert args.Cancel is False
    assert edge.ran == ["start"]


@pytest.mark.parametrize(
    "url",
    [
        "https://evil.example/",
        "http://127.0.0.1:41235/",
        "file:///C:/Windows/win.ini",
        "about:blank",
    ],
)
def test_a_script_or_a_refresh_leads_nowhere_else(
    edge: EdgeChrome, opened: list[str], url: str
) -> None:
    args = starting(url, user=False)
    edge.on_navigation_start(None, args)
    assert args.Cancel is True
    assert edge.ran == []
    assert opened == []


def test_a_web_link_the_person_follows_opens_in_the_system_browser(
    edge: EdgeChrome, opened: list[str]
) -> None:
    args = starting("https://example.org/page", user=True)
    edge.on_navigation_start(None, args)
    assert args.Cancel is True
    wait_for(lambda: opened == ["https://example.org/page"], 5, what="the system browser")


def test_a_link_to_a_file_opens_nothing(edge: EdgeChrome, opened: list[str]) -> None:
    args = starting("file:///C:/Users/me/secret.txt", user=True)
    edge.on_navigation_start(None, args)
    assert args.Cancel is True
    assert opened == []


def test_a_navigation_that_cannot_be_judged_is_refused(edge: EdgeChrome) -> None:
    class Broken:
        Cancel = False

        @property
        def Uri(self) -> str:
            raise RuntimeError("COM error")

    args = Broken()
    edge.on_navigation_start(None, args)
    assert args.Cancel is True
    assert edge.ran == []


def test_new_windows_never_open_and_only_web_addresses_go_to_the_browser(
    edge: EdgeChrome, opened: list[str]
) -> None:
    for url in ("https://example.org/", "file:///C:/x.exe", "ms-settings:privacy", "javascript:1"):
        args = SimpleNamespace(Uri=url, Handled=False)
        edge.on_new_window_request(None, args)
        assert args.Handled is True
    wait_for(lambda: opened == ["https://example.org/"], 5, what="the system browser")


def test_once_a_load_happened_a_cancelled_one_keeps_the_pages_bridge(edge: EdgeChrome) -> None:
    edge.on_navigation_completed(None, SimpleNamespace(IsSuccess=True))
    assert edge.ran == ["bridge injected"]
    edge.on_navigation_completed(None, SimpleNamespace(IsSuccess=False))  # cancelled above
    assert edge.ran == ["bridge injected"]


def test_a_first_load_reported_unfinished_still_gets_the_bridge(edge: EdgeChrome) -> None:
    edge.on_navigation_completed(None, SimpleNamespace(IsSuccess=False))
    assert edge.ran == ["bridge injected"]  # else the page would wait for it forever


def test_without_the_ui_the_notice_webview2_shows_as_about_blank_is_the_app() -> None:
    notice = AppPage(None, own_html=True)
    assert is_app("about:blank", notice)
    assert not is_app("about:blank", APP)


def test_the_lock_is_installed_on_windows_only(monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    monkeypatch.setattr(sys, "platform", "linux")
    edge_navigation.install(lambda: APP)  # would import webview.platforms.edgechromium (clr)
