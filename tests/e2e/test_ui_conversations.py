"""Several conversations per agent in the window (issue 28): Ctrl+N starts a second one with the
demo agent, both are listed under it titled from their first messages (the text their Markdown
shows), one is renamed from its header and deleted."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.window import text_of

pytestmark = pytest.mark.e2e

CONVERSATION = "[data-testid=conversation][data-loaded=true]"
GROUP = "[data-testid=conversation-group][data-agent=demo]"
ROWS = f"{GROUP} [data-testid=conversation-item]"
WAIT = 30_000


def send_and_wait(page: Page, text: str) -> None:
    box = page.locator("[data-testid=composer-input]")
    box.fill(text)
    box.press("Enter")
    page.wait_for_selector(
        f"{CONVERSATION} [data-testid=message][data-role=agent][data-done=true]", timeout=WAIT
    )


def test_ctrl_n_a_second_conversation_listed_titled_renamed_and_deleted(
    window: Page, shots: Path
) -> None:
    page = window
    page.locator("[data-testid=agent-item]", has_text="demo").click()
    page.wait_for_selector(CONVERSATION)
    first = page.locator(CONVERSATION).get_attribute("data-channel")
    send_and_wait(page, "/echo Plan the release")
    expect(page.locator(f"{GROUP} [data-testid=direct-item]")).to_have_attribute(
        "title", "/echo Plan the release", timeout=WAIT
    )  # one conversation: the agent's row is it

    page.locator("[data-testid=composer-input]").press("Control+n")
    page.wait_for_function(
        "(first) => { const c = document.querySelector('[data-testid=conversation]');"
        " return c && c.dataset.loaded === 'true' && c.dataset.channel !== first; }",
        arg=first,
        timeout=WAIT,
    )
    expect(page.locator(ROWS)).to_have_count(2, timeout=WAIT)
    expect(page.locator(ROWS).first).to_contain_text("New conversation")
    send_and_wait(page, "/echo Write the **notes**")
    expect(page.locator(ROWS)).to_have_text(
        ["/echo Write the notes", "/echo Plan the release"], timeout=WAIT
    )  # newest first, titled by the text the message's Markdown shows
    expect(page.locator("[data-testid=conversation-subtitle]")).to_have_text(
        "/echo Write the notes"
    )
    assert page.locator(ROWS).first.get_attribute("aria-current") == "page"
    page.screenshot(path=str(shots / "conversations-two.png"))

    page.click("[data-testid=conversation-menu-button]")
    page.click("[data-testid=rename-channel]")
    name = page.locator("[data-testid=channel-name]")
    expect(name).to_have_value("/echo Write the notes")
    name.fill("Release notes")
    page.click("[data-testid=channel-save]")
    expect(page.locator(ROWS).first).to_have_text("Release notes", timeout=WAIT)
    expect(page.locator("[data-testid=conversation-subtitle]")).to_have_text("Release notes")

    page.click("[data-testid=conversation-menu-button]")
    page.click("[data-testid=delete-channel]")
    page.wait_for_selector("[data-testid=dialog][open]")
    assert "Release notes" in text_of(page.locator("[data-testid=dialog]"))
    page.click("[data-testid=dialog] [data-choice=delete]")
    expect(page.locator(ROWS)).to_have_count(0, timeout=WAIT)  # one left: the agent's row again
    page.wait_for_selector(f"[data-testid=conversation][data-channel='{first}'][data-loaded=true]")
    expect(page.locator(f"{GROUP} [data-testid=direct-item]")).to_have_attribute(
        "aria-current", "page"
    )

    # Away from a direct conversation, Ctrl+N asks which agent: ↓ then Enter picks the second.
    page.click("[data-testid=nav-agents]")
    page.keyboard.press("Control+n")
    picker = page.locator("[data-testid=new-conversation-picker][open]")
    expect(picker.locator("[data-testid=new-conversation-agent]").first).to_be_focused()
    page.keyboard.press("ArrowDown")
    expect(picker.locator("[data-testid=new-conversation-agent]").nth(1)).to_contain_text("alpha")
    page.keyboard.press("Enter")
    expect(picker).to_have_count(0)
    page.wait_for_selector(CONVERSATION)
    expect(page.locator("#conversation-title")).to_contain_text("alpha")
    expect(page.locator("[data-testid=conversation-group][data-agent=alpha]")).to_have_count(1)
