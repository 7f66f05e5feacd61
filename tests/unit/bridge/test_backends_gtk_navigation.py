"""The navigation lock on the gtk backend (WebKitGTK), on stand-ins for pywebview's BrowserView
class and gi's WebKit2 (not installed here): WebKit's `decide-policy` question is answered with
app/bridge/navigation.py's policy. That the real class connects the handler by attribute is
checked in its shipped source (test_backends.py); the real window can check itself with
`SIDEKICKS_GUI=gtk python -m app --self-test`."""

from __future__ import annotations

from enum import Enum
from types import SimpleNamespace
from typing import Any

import pytest

from app.bridge import gtk_navigation
from app.bridge.navigation import AppPage
from tests.waiting import wait_for

APP = AppPage("http://127.0.0.1:41234/index.html")


class PolicyDecisionType(Enum):
    NAVIGATION_ACTION = 0
    NEW_WINDOW_ACTION = 1
    RESPONSE = 2


class NavigationType(Enum):
    LINK_CLICKED = 0
    FORM_SUBMITTED = 1
    OTHER = 5


WEBKIT = SimpleNamespace(PolicyDecisionType=PolicyDecisionType, NavigationType=NavigationType)


class Decision:
    def __init__(self, url: str, kind: NavigationType = NavigationType.OTHER) -> None:
        self.url = url
        self.kind = kind
        self.answer = ""

    def get_navigation_action(self) -> Any:
        request = SimpleNamespace(get_uri=lambda: self.url)
        return SimpleNamespace(get_request=lambda: request, get_navigation_type=lambda: self.kind)

    def ignore(self) -> None:
        self.answer = "ignore"


class BrowserView:
    """pywebview's handler, recording what reached it."""

    def __init__(self) -> None:
        self.reached: list[Any] = []

    def on_navigation(self, view: Any, decision: Any, decision_type: Any) -> bool | None:
        self.reached.append(decision_type)
        return None  # not handled: WebKit's default handler uses the decision


@pytest.fixture
def view() -> BrowserView:
    class Locked(BrowserView):
        pass

    gtk_navigation.lock(Locked, WEBKIT, lambda: APP)
    return Locked()


NAVIGATION = PolicyDecisionType.NAVIGATION_ACTION
NEW_WINDOW = PolicyDecisionType.NEW_WINDOW_ACTION


def test_the_apps_own_pages_go_to_pywebviews_handler(view: BrowserView) -> None:
    decision = Decision("http://127.0.0.1:41234/index.html#inbox")
    assert view.on_navigation(None, decision, NAVIGATION) is None
    assert decision.answer == ""
    assert view.reached == [NAVIGATION]


@pytest.mark.parametrize("url", ["https://evil.example/", "file:///etc/passwd", "about:blank"])
def test_a_refresh_or_a_script_leads_nowhere_else(
    view: BrowserView, opened: list[str], url: str
) -> None:
    decision = Decision(url, NavigationType.OTHER)
    assert view.on_navigation(None, decision, NAVIGATION) is True
    assert decision.answer == "ignore"
    assert view.reached == []
    assert opened == []


def test_a_web_link_opens_in_the_system_browser(view: BrowserView, opened: list[str]) -> None:
    decision = Decision("https://example.org/", NavigationType.LINK_CLICKED)
    assert view.on_navigation(None, decision, NAVIGATION) is True
    assert decision.answer == "ignore"
    wait_for(lambda: opened == ["https://example.org/"], 5, what="the system browser")


def test_a_new_window_never_opens_and_only_a_web_address_goes_out(
    view: BrowserView, opened: list[str]
) -> None:
    for url in ("https://example.org/new", "file:///home/me/.ssh/id_rsa", "vscode://x"):
        decision = Decision(url, NavigationType.LINK_CLICKED)
        assert view.on_navigation(None, decision, NEW_WINDOW) is True
        assert decision.answer == "ignore"
    assert view.reached == []
    wait_for(lambda: opened == ["https://example.org/new"], 5, what="the system browser")


def test_responses_stay_with_pywebview(view: BrowserView) -> None:
    view.on_navigation(None, object(), PolicyDecisionType.RESPONSE)
    assert view.reached == [PolicyDecisionType.RESPONSE]


def test_a_decision_that_cannot_be_judged_is_refused(view: BrowserView) -> None:
    class Broken(Decision):
        def get_navigation_action(self) -> Any:
            raise RuntimeError("gi error")

    decision = Broken("https://evil.example/")
    assert view.on_navigation(None, decision, NAVIGATION) is True
    assert decision.answer == "ignore"
