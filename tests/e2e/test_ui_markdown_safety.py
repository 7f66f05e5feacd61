"""Raw HTML in a message never hides what follows it (#16 item 2), in the real window: the demo
agent echoes a message made of raw HTML that browsers treat specially (`<style>`, `<math>`,
`<script>`, `<svg>`, `<!--`, `<textarea>`, `<title>`, `<xmp>`, `<noscript>`, unclosed tags…),
each followed by a paragraph and a fenced code block. In the person's message and in the agent's
answer, every such paragraph and code block is on the page and visible, and the raw HTML shows
as its own text."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page

from tests.e2e.window import running_app

pytestmark = pytest.mark.e2e

CONVERSATION = "[data-testid=conversation][data-loaded=true]"
WAIT = 30_000  # ms

RAW_HTML = [
    "<style>.markdown, p, pre { display: none !important }",
    "<math><mi>x</mi>",
    "<script>document.body.remove()</script>",
    "<script>",
    "<svg><foreignObject><p>inside svg",
    "<!-- an unclosed comment",
    "<textarea>the rest would be a text box",
    "<title>the rest would be a title",
    "<xmp>the rest would be raw text",
    "<noscript><p>only without scripts",
    "<iframe srcdoc='x'>",
    "<plaintext>all the rest",
    "<div><b>unclosed tags",
    "<template><p>inert content",
]


def message() -> str:
    blocks = [
        f'{raw}\n\nParagraph {i} after the HTML.\n\n```python\nprint("code {i}")\n```'
        for i, raw in enumerate(RAW_HTML)
    ]
    return "/echo " + "\n\n".join(blocks) + "\n\nThe last line."


CHECK = """([selector, count]) => {
  const root = document.querySelector(selector);
  const visible = (e) => !!e && e.checkVisibility() && e.getBoundingClientRect().height > 0;
  const paragraphs = [...root.querySelectorAll('.markdown p')];
  const codes = [...root.querySelectorAll('.markdown pre code')];
  const missing = [];
  for (let i = 0; i < count; i++) {
    const p = paragraphs.find((e) => e.textContent.trim() === `Paragraph ${i} after the HTML.`);
    if (!visible(p)) missing.push(`paragraph ${i}`);
    const c = codes.find((e) => e.textContent === `print("code ${i}")`);
    if (!visible(c)) missing.push(`code ${i}`);
  }
  const last = paragraphs.find((e) => e.textContent.trim().endsWith('The last line.'));
  if (!visible(last)) missing.push('the last line');
  return {
    missing,
    text: root.textContent,
    foreign: [...root.querySelectorAll(`.markdown style, .markdown script, .markdown math,
        .markdown svg, .markdown textarea, .markdown title, .markdown xmp, .markdown noscript,
        .markdown iframe, .markdown plaintext, .markdown template, .markdown div:not(.code-block)`)]
        .map((e) => e.outerHTML.slice(0, 80)),
  };
}"""


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Page]:
    config = tmp_path / "markdown.yaml"
    config.write_text("agents:\n  - name: demo\n    builtin: demo\n", encoding="utf-8")
    with running_app(["--config", str(config)], tmp_path / "app.log") as (page, _proc):
        page.set_viewport_size({"width": 1280, "height": 860})
        yield page


def test_raw_html_shows_as_text_and_hides_nothing_after_it(app: Page, shots: Path) -> None:
    page = app
    page.locator("[data-testid=agent-item]", has_text="demo").click()
    page.wait_for_selector(CONVERSATION)
    box = page.locator("[data-testid=composer-input]")
    box.fill(message())
    box.press("Escape")  # closes the command completion, so Enter sends
    box.press("Enter")
    answer = f"{CONVERSATION} [data-testid=message][data-role=agent][data-done=true]"
    page.wait_for_selector(answer, timeout=WAIT)

    for selector in (f"{CONVERSATION} [data-testid=message][data-role=user]", answer):
        found = page.evaluate(CHECK, [selector, len(RAW_HTML)])
        assert found["missing"] == [], selector
        assert found["foreign"] == [], selector
        for raw in RAW_HTML:
            assert raw in found["text"], raw  # shown as text
    assert page.evaluate("() => document.body.isConnected")
    first_code = page.locator(answer).locator("pre code", has_text='print("code 0")')
    first_code.scroll_into_view_if_needed()
    page.screenshot(path=str(shots / "markdown-raw-html.png"))
