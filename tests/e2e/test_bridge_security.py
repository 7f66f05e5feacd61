"""The page reaches the services' exposed methods and nothing else, and the window shows only the
app (issue #13, item 1): whatever name the page sends, whatever it navigates to or drops."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page

from tests.e2e.other_origin import OtherOrigin, opened, other_origin, system_browser
from tests.e2e.window import READY, api, back_home, module_app, write_e2e_config
from tests.waiting import wait_for

pytestmark = pytest.mark.e2e

# What pywebview's own functions do (window.pywebview.api.X.Y): register a callback for the
# answer, then send the name, the arguments and the callback's id.
CALL_BY_NAME = """([name, args]) => new Promise((resolve) => {
  const id = String(Math.random()).substring(2);
  const waiting = window.pywebview._returnValuesCallbacks;
  waiting[name] = waiting[name] || {};
  window.pywebview._checkValue(name,
      (value) => resolve({ value }),
      (error) => resolve({ kind: error.name, error: error.message }), id);
  window.pywebview._jsApiCallback(name, args, id);
  // A bound, not a wait: a call nobody answers leaves pywebview's promise pending forever.
  setTimeout(() => resolve({ unanswered: true }), 10000);
})"""

DROP = """([selector]) => {
  const dropped = new DataTransfer();
  dropped.items.add(new File(["<h1>dropped</h1>"], "dropped.html", { type: "text/html" }));
  dropped.setData("text/uri-list", "https://example.com/");
  const target = document.querySelector(selector);
  const prevented = {};
  for (const type of ["dragenter", "dragover", "drop"]) {
    const event = new DragEvent(type, { dataTransfer: dropped, bubbles: true, cancelable: true });
    target.dispatchEvent(event);
    prevented[type] = event.defaultPrevented;
  }
  return prevented;
}"""


@dataclass
class App:
    """The module's window and what it is watched through. Its tests share it: each begins by
    reloading the page and noting where the log and the browser's record end, so that what an
    earlier test made the window log or open never answers a later test's wait."""

    page: Page
    log: Path
    config: Path
    browser_record: Path
    elsewhere: OtherOrigin
    log_start: int = 0
    opened_start: int = 0

    def begin(self) -> App:
        back_home(self.page, self.log)
        self.log_start = self.log.stat().st_size
        self.opened_start = len(opened(self.browser_record))
        self.elsewhere.requested.clear()
        return self

    def logged(self, text: str) -> bool:
        with self.log.open("rb") as log:
            log.seek(self.log_start)
            return text in log.read().decode("utf-8", errors="replace")

    def opened_outside(self) -> list[str]:
        return opened(self.browser_record)[self.opened_start :]

    def mark_the_bridge(self) -> None:
        """Tags the page's bridge object: pywebview injecting its bridge again replaces it."""
        self.page.evaluate("window.pywebview.api.__marked = true")

    def still_on_the_app(self, home: str) -> None:
        assert self.page.evaluate("location.href") == home
        # The same bridge as before: a refused load does not make pywebview inject it again
        # (which would leave `pywebview.api` empty for a moment, calls failing meanwhile).
        assert self.page.evaluate("window.pywebview.api.__marked === true")
        assert api(self.page, "ConfigService", "Current")["path"] == str(self.config)


@pytest.fixture(scope="module")
def module_window(tmp_path_factory: pytest.TempPathFactory) -> Iterator[App]:
    """One window for the module: the page cannot take it away, so each test finds it as the
    app opened it once reloaded (`App.begin`)."""
    folder = tmp_path_factory.mktemp("bridge-security")
    config = write_e2e_config(folder / "e2e.yaml")
    record = folder / "opened-in-browser.txt"
    with (
        other_origin() as elsewhere,
        module_app(folder, ["--config", str(config)], system_browser(record)) as (page, _),
    ):
        yield App(page, folder / "app.log", config, record, elsewhere)


@pytest.fixture
def app(module_window: App) -> App:
    return module_window.begin()


def call_by_name(page: Page, name: str, args: Any) -> dict[str, Any]:
    outcome: dict[str, Any] = page.evaluate(CALL_BY_NAME, [name, args])
    return outcome


def test_only_the_exposed_methods_are_callable_whatever_name_the_page_sends(
    app: App, tmp_path: Path
) -> None:
    victim = tmp_path / "victim.txt"
    victim.write_text("the user's file\n", encoding="utf-8")
    config_before = app.config.read_bytes()
    hostile = {
        "ConfigService._store.path.write_text": ["agents: [\n"],
        "ConfigService._store.path.replace": [str(victim)],
        "ChannelService.List.__self__": [],
        "ConfigService.Current.__globals__": [],
        "ConfigService.Current.__call__": [],
        "__class__": [],
        "ConfigService": [],
        "ConfigService.NoSuchMethod": [],
        "pywebviewStateUpdate": {"key": "k", "value": 1},
        "pywebviewMoveWindow": [0, 0],
        "AgentService._core.stop": [],  # last: it would stop the backend
    }
    outcomes = {name: call_by_name(app.page, name, args) for name, args in hostile.items()}
    refused = {name: o.get("kind") == "BridgeRefusal" for name, o in outcomes.items()}
    assert all(refused.values()), outcomes
    assert (
        "cannot be called from the page"
        in outcomes["ConfigService._store.path.write_text"]["error"]
    )
    assert app.config.read_bytes() == config_before
    assert victim.read_text(encoding="utf-8") == "the user's file\n"
    assert api(app.page, "ConfigService", "Current")["path"] == str(app.config)
    # The exposed methods still answer through the same entry point.
    assert call_by_name(app.page, "ConfigService.Current", [])["value"]["path"] == str(app.config)


def test_a_call_id_cannot_smuggle_script_into_the_answer(app: App) -> None:
    smuggled = app.page.evaluate(
        """() => new Promise((resolve) => {
          window.__smuggled = false;
          const id = '"]; window.__smuggled = true; //';
          window.pywebview._jsApiCallback("ConfigService.NoSuchMethod", [], id);
          window.pywebview._jsApiCallback("ConfigService.Current", [], id);
          // Both calls are answered (or refused) long before a second call comes back.
          window.pywebview.api.ConfigService.Current().then(() => resolve(window.__smuggled));
        })"""
    )
    assert smuggled is False


# How a page could try to leave, and what the log shows when it is stopped: the lock's refusal,
# or Chromium's own (it refuses file: and data: pages to an http page before Qt is asked).
LEAVING = {
    "a meta refresh to another origin": (
        """(url) => document.head.append(Object.assign(document.createElement('meta'),
              { httpEquiv: 'refresh', content: '0;url=' + url }))""",
        "refused to navigate to {url}",
    ),
    "a custom scheme": ("() => { location = 'sidekicks-nowhere:run' }", "refused to navigate to"),
    "a file": (
        "() => { location = 'file:///etc/passwd' }",
        "Not allowed to load local resource: file:///etc/passwd",
    ),
    "a data: page": (
        "() => { location = 'data:text/html,<h1>data</h1>' }",
        "Not allowed to navigate top frame to data URL",
    ),
}


@pytest.mark.parametrize("how", LEAVING)
def test_the_page_cannot_take_the_window_away_from_the_app(app: App, how: str) -> None:
    script, stopped = LEAVING[how]
    home = app.page.evaluate("location.href")
    url = app.elsewhere.url()
    app.mark_the_bridge()
    app.page.evaluate(script, url)
    wait_for(
        lambda: (
            app.logged(stopped.format(url=url))
            or app.elsewhere.requested
            or app.page.evaluate("location.href") != home
        ),
        timeout=15,
        what=f"{how} to be refused",
    )
    if "refused to navigate" in stopped:  # Qt refused it: its load ends, unfinished
        wait_for(lambda: app.logged("the page keeps its bridge"), timeout=15, what="the load end")
    app.still_on_the_app(home)
    assert app.elsewhere.requested == []


def test_a_web_address_the_page_goes_to_opens_in_the_system_browser(app: App) -> None:
    home = app.page.evaluate("location.href")
    outside = app.elsewhere.url("/from-a-link")
    app.mark_the_bridge()
    app.page.evaluate("(url) => { location = url }", outside)
    wait_for(lambda: app.opened_outside(), timeout=15, what="the system browser")
    assert app.opened_outside() == [outside]
    app.still_on_the_app(home)
    assert app.elsewhere.requested == []


def test_new_windows_are_refused_and_only_web_links_open_outside(app: App) -> None:
    home = app.page.evaluate("location.href")
    app.mark_the_bridge()
    for address in ("sidekicks-nowhere:run", "smb://host/share"):
        app.page.evaluate("(url) => window.open(url)", address)
        wait_for(
            lambda a=address: app.logged(f"refused to open {a}") or a in app.opened_outside(),
            timeout=15,
            what=f"{address} to be refused",
        )
    link = app.elsewhere.url("/clicked")
    app.page.evaluate(
        """(url) => {
          const a = Object.assign(document.createElement('a'),
              { href: url, target: '_blank', textContent: 'outside', id: 'outside-link' });
          Object.assign(a.style, { position: 'fixed', left: '0', top: '0', zIndex: 9999 });
          document.body.append(a);
        }""",
        link,
    )
    app.page.click("#outside-link")  # a user's click on a link, as the UI renders them
    wait_for(lambda: link in app.opened_outside(), timeout=15, what="the system browser")
    assert app.opened_outside() == [link]
    assert [p.url for c in app.page.context.browser.contexts for p in c.pages] == [home]
    app.still_on_the_app(home)
    assert app.elsewhere.requested == []


def test_frames_from_elsewhere_never_load_even_without_the_csp(app: App) -> None:
    page = app.page
    frame = app.elsewhere.url("/framed")
    page.evaluate(
        """() => { window.__csp = []; document.addEventListener('securitypolicyviolation',
             (e) => window.__csp.push(e.violatedDirective)); }"""
    )
    page.evaluate(
        "(url) => document.body.append(Object.assign(document.createElement('iframe'),"
        " { src: url }))",
        frame,
    )
    wait_for(lambda: page.evaluate("window.__csp.includes('frame-src')"), timeout=15)
    # The Qt-level lock on its own: the page loaded again with its CSP ignored (until the test
    # ends: the module's next test gets the page under its CSP again).
    session = page.context.new_cdp_session(page)
    session.send("Page.setBypassCSP", {"enabled": True})
    try:
        page.reload()
        page.wait_for_selector(READY, timeout=30_000)
        page.evaluate(
            "(url) => document.body.append(Object.assign(document.createElement('iframe'),"
            " { src: url }))",
            frame,
        )
        wait_for(
            lambda: app.logged(f"refused to navigate to {frame}") or app.elsewhere.requested,
            timeout=15,
            what="the frame to be refused",
        )
    finally:
        session.send("Page.setBypassCSP", {"enabled": False})
        session.detach()
    assert app.elsewhere.requested == []
    assert api(page, "ConfigService", "Current")["path"] == str(app.config)


def test_dropping_a_file_or_a_link_on_the_window_does_not_navigate(app: App) -> None:
    page = app.page
    home = page.evaluate("location.href")
    app.mark_the_bridge()
    prevented = page.evaluate(DROP, ["body"])
    assert prevented["dragover"] and prevented["drop"], prevented
    # A zone a component marks for drops (attachments, #15) receives them untouched.
    page.evaluate(
        "() => document.body.append(Object.assign(document.createElement('div'), { id: 'zone' }))"
    )
    page.evaluate("() => document.getElementById('zone').setAttribute('data-drop-zone', '')")
    assert page.evaluate(DROP, ["#zone"]) == {"dragenter": False, "dragover": False, "drop": False}
    app.still_on_the_app(home)


def test_text_dragged_into_a_text_field_is_still_dropped_there(app: App) -> None:
    page = app.page
    home = page.evaluate("location.href")
    app.mark_the_bridge()
    page.evaluate(
        "() => document.body.append(Object.assign(document.createElement('textarea'),"
        " { id: 'field' }))"
    )
    prevented = page.evaluate(
        """() => {
          const text = new DataTransfer();
          text.setData('text/plain', 'some words');
          const event = new DragEvent('drop', { dataTransfer: text, bubbles: true,
              cancelable: true });
          document.getElementById('field').dispatchEvent(event);
          return event.defaultPrevented;
        }"""
    )
    assert prevented is False
    app.still_on_the_app(home)
