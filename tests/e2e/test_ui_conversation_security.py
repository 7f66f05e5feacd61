"""Agent output is untrusted (DESIGN §4): a hostile agent (tests/fakes/xss_agent.py) answers with
XSS payloads everywhere it can, and nothing of it runs in the page, reaches the bridge, or
changes the configuration."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page

from tests.e2e.window import running_app, text_of

pytestmark = pytest.mark.e2e

XSS = str(Path(__file__).resolve().parents[1] / "fakes" / "xss_agent.py")
CONVERSATION = "[data-testid=conversation][data-loaded=true]"
TWO_FRAMES = "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))"

# Records every text of the agent's answer that was ever shown empty, waiting to be built
# (`data-filling`, ui parts/fillSoon.ts): a text of an answer under way is built at once.
WATCH_BLANKED = """() => {
  window.__blanked = [];
  const note = (e) => {
    const message = e.nodeType === 1 && e.closest('[data-role=agent]');
    if (!message) return;
    for (const f of [e, ...e.querySelectorAll('[data-filling]')])
      if (f.hasAttribute('data-filling'))
        window.__blanked.push(`${f.closest('[data-part]')?.dataset.part ?? f.tagName}`
                              + ` (message done: ${message.dataset.done})`);
  };
  new MutationObserver((records) => records.forEach((r) =>
      r.type === 'attributes' ? note(r.target) : r.addedNodes.forEach(note)))
    .observe(document.querySelector('[data-testid=messages]'), {
      subtree: true, childList: true, attributes: true, attributeFilter: ['data-filling'] });
}"""
ALL_BUILT = "() => !document.querySelector('[data-testid=conversation] [data-filling]')"

# Every bridge function is wrapped before the answer arrives; so is pywebview's own entry point
# (_jsApiCallback), which any call reaches, even one through a function saved earlier.
RECORD_BRIDGE = """() => {
  window.__calls = [];
  const api = window.pywebview.api;
  for (const [service, methods] of Object.entries(api)) {
    for (const [method, fn] of Object.entries(methods)) {
      methods[method] = (...args) => {
        window.__calls.push({ name: `${service}.${method}`, args: JSON.stringify(args) });
        return fn(...args);
      };
    }
  }
  const callback = window.pywebview._jsApiCallback;
  window.pywebview._jsApiCallback = (name, args, id) => {
    window.__calls.push({ name: `raw:${name}`, args: JSON.stringify(args) });
    return callback(name, args, id);
  };
  window.__csp = [];
  document.addEventListener('securitypolicyviolation',
    (e) => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));
}"""

# What the UI itself calls while a conversation is shown and answered.
UI_CALLS = {
    "ChannelService.Conversation",
    "ChannelService.Prepare",
    "ChannelService.Commands",
    "ChannelService.Send",
    "ChannelService.AnswerPermission",
    "ChannelService.Direct",
    "ChannelService.List",
    "ChannelService.Older",
    "AgentService.List",
    "AgentService.Logs",
    "ConfigService.Current",
}

INSPECT_DOM = """(root) => {
  const scope = document.querySelector(root);
  const all = [...scope.querySelectorAll('*')];
  const handlers = all.flatMap((e) => [...e.attributes]
      .filter((a) => a.name.toLowerCase().startsWith('on'))
      .map((a) => `${e.tagName}[${a.name}]`));
  const urls = all.flatMap((e) => ['href', 'src', 'action', 'formaction', 'data', 'xlink:href']
      .map((n) => e.getAttribute(n)).filter((v) => v !== null)
      .map((v) => `${e.tagName} ${v}`));
  const links = [...scope.querySelectorAll('a[href]')].map((a) => ({
      href: a.getAttribute('href'), target: a.target, rel: a.rel }));
  return {
    forbidden: [...scope.querySelectorAll(`script, iframe, object, embed, style, form, input,
        base, meta, link, svg:not(.icon), math, template`)].map((e) => e.outerHTML.slice(0, 120)),
    handlers,
    urls,
    links,
    styled: [...scope.querySelectorAll('.markdown [style]')].length,
    ids: [...scope.querySelectorAll('.markdown [id], .markdown [name]')]
        .map((e) => e.outerHTML.slice(0, 80)),
    text: scope.textContent,
  };
}"""


@pytest.fixture
def hostile(tmp_path: Path) -> Iterator[tuple[Page, Path]]:
    config = tmp_path / "xss.yaml"
    config.write_text(
        "agents:\n  - name: xss\n    title: Hostile\n"
        f"    command: {json.dumps([sys.executable, XSS])}\n",
        encoding="utf-8",
    )
    with running_app(["--config", str(config)], tmp_path / "app.log") as (page, _proc):
        page.set_viewport_size({"width": 1280, "height": 860})
        yield page, config


def test_a_hostile_agent_cannot_run_script_or_reach_the_bridge(
    hostile: tuple[Page, Path], shots: Path
) -> None:
    page, config = hostile
    before = config.read_bytes()
    page.locator("[data-testid=agent-item]", has_text="Hostile").click()
    page.wait_for_selector(CONVERSATION)
    page.evaluate(RECORD_BRIDGE)
    page.evaluate(WATCH_BLANKED)

    # Its slash commands (description and hint are HTML) complete as text.
    box = page.locator("[data-testid=composer-input]")
    box.fill("/")
    completion = page.locator("[data-testid=completion]")
    completion.wait_for(timeout=30_000)
    assert "<script>window.__pwned=true" in completion.inner_text()

    box.fill("show me what you've got")
    box.press("Enter")
    prompt = page.locator("[data-testid=permission][data-state=pending]")
    prompt.wait_for(timeout=30_000)
    assert '<img src=x onerror="window.__pwned=true' in text_of(prompt)
    assert text_of(prompt.locator("[data-option=allow]")).startswith("<b onmouseover=")
    prompt.locator("[data-option=allow]").click()
    page.wait_for_selector(
        f"{CONVERSATION} [data-testid=message][data-role=agent][data-done=true]", timeout=30_000
    )

    # Everything that listens for events gets its chance: hover, focus, toggle, animation…
    page.evaluate(
        """() => {
          for (const e of document.querySelectorAll('[data-testid=conversation] *')) {
            for (const type of ['mouseover', 'mouseenter', 'focus', 'load', 'error', 'toggle',
                                'animationstart', 'pointerover']) {
              e.dispatchEvent(new Event(type));
            }
          }
        }"""
    )
    # The thought and the tool calls unfold: their content renders too.
    page.evaluate("() => document.querySelectorAll('details').forEach((d) => { d.open = true; })")
    page.locator(f"{CONVERSATION} [data-testid=messages]").evaluate("e => { e.scrollTop = 0; }")
    page.wait_for_function(ALL_BUILT, timeout=30_000)  # the person's message may wait its turn
    page.evaluate(TWO_FRAMES)
    assert page.evaluate("window.__blanked") == []

    assert page.evaluate("typeof window.__pwned") == "undefined"
    assert page.evaluate("typeof window.pywebview.api.ConfigService.Save") == "function"
    calls = page.evaluate("window.__calls")
    names = {c["name"] for c in calls if not c["name"].startswith("raw:")}
    assert names <= UI_CALLS, names - UI_CALLS
    assert not [c for c in calls if "pwned" in c["args"] or c["name"].endswith("Save")], calls
    # Nothing had to be stopped by the CSP: the sanitizer removed it first. (DOMPurify parses in
    # an inert document that inherits the CSP: a <base> there reports base-uri, harmlessly.)
    violations = page.evaluate("window.__csp")
    assert [v for v in violations if not v.startswith("base-uri")] == [], violations
    assert config.read_bytes() == before

    dom = page.evaluate(INSPECT_DOM, "[data-testid=conversation]")
    assert dom["forbidden"] == [], dom["forbidden"]
    assert dom["handlers"] == [], dom["handlers"]
    assert not [u for u in dom["urls"] if "javascript" in u.lower() or "data:text" in u.lower()]
    assert all(link["href"].startswith(("https:", "http:", "mailto:")) for link in dom["links"])
    assert all(
        link["target"] == "_blank" and link["rel"] == "noopener noreferrer" for link in dom["links"]
    )
    assert dom["styled"] == 0 and dom["ids"] == []
    assert page.locator(f"{CONVERSATION} .markdown .btn").count() == 0
    # The payloads did arrive, shown as text where they are text.
    text = dom["text"]
    for shown in (
        "markdown js link",
        "html js link",
        "hover me",
        "styled overlay",
        "clobbering",
        "fake app button",
        "permission: allow",
    ):
        assert shown in text, shown
    assert page.locator(f"{CONVERSATION} .code-block code").count() >= 2  # text and thought
    assert "<script>window.__pwned=true" in text  # the code block, the tool call, the plan
    assert "<svg onload=" in text  # the tool call's location
    page.locator(f"{CONVERSATION} [data-testid=messages]").evaluate(
        "e => { e.scrollTop = e.scrollHeight; }"
    )
    page.screenshot(path=str(shots / "conversation-security-light.png"))

    # The agent's log (its stderr carries a script tag too) is one click away: still inert.
    page.click("[data-testid=agent-details]")
    page.wait_for_selector("[data-testid=agents-panel]")
    page.evaluate(TWO_FRAMES)
    assert page.evaluate("typeof window.__pwned") == "undefined"
    assert page.locator("[data-testid=agents-panel] script").count() == 0
    assert config.read_bytes() == before
