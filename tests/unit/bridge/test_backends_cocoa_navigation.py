"""The navigation lock on the cocoa backend (macOS), on a stand-in for pywebview's BrowserView and
its BrowserDelegate (PyObjC and WebKit cannot run here; Python's `super` in place of objc.super):
the subclass put in the delegate's place answers WebKit's questions with
app/bridge/navigation.py's policy. On macOS, `python -m app --self-test` checks the real one."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from app.bridge import cocoa_navigation
from app.bridge.cocoa_navigation import CANCEL, LINK_ACTIVATED
from app.bridge.navigation import AppPage
from tests.waiting import wait_for

APP = AppPage("http://127.0.0.1:41234/index.html")
OTHER = 5  # WKNavigationTypeOther
ALLOW = 1


class BrowserDelegate:
    """pywebview's delegate, recording what reached it."""

    def __init__(self) -> None:
        self.reached: list[str] = []

    def webView_decidePolicyForNavigationAction_decisionHandler_(
        self, webview: Any, action: Any, handler: Any
    ) -> None:
        self.reached.append("decide")
        handler(ALLOW)

    def webView_createWebViewWithConfiguration_forNavigationAction_windowFeatures_(
        self, webview: Any, config: Any, action: Any, features: Any
    ) -> Any:
        raise AssertionError("pywebview's own handler opened the address")


@pytest.fixture
def delegate() -> BrowserDelegate:
    browser_view = SimpleNamespace(BrowserDelegate=BrowserDelegate)
    cocoa_navigation.lock(browser_view, super, lambda: APP)
    cocoa_navigation.lock(browser_view, super, lambda: APP)  # once is enough
    assert browser_view.BrowserDelegate.__mro__[1] is BrowserDelegate
    made: BrowserDelegate = browser_view.BrowserDelegate()
    return made


def action(url: str, kind: int = OTHER, main_frame: bool | None = True) -> Any:
    address = SimpleNamespace(absoluteString=lambda: url)
    frame = None if main_frame is None else SimpleNamespace(isMainFrame=lambda: main_frame)
    return SimpleNamespace(
        request=lambda: SimpleNamespace(URL=lambda: address),
        navigationType=lambda: kind,
        targetFrame=lambda: frame,
    )


def decide(delegate: BrowserDelegate, navigation: Any) -> list[int]:
    answers: list[int] = []
    delegate.webView_decidePolicyForNavigationAction_decisionHandler_(
        None, navigation, answers.append
    )
    return answers


def test_the_apps_own_pages_go_to_pywebviews_delegate(delegate: BrowserDelegate) -> None:
    assert decide(delegate, action("http://127.0.0.1:41234/index.html#inbox")) == [ALLOW]
    assert delegate.reached == ["decide"]


@pytest.mark.parametrize("url", ["https://evil.example/", "file:///etc/passwd", "about:blank"])
def test_a_refresh_or_a_script_leads_nowhere_else(
    delegate: BrowserDelegate, opened: list[str], url: str
) -> None:
    assert decide(delegate, action(url)) == [CANCEL]
    assert delegate.reached == []
    assert opened == []


def test_a_web_link_opens_in_the_system_browser(
    delegate: BrowserDelegate, opened: list[str]
) -> None:
    assert decide(delegate, action("https://example.org/", LINK_ACTIVATED)) == [CANCEL]
    wait_for(lambda: opened == ["https://example.org/"], 5, what="the system browser")


def test_a_frame_leads_nowhere_even_by_a_link(delegate: BrowserDelegate, opened: list[str]) -> None:
    navigation = action("https://example.org/", LINK_ACTIVATED, main_frame=False)
    assert decide(delegate, navigation) == [CANCEL]
    assert opened == []


def test_a_navigation_that_cannot_be_judged_is_refused(delegate: BrowserDelegate) -> None:
    broken = SimpleNamespace(request=lambda: None)  # no URL: AttributeError inside
    assert decide(delegate, broken) == [CANCEL]
    assert delegate.reached == []


def test_new_windows_never_open_and_only_web_addresses_go_out(
    delegate: BrowserDelegate, opened: list[str]
) -> None:
    create = delegate.webView_createWebViewWithConfiguration_forNavigationAction_windowFeatures_
    for url in ("https://example.org/new", "file:///Applications/Calculator.app", "x-apple.x:y"):
        assert create(None, None, action(url, LINK_ACTIVATED, main_frame=None), None) is None
    wait_for(lambda: opened == ["https://example.org/new"], 5, what="the system browser")
