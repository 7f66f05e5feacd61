"""Hand-offs in the real window (issue 28): two agents in a channel that mention each other
hand work back and forth; the turn line says whose hand-off it is ("@bob, hand-off 1 of 2,
from @alice"); at the budget set from the channel header, a handoff-limit line with Continue,
which sends one more round. Screenshot: test-output/screenshots/handoffs.png."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.window import api, running_app, text_of

pytestmark = pytest.mark.e2e

FAKE = str(Path(__file__).resolve().parents[1] / "fakes" / "handoff_agent.py")
CONVERSATION = "[data-testid=conversation][data-loaded=true]"
ANSWERS = f"{CONVERSATION} [data-testid=message][data-role=agent][data-done=true]"
LIMIT = f"{CONVERSATION} [data-testid=message][data-code=handoff-limit]"
WAIT = 30_000  # ms
SHOTS = Path(__file__).resolve().parents[2] / "test-output" / "screenshots"


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Page]:
    # bob takes a moment over each answer (0.6 s), so that the turn line is seen while it
    # answers; session/cancel would end it at once.
    agents = {
        "alice": {"FAKE_SAY": "@bob please review ({n})"},
        "bob": {"FAKE_SAY": "@alice your turn ({n})", "FAKE_DELAY": "0.6"},
    }
    lines = ["agents:"]
    for name, env in agents.items():
        lines += [
            f"  - name: {name}",
            f"    command: {json.dumps([sys.executable, FAKE])}",
            f"    env: {json.dumps(env)}",
        ]
    config = tmp_path / "handoffs.yaml"
    config.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with running_app(["--config", str(config)], tmp_path / "app.log") as (page, _proc):
        page.set_viewport_size({"width": 1280, "height": 800})
        yield page


def test_two_agents_hand_off_within_the_budget_and_continue_goes_one_round_more(
    app: Page,
) -> None:
    page = app
    room = api(page, "ChannelService", "Create", "pair", "", ["alice", "bob"])
    page.locator("[data-testid=channel-item]", has_text="pair").click()
    page.wait_for_selector(f"{CONVERSATION}[data-channel='{room['id']}']")

    # The header's budget: 3 by default, set to 2 from its menu.
    budget = page.locator("[data-testid=handoff-budget]")
    expect(budget).to_have_attribute("data-value", "3")
    budget.click()
    page.locator("[data-testid=handoff-menu] [data-value='2']").click()
    expect(budget).to_have_attribute("data-value", "2")
    expect(budget).to_contain_text("Hand-offs: 2")

    box = page.locator("[data-testid=composer-input]")
    box.fill("@alice start")
    box.press("Enter")
    turn = page.locator("[data-testid=turn][data-answering=bob]")
    expect(turn).to_contain_text("@bob, hand-off 1 of 2, from @alice", timeout=WAIT)

    limit = page.locator(LIMIT)
    expect(limit).to_contain_text(
        "@alice asked @bob; the hand-off budget (2) is reached", timeout=WAIT
    )
    page.wait_for_selector(f"{CONVERSATION}[data-busy=false]", timeout=WAIT)
    expect(page.locator(ANSWERS)).to_have_count(3)  # alice, bob (1 of 2), alice (2 of 2)
    assert [a.get_attribute("data-agent") for a in page.locator(ANSWERS).all()] == [
        "alice",
        "bob",
        "alice",
    ]
    tag = page.locator(ANSWERS).nth(1).locator("[data-testid=handoff-tag]")
    expect(tag).to_have_text("hand-off 1 of 2, from @alice")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "handoffs.png"))

    limit.locator("[data-testid=handoff-continue]").click()
    expect(turn).to_contain_text("@bob, hand-off 3 of 3, from @alice", timeout=WAIT)
    expect(page.locator(ANSWERS)).to_have_count(4, timeout=WAIT)
    assert "@alice your turn (2)" in text_of(page.locator(ANSWERS).last)
    expect(page.locator(LIMIT)).to_have_count(2, timeout=WAIT)  # bob asks alice again: held
    page.wait_for_selector(f"{CONVERSATION}[data-busy=false]", timeout=WAIT)
    expect(page.locator("[data-testid=handoff-continue]")).to_have_count(1)  # the last one's
