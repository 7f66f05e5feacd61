"""`--self-test` (or $SIDEKICKS_SELF_TEST=1): the real window, on this system's own backend, proves
that the bridge works under the page's CSP, then closes; the exit code says how it went.

On macOS and Windows the window cannot be driven from outside like Qt over CDP on Linux, so the
app checks itself, from Python, with `run_js` (a script the host runs in the page: it adds no
bridge method and nothing the page can call):
1. pywebview injected the bridge (`loaded`) and the UI's event dispatcher exists;
2. the page's CSP is in force (an inline script added to the page does not run) and allows no
   eval (its meta has no 'unsafe-eval');
3. the page calls `ConfigService.Current` through its own `pywebview.api` (built by csp.py's
   patched script), and the answer arrives encoded by results.py (camelCase) through
   `evaluate_js` → `run_js` (csp.without_eval) and the allow-list;
4. an event pushed by the app's event pump reaches the UI's dispatcher;
5. the navigation lock: a meta refresh sends the page to another origin (elsewhere.py, which
   counts its requests), and 2 s later nothing asked for it, the page is the same and its bridge
   still answers.
Then the window closes and the app exits 0; any step missing after 30 s: exit 1 with the reason.
"""

from __future__ import annotations

import json
import logging
import os
import secrets
import threading
import time
from collections.abc import Callable
from typing import Any

from app.bridge.backends import Backend
from app.bridge.elsewhere import Elsewhere

log = logging.getLogger(__name__)

SELF_TEST_ENV = "SIDEKICKS_SELF_TEST"
# A file the verdict is also written to: a windowed app (Windows, a macOS bundle) has no stderr.
REPORT_ENV = "SIDEKICKS_SELF_TEST_REPORT"
TIMEOUT_SECONDS = 30.0
POLL_SECONDS = 0.1
# How long the pushed event may take to reach the page once its bridge call answered (within
# TIMEOUT_SECONDS): a test of a lost event sets it short rather than wait for the whole limit.
EVENT_SECONDS = TIMEOUT_SECONDS
CLOSE_SECONDS = 10.0  # after the verdict, how long the window may take to close before exit
EVENT = "sidekicks:self-test"

READY = "JSON.stringify(!!(window.__sidekicks && window.__sidekicks.dispatch && window.pywebview))"

START = """(function () {
  var s = window.__sidekicksSelfTest = {call: "pending", event: false, inline: "ran",
    eval: "allowed", meta: ""};
  var meta = document.querySelector('meta[http-equiv="Content-Security-Policy"]');
  s.meta = meta ? meta.getAttribute("content") : "";
  window.__sidekicksSelfTestInline = false;
  var el = document.createElement("script");
  el.textContent = "window.__sidekicksSelfTestInline = true";
  document.head.appendChild(el);
  el.remove();
  s.inline = window.__sidekicksSelfTestInline ? "ran" : "refused";
  try { (0, eval)("1"); } catch (e) { s.eval = "refused"; }
  var runtime = window.__sidekicks, dispatch = runtime.dispatch;
  runtime.dispatch = function (batch) {
    for (var i = 0; i < batch.length; i++)
      if (batch[i][0] === %(event)s && batch[i][1] && batch[i][1].nonce === %(nonce)s)
        s.event = true;
    return dispatch.apply(this, arguments);
  };
  window.pywebview.api.ConfigService.Current().then(function (v) {
    s.call = v && typeof v.path === "string" && "historyProblem" in v
      ? "ok" : "unexpected answer " + JSON.stringify(v).slice(0, 200);
  }, function (e) { s.call = "failed: " + (e && e.name) + ": " + (e && e.message); });
  return "started";
})()"""

STATE = "JSON.stringify(window.__sidekicksSelfTest || null)"

# The page is sent to another origin the way agent content could try it: a meta refresh (a
# script's `location = …` would count as the person's link here: host scripts carry a gesture,
# and a link opens in the system browser). The lock must refuse it; a refusal leaves no trace to
# wait for, so the page is watched for this long.
STAY_SECONDS = 2.0
LEAVE = """(function () {
  var s = window.__sidekicksSelfTest;
  s.again = "pending";
  window.addEventListener("pagehide", function () { s.left = true; });
  var meta = document.createElement("meta");
  meta.httpEquiv = "refresh";
  meta.content = "0;url=" + %(elsewhere)s;
  document.head.appendChild(meta);
  return "leaving";
})()"""
AGAIN = """(function () {
  var s = window.__sidekicksSelfTest;
  window.pywebview.api.ConfigService.Current().then(function (v) {
    s.again = v && typeof v.path === "string" ? "ok" : "unexpected answer";
  }, function (e) { s.again = "failed: " + (e && e.name) + ": " + (e && e.message); });
  return "asked";
})()"""


def requested(flag: bool) -> bool:
    return flag or os.environ.get(SELF_TEST_ENV, "") not in ("", "0")


def verdict(state: dict[str, Any] | None) -> str | None:
    """None when every step passed; otherwise what is still missing or wrong."""
    if not state:
        return "the self-test script did not run in the page"
    if state.get("inline") != "refused":
        return "the page's Content-Security-Policy is not in force (an inline script ran)"
    if "unsafe-eval" in str(state.get("meta", "")) or "script-src" not in str(state.get("meta")):
        return f"the page's CSP is not the app's strict one: {state.get('meta')!r}"
    if state.get("call") != "ok":
        return f"the page's bridge call did not answer: {state.get('call')}"
    if state.get("event") is not True:
        return "the pushed event did not reach the page"
    return None


class SelfTest:
    def __init__(
        self, window: Any, push: Callable[[str, dict[str, Any]], None], backend: Backend
    ) -> None:
        self._window = window
        self._push = push
        self._backend = backend
        self._nonce = secrets.token_hex(8)
        self._thread = threading.Thread(target=self._run, name="sidekicks-self-test", daemon=True)
        self.failure: str | None = "the self-test did not finish"
        self._last_resort: threading.Timer | None = None

    @property
    def exit_code(self) -> int:
        return 0 if self.failure is None else 1

    def start(self) -> None:
        self._thread.start()

    def finished(self) -> None:
        """The window closed: the app exits by itself."""
        if self._last_resort is not None:
            self._last_resort.cancel()

    def _run(self) -> None:
        started = time.monotonic()
        deadline = started + TIMEOUT_SECONDS
        try:
            self.failure = self._steps(deadline)
        except Exception as err:  # the verdict must be said whatever happened
            log.exception("self-test")
            self.failure = f"the self-test failed: {err}"
        seconds = time.monotonic() - started
        if self.failure is None:
            said = f"self-test passed on the {self._backend.name} backend in {seconds:.1f} s"
            log.info("%s", said)
        else:
            said = f"self-test failed on the {self._backend.name} backend: {self.failure}"
            log.error("%s", said)
        report(said)
        self._close()

    def _steps(self, deadline: float) -> str | None:
        window = self._window
        if not window.events.loaded.wait(max(0.0, deadline - time.monotonic())):
            return "the page never loaded pywebview's bridge"
        if not self._poll(lambda: _decoded(window.run_js(READY)) is True, deadline):
            return "the UI's event dispatcher never appeared"
        script = START % {"event": json.dumps(EVENT), "nonce": json.dumps(self._nonce)}
        if _decoded_text(window.run_js(script)) != "started":
            return "the self-test script did not start in the page"
        self._push(EVENT, {"nonce": self._nonce})
        state: dict[str, Any] | None = None
        answered_at: float | None = None

        def done() -> bool:  # passed, the call failed (nothing more will come), or no event
            nonlocal state, answered_at
            state = _decoded(window.run_js(STATE))
            call = state.get("call") if isinstance(state, dict) else None
            if call == "ok" and answered_at is None:
                answered_at = time.monotonic()
            waited = answered_at is not None and time.monotonic() - answered_at >= EVENT_SECONDS
            return verdict(state) is None or call not in ("pending", "ok") or waited

        self._poll(done, deadline)
        log.info("self-test in the page: %s", state)
        failure = verdict(state)
        if failure is None and "navigation" in self._backend.applies:
            failure = self._stays(deadline)
        return failure

    def _stays(self, deadline: float) -> str | None:
        """The navigation lock keeps the app's page, and its bridge, in the window."""
        window = self._window
        with Elsewhere() as elsewhere:
            window.run_js(LEAVE % {"elsewhere": json.dumps(elsewhere.url)})
            watch_until = min(deadline, time.monotonic() + STAY_SECONDS)
            left = self._poll(
                lambda: elsewhere.requests > 0 or not _still_here(window), watch_until
            )
        if left:
            return f"the window left the app's page for {elsewhere.url} (the navigation lock)"
        window.run_js(AGAIN)
        state: dict[str, Any] | None = None

        def answered() -> bool:
            nonlocal state
            state = _decoded(window.run_js(STATE))
            return not isinstance(state, dict) or state.get("again") != "pending"

        self._poll(answered, deadline)
        if not isinstance(state, dict):
            return "the window left the app's page after a refused navigation"
        if state.get("left") or state.get("again") != "ok":
            return f"after a refused navigation the bridge did not answer: {state.get('again')}"
        log.info("self-test: the window stayed on the app's page, its bridge answering")
        return None

    @staticmethod
    def _poll(condition: Callable[[], bool], deadline: float) -> bool:
        pause = threading.Event()
        while True:
            if condition():
                return True
            if time.monotonic() >= deadline:
                return False
            pause.wait(POLL_SECONDS)

    def _close(self) -> None:
        def last_resort() -> None:
            log.error("the window did not close: exiting (self-test %s)", self.exit_code)
            logging.shutdown()
            os._exit(self.exit_code)

        # Closing waits for the GUI thread; a window that never showed may never close.
        self._last_resort = threading.Timer(CLOSE_SECONDS, last_resort)
        self._last_resort.daemon = True
        self._last_resort.start()
        try:
            if self._window.events.shown.wait(CLOSE_SECONDS):
                self._window.destroy()
        except Exception:
            log.exception("could not close the window")


def report(said: str) -> None:
    """Writes `said` to $SIDEKICKS_SELF_TEST_REPORT, when set."""
    path = os.environ.get(REPORT_ENV)
    if not path:
        return
    try:
        with open(path, "w", encoding="utf-8") as report:
            report.write(said + "\n")
    except OSError as err:
        log.error("cannot write the self-test's report to %s: %s", path, err)


def _still_here(window: Any) -> bool:
    state = _decoded(window.run_js(STATE))
    return isinstance(state, dict) and not state.get("left")


def _decoded(value: Any) -> Any:
    """`run_js` answers with the script's value: our scripts give JSON text (a str; some backends
    already decode what looks like JSON)."""
    if isinstance(value, str):
        try:
            return json.loads(value)
        except ValueError:
            return value
    return value


def _decoded_text(value: Any) -> str:
    decoded = _decoded(value)
    return decoded if isinstance(decoded, str) else str(value)
