"""Which pages the window may show: the app's own, nothing else (the navigation lock's policy).

pywebview gives its bridge to whatever page the window shows once it has loaded, so a page from
elsewhere — a link followed, `location = …`, a form, a meta refresh, a file dropped on the
window — would get the services. The window therefore loads only the app: pages from the origin
pywebview serves ui/dist from (or the app's folder, for a file URL), or, when the UI is not
built, the app's own notice (a data: URL). Frames follow the same rule (the CSP already refuses
them). A web address (http, https, mailto) that a link of the page leads to opens in the system
browser instead; any other address (file:, data:, custom schemes a desktop may hand to a program)
goes nowhere. The toolkit hooks that apply this policy are in qt_navigation.py.
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass
from enum import Enum
from urllib.parse import SplitResult, unquote, urlsplit

WEB_SCHEMES = frozenset({"http", "https", "mailto"})


class Verdict(Enum):
    LOAD = "load"
    OPEN_OUTSIDE = "open outside"
    REFUSE = "refuse"


@dataclass(frozen=True)
class AppPage:
    """Where the window shows the app from."""

    url: str | None  # the URL pywebview loads (its local server's, or a file URL)
    own_html: bool = False  # the window shows the app's own HTML (loaded as a data: URL)


def is_app(url: str, app: AppPage) -> bool:
    target = urlsplit(url)
    if app.url is None:  # the app's own HTML: a data: URL (Qt), about:blank (WebView2)
        return app.own_html and (target.scheme == "data" or url == "about:blank")
    home = urlsplit(app.url)
    if target.scheme != home.scheme:
        return False
    if home.scheme == "file":
        return _inside(unquote(target.path), posixpath.dirname(unquote(home.path)))
    return home.scheme in ("http", "https") and _origin(target) == _origin(home)


def for_the_window(url: str, app: AppPage, *, main_frame: bool, link: bool) -> Verdict:
    """A navigation of the window (its page, or a frame in it)."""
    if is_app(url, app):
        return Verdict.LOAD
    if main_frame and link and is_web(url):
        return Verdict.OPEN_OUTSIDE
    return Verdict.REFUSE


def for_a_new_window(url: str) -> Verdict:
    """A page asks for a new window (a target=_blank link, `window.open`): never in the app."""
    return Verdict.OPEN_OUTSIDE if is_web(url) else Verdict.REFUSE


def is_web(url: str) -> bool:
    parts = urlsplit(url)
    return parts.scheme in WEB_SCHEMES and (parts.scheme == "mailto" or bool(parts.hostname))


def _origin(parts: SplitResult) -> tuple[str, str, int | None]:
    default = {"http": 80, "https": 443}.get(parts.scheme)
    try:
        port = parts.port or default
    except ValueError:
        return (parts.scheme, "", -1)  # an invalid port matches nothing
    return (parts.scheme, (parts.hostname or "").lower(), port)


def _inside(path: str, folder: str) -> bool:
    path = posixpath.normpath(path)
    try:
        return posixpath.commonpath([path, folder]) == folder
    except ValueError:  # a relative path: not a page of the app
        return False
