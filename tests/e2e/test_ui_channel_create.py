"""Creating a channel picks its members in the same dialog (issue 17), in the real window: the
configured agents are listed unchecked; the two checked join at once (chips and joined lines);
renaming keeps its dialog without members."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.e2e

CONVERSATION = "[data-testid=conversation][data-loaded=true]"
MEMBER = "[data-testid=channel-member]"


def test_a_new_channel_created_with_two_members_checked_shows_both_and_their_joined_lines(
    window: Page, shots: Path
) -> None:
    page = window
    page.get_by_test_id("new-channel").click()
    dialog = page.locator("[data-testid=channel-dialog][open]")
    expect(dialog.locator(MEMBER)).to_have_count(3)  # demo, alpha, crashy (e2e_config)
    for box in dialog.locator(MEMBER).all():
        expect(box).not_to_be_checked()
    page.fill("[data-testid=channel-name]", "pair")
    dialog.locator(f"{MEMBER}[value=alpha]").check()
    dialog.locator(f"{MEMBER}[value=demo]").check()
    page.screenshot(path=str(shots / "channel-create-members.png"))
    page.click("[data-testid=channel-save]")
    page.wait_for_selector("[data-testid=channel-dialog][open]", state="detached")
    page.wait_for_selector(CONVERSATION)
    expect(page.locator("#conversation-title")).to_have_text("pair")

    chips = page.locator("[data-testid=members] [data-member]")
    expect(chips).to_have_count(2)
    # In the configuration's order, whatever order they were checked in.
    assert [c.get_attribute("data-member") for c in chips.all()] == ["demo", "alpha"]
    joined = page.locator(f"{CONVERSATION} [data-testid=message][data-code=agent-joined]")
    expect(joined).to_have_count(2)
    expect(joined.nth(0)).to_contain_text("demo")
    expect(joined.nth(1)).to_contain_text("alpha")

    # Renaming keeps its own dialog: no members there (they are edited in the channel).
    page.get_by_test_id("rename-channel").click()
    expect(page.locator("[data-testid=channel-dialog][open]")).to_be_visible()
    expect(page.locator(MEMBER)).to_have_count(0)
    page.keyboard.press("Escape")
    expect(page.locator("[data-testid=channel-dialog][open]")).to_have_count(0)
