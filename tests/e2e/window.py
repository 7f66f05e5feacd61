"""Starting the real desktop app offscreen and driving its page with Playwright over CDP.

DESIGN §5: QtWebEngine's remote debugging port (QTWEBENGINE_REMOTE_DEBUGGING), poll
/json/version, `connect_over_cdp(..., no_defaults=True)` (without it Playwright fails on
Browser.setDownloadBehavior), use contexts[0].pages[0], and end the app process, not the browser.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Locator, Page, Playwright, sync_playwright

from tests.agents import agent_yaml
from tests.processes import MARKER, left_running

ROOT = Path(__file__).resolve().parents[2]
READY = "[data-ready=true]"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# The tests' windows ask for reduced motion (the UI honours it: app.css), unless a test is about
# motion (`motion=True`: the frames test, the benchmarks). Offscreen, every frame an animation
# draws is copied whole by Qt's software renderer in the app's process: a 16 px spinner costs
# about a third of a core, and spinners run while most tests wait on an agent (docs/testing.md).
REDUCED_MOTION = "--force-prefers-reduced-motion"


def offscreen_env(port: int, motion: bool = False, **extra: str) -> dict[str, str]:
    env = {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "QTWEBENGINE_DISABLE_SANDBOX": "1",
        "QTWEBENGINE_REMOTE_DEBUGGING": f"127.0.0.1:{port}",
        **extra,
    }
    if not motion:
        flags = env.get("QTWEBENGINE_CHROMIUM_FLAGS", "")
        env["QTWEBENGINE_CHROMIUM_FLAGS"] = f"{flags} {REDUCED_MOTION}".strip()
    return env


def wait_for_cdp(port: int, proc: subprocess.Popen[bytes], timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"the app exited with {proc.returncode} before its window opened")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/json/version", timeout=1):
                return
        except OSError:
            time.sleep(0.05)  # polling the port until it answers
    raise AssertionError(f"no remote debugging on port {port} after {timeout}s")


def stop_app(proc: subprocess.Popen[bytes], timeout: float = 30) -> None:
    """SIGTERM closes the window as a user would (agents stopped); SIGKILL if it hangs."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)
            raise AssertionError("the app did not close within 30 s of SIGTERM") from None


@contextmanager
def running_app(
    args: list[str], log_path: Path, env: dict[str, str] | None = None, motion: bool = False
) -> Iterator[tuple[Page, subprocess.Popen[bytes]]]:
    """The app from source (`python -m app ARGS`), its page ready (reduced motion unless
    `motion`: offscreen_env)."""
    if not (ROOT / "ui" / "dist" / "index.html").is_file():
        raise AssertionError("ui/dist is not built: run ./scripts/setup (./scripts/test does)")
    command = [sys.executable, "-m", "app", *args]
    with running_command(command, log_path, env, motion) as started:
        yield started


@contextmanager
def running_frozen_app(
    executable: Path, args: list[str], log_path: Path, env: dict[str, str] | None = None
) -> Iterator[Page]:
    """The packaged app's executable, its page ready."""
    with running_command([str(executable), *args], log_path, env) as (page, _proc):
        yield page


def write_e2e_config(path: Path) -> Path:
    """The configuration of the `window` fixtures: the demo, a fake and a fake that crashes."""
    path.write_text(
        "agents:\n  - name: demo\n    builtin: demo\n"
        + agent_yaml("alpha")
        + agent_yaml("crashy", "exit-after-init"),
        encoding="utf-8",
    )
    return path


@contextmanager
def module_app(
    folder: Path,
    args: list[str],
    env: dict[str, str] | None = None,
    before_start: Callable[[], object] | None = None,
    motion: bool = False,
) -> Iterator[tuple[Page, subprocess.Popen[bytes]]]:
    """The app in its window for all the tests of a module (a module-scoped fixture's), in
    `folder`: one start instead of one per test.

    A module fixture is made before any test's own fixtures, so it gets here what
    tests/conftest.py gives each test: a user config folder of its own, the tests' environment
    (the demo agent without delay, no registry) and a process mark, checked when the module
    ends (the processes the app starts for a test are checked then, not after that test).
    `before_start` runs in that environment before the app starts (to seed its history)."""
    user = folder / "user-config"
    user.mkdir()
    mark = uuid.uuid4().hex
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_CONFIG_HOME", str(user))
        patch.setenv("APPDATA", str(user))
        patch.setenv("SIDEKICKS_SECRETS_DIR", str(user / "sidekicks" / "secrets"))
        for name in ("SIDEKICKS_CONFIG", "COLUMNS", "LINES"):
            patch.delenv(name, raising=False)
        patch.setenv("SIDEKICKS_DEMO_DELAY", "0")
        patch.setenv("SIDEKICKS_REGISTRY_URL", "off")
        patch.setenv(MARKER, mark)
        if before_start is not None:
            before_start()
        with running_app(args, folder / "app.log", env, motion) as started:
            yield started
    left = left_running(mark, "the window's processes")
    if left:
        pytest.fail(f"the module's window left processes running: {left}")


def back_home(page: Page, log_path: Path, size: tuple[int, int] | None = None) -> Page:
    """A shared window brought back to a known state for the next test: at `size` (width,
    height) when given, the page reloaded (what it showed, its dialogs and drafts gone; the
    backend keeps what earlier tests made), ready."""
    if size is not None:
        page.set_viewport_size({"width": size[0], "height": size[1]})
    page.reload()
    wait_until_ready(page, log_path)
    return page


_driver: Playwright | None = None


def driver() -> Playwright:
    """One Playwright driver (a node process) for the windows of a worker's window tests: starting
    one per window cost about a second each. tests/conftest.py ends it after the last of a run
    of window tests on a worker.

    It is started without the test's process mark (tests/processes.py): it outlives the test
    that started it on purpose, and `no_process_left_behind` would take it for a leftover."""
    global _driver
    if _driver is None:
        mark = os.environ.pop(MARKER, None)
        try:
            _driver = sync_playwright().start()
        finally:
            if mark is not None:
                os.environ[MARKER] = mark
    return _driver


def end_driver() -> None:
    global _driver
    if _driver is not None:
        _driver.stop()
        _driver = None


@contextmanager
def running_command(
    command: list[str], log_path: Path, env: dict[str, str] | None = None, motion: bool = False
) -> Iterator[tuple[Page, subprocess.Popen[bytes]]]:
    port = free_port()
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(
            command,
            cwd=ROOT,
            env=offscreen_env(port, motion, **(env or {})),
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        browser = None
        try:
            wait_for_cdp(port, proc)
            browser = driver().chromium.connect_over_cdp(
                f"http://127.0.0.1:{port}", no_defaults=True
            )
            page = browser.contexts[0].pages[0]
            wait_until_ready(page, log_path)
            yield page, proc
        finally:
            stop_app(proc)
            if browser is not None:
                # The app is gone: this only lets the driver forget the connection.
                with contextlib.suppress(PlaywrightError):
                    browser.close()


PAGE_STATE = """() => ({
  url: location.href,
  readyState: document.readyState,
  bridge: Object.keys((window.pywebview && window.pywebview.api) || {}),
  app: document.querySelector("[data-testid=app]") !== null,
})"""


def wait_until_ready(page: Page, log_path: Path, timeout_ms: int = 30_000) -> None:
    """Waits for the page's first Current() answer; if it never comes, the failure says what the
    page had (its address, its bridge) and what the app logged, so a rare stall can be read."""
    try:
        page.wait_for_selector(READY, timeout=timeout_ms)
    except PlaywrightError as error:
        try:
            state = page.evaluate(PAGE_STATE)
        except PlaywrightError as unreadable:
            state = f"unreadable: {unreadable}"
        logged = log_path.read_text(encoding="utf-8", errors="replace")[-4000:]
        raise AssertionError(
            f"the page was not ready within {timeout_ms} ms ({error.message.splitlines()[0]})\n"
            f"page: {state}\napp log (tail):\n{logged}"
        ) from None


RECORDER = """() => {
  if (window.__recorded) return;
  window.__recorded = [];
  const dispatch = window.__sidekicks.dispatch;
  window.__sidekicks.dispatch = (batch) => {
    for (const [name, payload] of batch) window.__recorded.push({ name, payload });
    dispatch(batch);
  };
}"""


def record_events(page: Page) -> None:
    """From now on, every event the page receives is also kept in window.__recorded."""
    page.evaluate(RECORDER)


def recorded(page: Page, name: str) -> list[dict[str, Any]]:
    events = page.evaluate("window.__recorded")
    return [e["payload"] for e in events if e["name"] == name]


def until(page: Page, predicate: str, arg: Any = None, timeout: float = 30) -> None:
    """Waits until the page's async `predicate(arg)` resolves truthy. Playwright's
    wait_for_function takes a returned promise itself as the truthy answer (it does not await
    it), so it cannot wait on the backend's answers: this polls instead."""
    deadline = time.monotonic() + timeout
    while not page.evaluate(predicate, arg):
        if time.monotonic() > deadline:
            raise AssertionError(f"not true within {timeout} s: {predicate}")
        time.sleep(0.05)  # polling the backend until the condition holds


def text_of(locator: Locator) -> str:
    """What an element holds, laid out or not: its textContent, white space collapsed.

    Not inner_text(): innerText is "" for a message the list has not laid out yet (messages
    are `content-visibility: auto`, and a new one is laid out only in a frame after it came,
    once the list has scrolled to it), which a loaded machine can leave for several frames."""
    return " ".join(str(locator.text_content()).split())


def api(page: Page, service: str, method: str, *args: Any) -> Any:
    """Calls a service from the page, as the UI does."""
    return page.evaluate(
        "([s, m, args]) => window.pywebview.api[s][m](...args)", [service, method, list(args)]
    )


def save_config(page: Page, text: str) -> None:
    """The configuration file holds `text`, saved through the app (so its theme and language
    apply) unless it already does; `text` must be valid."""
    if api(page, "ConfigService", "Content") != text:
        assert api(page, "ConfigService", "Save", text) == []


# A stylesheet of the test's own (constructed: the page's CSP governs <style> elements, not
# these) that spins one element without end; how many animations the page then runs.
_SPIN_ONE = """() => {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(`@keyframes sk-probe-turn { to { transform: rotate(1turn) } }
    .sk-probe { animation: sk-probe-turn 1s linear infinite }`);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
  const probe = Object.assign(document.createElement('div'), { className: 'sk-probe' });
  document.body.append(probe);
  const running = probe.getAnimations().length;
  probe.remove();
  document.adoptedStyleSheets = document.adoptedStyleSheets.filter((s) => s !== sheet);
  return running;
}"""


def animations_of_a_spinning_probe(page: Page) -> int:
    """0 where the page stops animations (reduced motion: app.css), 1 where it lets them run."""
    running: int = page.evaluate(_SPIN_ONE)
    return running


# The page's root says its idle warm-up of the message views is done (conversation/parts/warmUp.ts).
WARMED_UP = "() => document.documentElement.dataset.warmedUp === 'true'"

SHOWN_CONVERSATION = """(title) => !!document.querySelector(
  '[data-testid=conversation][data-loaded=true]')
  && (document.querySelector('#conversation-title')?.textContent ?? '').toLowerCase()
    .includes(title.toLowerCase())"""


def open_conversation(page: Page, row: str, title: str, timeout_ms: int = 30_000) -> None:
    """Clicks the first sidebar `row` (a selector) naming `title` and waits for that
    conversation: a shared window reloaded by `back_home` shows again the conversation last on
    screen, loaded already, while the click's own may still be opening (an agent's first
    conversation is made by the click). Waiting for any loaded conversation, a test typed into
    the previous one."""
    page.locator(row, has_text=title).first.click()
    page.wait_for_function(SHOWN_CONVERSATION, arg=title, timeout=timeout_ms, polling=50)
