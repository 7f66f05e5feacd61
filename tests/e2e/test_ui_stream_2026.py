"""What the stream carries now, in the real window (issue 26), from tests/fakes/acp2026_stream.py:
the cost beside the context meter with the rate-limit windows in its tooltip, a compaction's
line with its summary folded, and a sub-agent nested in the tool card that runs it, with its
prompt, its own tool call (its permission asked and answered under it), its state and its reply.
Screenshots go to test-output/screenshots/stream-2026-*.png."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page

from tests.e2e.window import running_app

pytestmark = pytest.mark.e2e

FAKE = Path(__file__).resolve().parents[1] / "fakes" / "acp2026_stream.py"
CONVERSATION = "[data-testid=conversation][data-loaded=true]"
ANSWER = f"{CONVERSATION} [data-testid=message][data-role=agent]"
WAIT = 30_000  # ms


@pytest.fixture
def window(tmp_path: Path) -> Iterator[Page]:
    config = tmp_path / "stream.yaml"
    command = json.dumps([sys.executable, str(FAKE)])
    config.write_text(
        f"agents:\n  - name: streamer\n    title: Streamer\n    command: {command}\n",
        encoding="utf-8",
    )
    with running_app(["--config", str(config)], tmp_path / "app.log") as (page, _proc):
        page.set_viewport_size({"width": 1280, "height": 900})
        yield page


def send(page: Page, text: str) -> None:
    box = page.locator("[data-testid=composer-input]")
    box.fill(text)
    box.press("Escape")
    box.press("Enter")
    page.wait_for_function(
        "() => document.querySelector('[data-testid=composer-input]').value === ''"
    )


def test_cost_compaction_and_a_sub_agent_are_shown_where_they_belong(
    window: Page, shots: Path
) -> None:
    page = window
    page.locator("[data-testid=agent-item]", has_text="Streamer").click()
    page.wait_for_selector(CONVERSATION)

    send(page, "usage")
    cost = page.locator("[data-testid=usage] [data-testid=usage-cost]").first
    cost.wait_for(timeout=WAIT)
    assert cost.inner_text() == "$0.4213"
    page.wait_for_function(
        "() => (document.querySelector('[data-testid=usage]')?.title ?? '').includes('Weekly')",
        timeout=WAIT,
    )
    tip = page.locator("[data-testid=usage]").first.get_attribute("title") or ""
    assert "Cost of this conversation so far: $0.4213" in tip
    assert "5-hour limit: 42% used, resets" in tip
    assert "Weekly limit: 91% used, resets" in tip

    # Two messages of the agent (messageId m1, then m2, then m1 again: merged back): one break
    # between them, where the agent meant one.
    send(page, "messages")
    page.wait_for_function(
        "() => [...document.querySelectorAll('[data-testid=message][data-role=agent]')]"
        ".some((m) => m.innerText.includes('Second'))",
        timeout=WAIT,
    )
    answer = page.locator("[data-testid=message][data-role=agent]", has_text="Second").last
    assert answer.locator("[data-testid=message-break]").count() == 1
    assert "First again" in answer.inner_text().replace("\n", " ")

    send(page, "compact")
    line = page.locator(f"{ANSWER} [data-part=compaction][data-status=completed]")
    line.wait_for(timeout=WAIT)
    assert "Context compacted" in line.inner_text()
    assert not line.locator(".body").is_visible()  # folded
    line.locator("summary").click()
    assert "We fixed the parser; tests pass." in line.locator(".body").inner_text()

    send(page, "subagent")
    card = page.locator(f"{ANSWER} [data-part=tool]", has_text="Agent: Explore").last
    # the sub-agent's question is asked in its own tool call's card, first, above what the call
    # shows (as the agent's own calls ask theirs), the card open while it asks
    sub_call = card.locator("[data-part=subagent] [data-part=tool]", has_text="Read parser.py")
    prompt = sub_call.locator("[data-testid=tool-question] [data-testid=permission]")
    prompt.wait_for(timeout=WAIT)
    assert "Read parser.py" in prompt.inner_text()
    assert sub_call.get_attribute("open") is not None
    assert card.locator("[data-part=subagent] [data-testid=permission]").count() == 1
    question_box = sub_call.get_by_test_id("tool-question").bounding_box()
    body_box = sub_call.locator(".body").first.bounding_box()
    assert question_box and body_box and question_box["y"] < body_box["y"]
    prompt.locator("[data-option=yes]").click()
    sub = card.locator("[data-part=subagent][data-session=stream-child][data-state=idle]")
    sub.wait_for(timeout=WAIT, state="attached")
    if sub.get_attribute("open") is None:
        sub.locator("summary").first.click()
    assert sub.locator("[data-testid=subagent-state]").inner_text() == "done"
    assert "Find the parser" in sub.locator("[data-testid=subagent-prompt]").inner_text()
    assert "It is in src/parser.py" in sub.locator("[data-testid=subagent-reply]").inner_text()
    assert sub.locator("[data-part=tool]", has_text="Read parser.py").count() == 1
    # shown once: in its card, not again on its own
    assert page.locator(f"{ANSWER} [data-part=subagent]").count() == 1
    for theme in ("light", "dark"):
        page.evaluate("(t) => { document.documentElement.dataset.theme = t; }", theme)
        page.screenshot(path=str(shots / f"stream-2026-{theme}.png"))
