"""Models offered the older way and errors in words (issue 26), in the real window, with a fake
agent speaking like gemini-cli 0.61 (tests/fakes/acp2026_models.py `gemini`: modes, and its
models only in the `models` field, set with `session/set_model`; it answers with its settings).
The header's model picker lists its models, a pick reaches the agent (its next answer says so);
a failed answer says the agent's sentence with the rest in a "Details" fold (screenshots in
test-output/screenshots/models-*.png)."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page

from tests.e2e.window import api, running_app

pytestmark = pytest.mark.e2e

FAKE = Path(__file__).resolve().parents[1] / "fakes" / "acp2026_models.py"
CONVERSATION = "[data-testid=conversation][data-loaded=true]"
MESSAGE = f"{CONVERSATION} [data-testid=message]"
PICKERS = "[data-testid=conversation-header] [data-testid=session-pickers][data-agent=gemini]"
MODEL = f"{PICKERS} [data-picker='option:model']"
WAIT = 30_000  # ms: the agent starts, opens its session and answers within this
TWO_FRAMES = "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))"


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Page]:
    config = tmp_path / "models.yaml"
    command = json.dumps([sys.executable, str(FAKE), "gemini"])
    config.write_text(f"agents:\n  - name: gemini\n    command: {command}\n", encoding="utf-8")
    with running_app(["--config", str(config)], tmp_path / "app.log") as (page, _proc):
        page.set_viewport_size({"width": 1280, "height": 760})
        yield page


def shoot(page: Page, shots: Path, name: str) -> None:
    for theme in ("light", "dark"):
        page.evaluate("(t) => { document.documentElement.dataset.theme = t; }", theme)
        page.evaluate(TWO_FRAMES)
        page.screenshot(path=str(shots / f"models-{name}-{theme}.png"))
    page.evaluate("() => { document.documentElement.dataset.theme = 'light'; }")


def send(page: Page, text: str) -> int:
    """Sends `text`; how many agent messages there were before."""
    before = page.locator(f"{MESSAGE}[data-role=agent]").count()
    box = page.locator("[data-testid=composer-input]")
    box.fill(text)
    box.press("Escape")  # closes a completion opened by @ or /, so Enter sends
    box.press("Enter")
    return before


def ask(page: Page, text: str) -> str:
    """Sends `text` and returns the agent's answer to it, once finished."""
    selector = f"{MESSAGE}[data-role=agent]"
    answer = page.wait_for_function(
        f"""(n) => {{
            const m = document.querySelectorAll('{selector}')[n];
            return m && m.dataset.done === 'true' && m.querySelector('.markdown')?.textContent
                && m.textContent.split(/\\s+/).join(' ').trim();
        }}""",
        arg=send(page, text),
        timeout=WAIT,
    )
    return str(answer.json_value())


def test_the_models_of_the_models_field_are_picked_in_the_header_and_reach_the_agent(
    app: Page, shots: Path
) -> None:
    page = app
    page.locator("[data-testid=agent-item]", has_text="gemini").click()
    page.wait_for_selector(CONVERSATION)
    channel = str(page.get_attribute(CONVERSATION, "data-channel"))
    assert "model=auto-gemini-2.5" in ask(page, "hello")

    page.wait_for_selector(MODEL, timeout=WAIT)
    assert page.get_attribute(MODEL, "aria-label") == "Model of gemini: Auto (Gemini 2.5)"
    page.click(MODEL)
    menu = page.locator("[data-testid=session-menu]")
    values = menu.locator("[role=menuitemradio]").evaluate_all(
        "els => els.map(e => e.dataset.value)"
    )
    assert values == [
        "auto-gemini-2.5",
        "gemini-2.5-pro",
        "gemini-2.5-flash",
        "gemini-2.5-flash-lite",
    ]
    assert "Let Gemini CLI decide" in menu.inner_text()
    shoot(page, shots, "menu")
    menu.locator("[role=menuitemradio][data-value='gemini-2.5-flash']").click()
    page.wait_for_function(
        """(sel) => {
            const e = document.querySelector(sel);
            return e && e.dataset.value === 'gemini-2.5-flash' && e.dataset.pending === 'false';
        }""",
        arg=MODEL,
        timeout=WAIT,
    )

    assert "model=gemini-2.5-flash" in ask(page, "and now?")
    session = api(page, "ChannelService", "Conversation", channel)["sessions"]["gemini"]
    assert session["options"][0]["value"] == "gemini-2.5-flash"


def test_a_failed_answer_says_the_sentence_and_folds_the_details(app: Page, shots: Path) -> None:
    page = app
    page.locator("[data-testid=agent-item]", has_text="gemini").click()
    page.wait_for_selector(CONVERSATION)

    send(page, "fail json")

    failure = page.locator(f"{MESSAGE}[data-role=agent] [data-testid=message-error]")
    failure.wait_for(timeout=WAIT)
    sentence = failure.locator("pre").first.inner_text()
    assert sentence.startswith("Request had invalid authentication credentials.")
    assert "{" not in sentence
    details = failure.locator("[data-testid=message-error-details]")
    assert details.get_attribute("open") is None  # folded
    assert details.locator("summary").inner_text() == "Details"
    details.locator("summary").click()
    assert '"status": "UNAUTHENTICATED"' in details.locator("pre").inner_text()
    shoot(page, shots, "error-details")
