"""The navigation lock's policy: the window loads the app's own pages only; web links open in the
system browser; every other address goes nowhere."""

from __future__ import annotations

import pytest

from app.bridge.navigation import AppPage, Verdict, for_a_new_window, for_the_window, is_app

SERVED = AppPage("http://127.0.0.1:41234/index.html")
FILE = AppPage("file:///opt/sidekicks/ui/dist/index.html")
NOTICE = AppPage(None, own_html=True)  # the UI is not built: the app shows its own notice

ELSEWHERE = [
    "http://127.0.0.1:41235/index.html",  # another port is another origin
    "http://localhost:41234/index.html",
    "https://127.0.0.1:41234/index.html",
    "http://127.0.0.1.evil.example:41234/",
    "http://evil.example/?http://127.0.0.1:41234/",
    "http://127.0.0.1:41234@evil.example/",
    "file:///etc/passwd",
    "data:text/html,<script>alert(1)</script>",
    "javascript:alert(1)",
    "blob:http://evil.example/1",
    "about:blank",
    "smb://host/share",
    "sidekicks-nowhere:run",
    "",
]


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:41234/index.html",
        "http://127.0.0.1:41234/index.html#settings",
        "http://127.0.0.1:41234/assets/index.js",
        "HTTP://127.0.0.1:41234/",
    ],
)
def test_pages_of_the_apps_origin_load(url: str) -> None:
    assert for_the_window(url, SERVED, main_frame=True, link=False) is Verdict.LOAD
    assert for_the_window(url, SERVED, main_frame=False, link=False) is Verdict.LOAD


@pytest.mark.parametrize("url", ELSEWHERE)
def test_nothing_else_loads_in_the_window_or_in_a_frame(url: str) -> None:
    for main_frame in (True, False):
        for link in (True, False):
            verdict = for_the_window(url, SERVED, main_frame=main_frame, link=link)
            assert verdict is not Verdict.LOAD, (url, main_frame, link)


@pytest.mark.parametrize("url", ["https://example.com/", "http://example.com/a", "mailto:a@b.c"])
def test_a_link_of_the_page_to_the_web_opens_outside(url: str) -> None:
    assert for_the_window(url, SERVED, main_frame=True, link=True) is Verdict.OPEN_OUTSIDE
    assert for_a_new_window(url) is Verdict.OPEN_OUTSIDE


@pytest.mark.parametrize("url", ["https://example.com/", "http://example.com/a"])
def test_a_web_page_that_is_no_link_is_refused(url: str) -> None:
    """Forms, redirects, meta refreshes and frames of the web load nowhere."""
    assert for_the_window(url, SERVED, main_frame=True, link=False) is Verdict.REFUSE
    assert for_the_window(url, SERVED, main_frame=False, link=True) is Verdict.REFUSE


@pytest.mark.parametrize(
    "url",
    [
        "file:///etc/passwd",
        "smb://host/share",
        "sidekicks-nowhere:run",
        "javascript:alert(1)",
        "data:text/html,x",
        "http:///nohost",
        "about:blank",
    ],
)
def test_other_addresses_are_never_handed_to_the_system(url: str) -> None:
    assert for_a_new_window(url) is Verdict.REFUSE
    assert for_the_window(url, SERVED, main_frame=True, link=True) is Verdict.REFUSE


def test_a_file_url_app_loads_its_own_folder_only() -> None:
    assert is_app("file:///opt/sidekicks/ui/dist/index.html", FILE)
    assert is_app("file:///opt/sidekicks/ui/dist/assets/index.js", FILE)
    assert not is_app("file:///opt/sidekicks/ui/dist/../../secret.html", FILE)
    assert not is_app("file:///opt/sidekicks/ui/dist%2F..%2F..%2Fsecret.html", FILE)
    assert not is_app("file:///opt/sidekicks/ui/distant/index.html", FILE)
    assert not is_app("file:///etc/passwd", FILE)
    assert not is_app("http://127.0.0.1:41234/index.html", FILE)


def test_without_the_ui_the_window_shows_the_apps_notice_and_nothing_else() -> None:
    assert is_app("data:text/html;charset=UTF-8,%3Ch1%3E", NOTICE)
    assert not is_app("http://127.0.0.1:41234/index.html", NOTICE)
    assert not is_app("file:///etc/passwd", NOTICE)
    assert not is_app("data:text/html,x", AppPage(None))
