"""The bridge script each backend injects, CSP-patched, run where strings never become code (node's
vm with code generation from strings off, as under the app's CSP without 'unsafe-eval'): the page's
call leaves through that backend's own channel, pywebview's real `js_bridge_call` (behind the
allow-list, with results.py's encoding) answers it, and the answer, run as it is (`run_js`),
resolves the page's promise with the model in camelCase. Unpatched, the same script cannot even
build the api, and pywebview's own eval-wrapped answer is refused."""

from __future__ import annotations

import inspect
import json
import queue
import shutil
import subprocess
import threading
from pathlib import Path
from typing import Any

import pytest
from webview import util

from app.bridge import allowlist, csp, results
from app.bridge.backends import BACKENDS, Backend
from app.core.expose import exposed
from app.models.problems import Problem

NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None, reason="node runs the injected script (ui/ needs it)")

HARNESS = r"""
// Runs pywebview's injected bridge for one platform in a context where strings never become code
// (like a page whose CSP has no 'unsafe-eval'); the Python test answers the call it sends.
const vm = require("vm");
const readline = require("readline");
const lines = readline.createInterface({ input: process.stdin });
const queue = [];
let waiting = null;
lines.on("line", (line) => (waiting ? (waiting(line), (waiting = null)) : queue.push(line)));
const next = () =>
  new Promise((resolve) => (queue.length ? resolve(queue.shift()) : (waiting = resolve)));
const say = (value) => process.stdout.write(JSON.stringify(value) + "\n");

(async () => {
  const input = JSON.parse(await next());
  const sent = [];
  const noop = () => {};
  const element = () =>
    ({ style: {}, setAttribute: noop, appendChild: noop, addEventListener: noop });
  const call = (funcName, params, id) => sent.push({ funcName, params: JSON.parse(params), id });
  const page = {
    console, setTimeout, clearTimeout, setInterval, clearInterval, EventTarget, Event, CustomEvent,
    Window: class {}, Node: class {},
    document: {
      head: element(), body: element(), documentElement: element(), createElement: element,
      addEventListener: noop, querySelectorAll: () => [], readyState: "complete",
    },
    // cocoa and gtkwebkit2, edgechromium, qtwebengine (its QWebChannel, made by finish.js)
    webkit: { messageHandlers: { jsBridge: { postMessage: (t) => sent.push(JSON.parse(t)) } } },
    chrome: { webview: { postMessage: (m) => call(m[0], m[1], m[2]) } },
    qt: { webChannelTransport: {} },
    location: { href: "http://127.0.0.1:8000/index.html" },
    QWebChannel: function (transport, ready) {
      ready({ objects: { external: { call } } });
    },
  };
  page.window = page;
  const events = new EventTarget();
  page.addEventListener = events.addEventListener.bind(events);
  page.removeEventListener = events.removeEventListener.bind(events);
  page.dispatchEvent = events.dispatchEvent.bind(events);
  const context = vm.createContext(page, { codeGeneration: { strings: false, wasm: false } });
  const run = (script) => {
    try {
      vm.runInContext(script, context);
      return null;
    } catch (err) {
      return `${err.name}: ${err.message}`;
    }
  };
  let ready = false;
  page.addEventListener("pywebviewready", () => (ready = true));
  const error = run(input.script) || run(input.finish);
  const api = page.pywebview && page.pywebview.api;
  const method = api && api[input.service] && api[input.service][input.method];
  if (error || typeof method !== "function") {
    say({ error: error || "no api function", ready });
    process.exit(0);
  }
  let promise;
  try {
    promise = method(...input.args);
  } catch (err) {
    say({ error: `${err.name}: ${err.message}`, ready });
    process.exit(0);
  }
  await new Promise((r) => setTimeout(r, 0));
  say({ sent, ready });
  const answer = JSON.parse(await next());
  const answerError = run(answer.script);
  const outcome = await Promise.race([
    promise.then((value) => ({ value }), (e) => ({ rejected: `${e.name}: ${e.message}` })),
    new Promise((r) => setTimeout(() => r({ pending: true }), 300)),
  ]);
  say({ ...outcome, answerError });
  process.exit(0);
})();
"""


class Service:
    @exposed
    def Check(self, text: str, line: int) -> Problem:
        return Problem(line=line, column=2, message=f"it's \\ {text}")


class Api:
    def __init__(self) -> None:
        self.Service = Service()


class PageWindow:
    """What pywebview's script loader and `js_bridge_call` use of a window."""

    uid = "master"
    js_api_endpoint = None
    text_select = True
    zoomable = False
    draggable = False
    easy_drag = False
    frameless = False

    def __init__(self) -> None:
        self.state: dict[str, Any] = {}
        self._functions: dict[str, Any] = {}
        self._js_api = results.page_api(Api())  # what pywebview gets: answers in JSON text
        self.scripts: queue.Queue[str] = queue.Queue()

    def evaluate_js(self, script: str) -> None:
        self.scripts.put(script)


def injected(backend: Backend, window: PageWindow, patched: bool) -> tuple[str, str]:
    """The two scripts pywebview runs in the page (util.inject_pywebview), for that backend."""
    # csp.install wraps pywebview's loader (functools.wraps: the original is __wrapped__)
    load: Any = util.load_js_files if patched else inspect.unwrap(util.load_js_files)
    script, finish = load(window, backend.platform)
    functions = [{"func": "Service.Check", "params": ["text", "line"]}]
    return script, finish % {"functions": json.dumps(functions)}


class Page:
    """The harness in node: one JSON line in, one out, in turn."""

    def __init__(self, tmp_path: Path) -> None:
        harness = tmp_path / "harness.js"
        harness.write_text(HARNESS, encoding="utf-8")
        assert NODE is not None
        self.proc = subprocess.Popen(
            [NODE, str(harness)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        self._killer = threading.Timer(30, self.proc.kill)
        self._killer.start()

    def ask(self, value: dict[str, Any]) -> dict[str, Any]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(value) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        assert line, "the harness ended without answering"
        answer: dict[str, Any] = json.loads(line)
        return answer

    def close(self) -> None:
        self._killer.cancel()
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(10)


@pytest.fixture(autouse=True)
def installed(monkeypatch: pytest.MonkeyPatch) -> None:
    """csp.py installed for one test, pywebview's own loader put back afterwards (other tests
    call it)."""
    monkeypatch.setattr(util, "load_js_files", util.load_js_files)
    csp.install()


def round_trip(
    tmp_path: Path, backend: Backend, *, patched: bool = True, answer_as_is: bool = True
) -> tuple[dict[str, Any], dict[str, Any] | None]:
    window = PageWindow()
    script, finish = injected(backend, window, patched)
    page = Page(tmp_path)
    try:
        call = {"script": script, "finish": finish, "service": "Service", "method": "Check"}
        sent = page.ask({**call, "args": ["wrong", 7]})
        if "error" in sent:
            return sent, None
        (message,) = sent["sent"]
        gate = allowlist.guarded(util.js_bridge_call, allowlist.allowed_calls(window._js_api))  # type: ignore[arg-type]
        gate(window, message["funcName"], message["params"], message["id"])
        answer = window.scripts.get(timeout=5)
        if not answer_as_is:  # what pywebview's own Window.evaluate_js would send
            answer = f'var value = eval("{util.escape_string(answer)}");'
        return sent, page.ask({"script": answer})
    finally:
        page.close()


@pytest.mark.parametrize("backend", BACKENDS.values(), ids=BACKENDS.keys())
def test_the_patched_script_calls_through_the_backends_channel_and_gets_the_model(
    tmp_path: Path, backend: Backend
) -> None:
    sent, outcome = round_trip(tmp_path, backend)
    assert "error" not in sent, sent
    assert sent["ready"] is True  # finish.js announced the api (pywebviewready)
    assert sent["sent"][0]["funcName"] == "Service.Check"
    assert sent["sent"][0]["params"] == ["wrong", 7]
    assert outcome == {
        "value": {
            "line": 7,
            "column": 2,
            "message": "it's \\ wrong",
            "warning": False,
            "detail": "",
        },
        "answerError": None,
    }


@pytest.mark.parametrize("backend", BACKENDS.values(), ids=BACKENDS.keys())
def test_unpatched_the_script_cannot_build_the_api_without_eval(
    tmp_path: Path, backend: Backend
) -> None:
    sent, _ = round_trip(tmp_path, backend, patched=False)
    assert "Code generation from strings disallowed" in sent["error"]


@pytest.mark.parametrize("backend", BACKENDS.values(), ids=BACKENDS.keys())
def test_an_answer_wrapped_in_eval_as_pywebview_sends_it_is_refused(
    tmp_path: Path, backend: Backend
) -> None:
    _, outcome = round_trip(tmp_path, backend, answer_as_is=False)
    assert outcome is not None
    assert "Code generation from strings disallowed" in outcome["answerError"]
    assert outcome.get("pending") is True  # the page would wait forever: hence csp.without_eval


@pytest.mark.parametrize("backend", BACKENDS.values(), ids=BACKENDS.keys())
def test_the_loader_refuses_a_changed_script_naming_the_backend(
    monkeypatch: pytest.MonkeyPatch, backend: Backend
) -> None:
    monkeypatch.setattr(csp, "ORIGINAL", csp.ORIGINAL.replace("new Function", "Function"))
    with pytest.raises(csp.BridgePatchError, match=f"for the {backend.name} backend changed"):
        util.load_js_files(PageWindow(), backend.platform)  # type: ignore[arg-type]
