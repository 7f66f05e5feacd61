"""The first start in the real window (#16 item 14): a fresh configuration folder (the default
config, made with the demo agent, and an empty history) greets with what Sidekicks is and one
click to talk to an agent; the sidebar's empty conversations say how to start one and offer the
same click; once started, the agent is listed once in the sidebar. Also the shared avatar and
the channel description limit (#16 item 15)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.window import running_app
from tests.gallery_server import AGENT_ID, serve_gallery

pytestmark = pytest.mark.e2e

CONVERSATION = "[data-testid=conversation][data-loaded=true]"
SIDEBAR = "[data-testid=sidebar]"
WAIT = 30_000  # ms: the demo agent starts within this


@pytest.fixture
def first_start(tmp_path: Path) -> Iterator[Page]:
    """The app as a new person starts it: no --config, a configuration folder of its own."""
    env = {"XDG_CONFIG_HOME": str(tmp_path / "config"), "SIDEKICKS_CONFIG": ""}
    with running_app([], tmp_path / "app.log", env) as (page, _proc):
        page.set_viewport_size({"width": 1200, "height": 800})
        yield page
    assert (tmp_path / "config" / "sidekicks" / "config.yaml").is_file()


def test_a_first_start_says_what_sidekicks_is_and_one_click_talks_to_the_demo_agent(
    first_start: Page, shots: Path, tmp_path: Path
) -> None:
    page = first_start
    # The default configuration has no placeholder key and no folder that may not exist.
    text = (tmp_path / "config" / "sidekicks" / "config.yaml").read_text(encoding="utf-8")
    assert "API_KEY" not in text and "~/code" not in text
    assert "Agents → Add agent" in text
    welcome = page.get_by_test_id("welcome")
    expect(welcome).to_contain_text("Welcome to Sidekicks")
    expect(welcome).to_contain_text("coding agents")
    expect(welcome.get_by_test_id("welcome-new-channel")).to_be_visible()
    talk = welcome.locator("[data-testid=welcome-talk-to][data-agent=demo]")
    expect(talk).to_have_accessible_name("Talk to Demo")
    # The sidebar lists the agent under Direct messages already, where its conversation will
    # be (issue 29: nothing moves when it opens), one click away.
    sidebar = page.locator(SIDEBAR)
    row = sidebar.locator("#sidebar-directs ~ ul [data-testid=agent-item]")
    expect(row).to_contain_text("Demo")
    # The gallery's first entries (the built-in list: the registry is off in tests), one click
    # each, and More agents… opening the gallery; Escape closes it, the focus comes back.
    offered = welcome.get_by_test_id("welcome-gallery")
    expect(offered.locator("[data-testid=welcome-add][data-id=claude-acp]")).to_contain_text(
        "Add Claude Code"
    )
    more = welcome.get_by_test_id("welcome-more-agents")
    more.click()
    expect(page.get_by_test_id("gallery-dialog")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.get_by_test_id("gallery-dialog")).to_be_hidden()
    expect(more).to_be_focused()
    page.screenshot(path=str(shots / "first-start.png"))

    talk.click()
    page.wait_for_selector(CONVERSATION, timeout=WAIT)
    expect(page.locator("#conversation-title")).to_contain_text("Demo")
    # Listed once: under Direct messages (with its state), no longer under Agents as well.
    expect(sidebar.get_by_test_id("direct-item")).to_have_count(1)
    expect(sidebar.locator("button", has_text="Demo")).to_have_count(1)
    expect(sidebar.get_by_test_id("agent-item")).to_have_count(0)
    expect(sidebar.get_by_test_id("no-conversations")).to_have_count(0)
    # With a conversation in the history, the agents page no longer greets.
    page.get_by_test_id("nav-agents").click()
    expect(page.get_by_test_id("agents-panel")).to_be_visible()
    expect(page.get_by_test_id("welcome")).to_have_count(0)


def test_a_registry_agent_is_added_and_talked_to_in_one_click_from_the_welcome(
    tmp_path: Path,
) -> None:
    with serve_gallery() as server:
        env = {
            "XDG_CONFIG_HOME": str(tmp_path / "config"),
            "SIDEKICKS_CONFIG": "",
            "SIDEKICKS_REGISTRY_URL": server.url("/registry.json"),
        }
        with running_app([], tmp_path / "app.log", env) as (page, _proc):
            add = page.locator(f"[data-testid=welcome-add][data-id={AGENT_ID}]")
            expect(add).to_contain_text("Add Fake Agent")
            add.click()  # installed (a binary), added with its defaults, then opened
            page.wait_for_selector(CONVERSATION, timeout=WAIT)
            expect(page.locator("#conversation-title")).to_contain_text("Fake Agent")
            box = page.get_by_test_id("composer-input")
            box.fill("hi")
            box.press("Enter")
            expect(page.get_by_test_id("conversation")).to_contain_text("echo: hi", timeout=WAIT)
    text = (tmp_path / "config" / "sidekicks" / "config.yaml").read_text(encoding="utf-8")
    assert "  - name: fake-agent\n" in text and "cwd:" not in text.split("fake-agent")[1]


def test_the_sidebar_click_starts_the_first_conversation_too(first_start: Page) -> None:
    page = first_start
    page.locator(SIDEBAR).get_by_test_id("agent-item").click()
    page.wait_for_selector(CONVERSATION, timeout=WAIT)
    expect(page.locator(SIDEBAR).get_by_test_id("direct-item")).to_contain_text("Demo")


def test_an_agent_without_an_icon_looks_the_same_in_every_list(window: Page, shots: Path) -> None:
    page = window  # conftest's e2e config: demo without an icon
    sidebar_avatar = page.locator(
        f"{SIDEBAR} [data-testid=agent-item]:has-text('demo') [data-testid=agent-avatar]"
    )
    card_avatar = page.locator("article[data-agent=demo] [data-testid=agent-avatar]")
    expect(sidebar_avatar).to_have_text("D")
    expect(card_avatar).to_have_text("D")
    colour = "(e) => getComputedStyle(e).backgroundColor"
    assert sidebar_avatar.evaluate(colour) == card_avatar.evaluate(colour)
    assert sidebar_avatar.evaluate("(e) => getComputedStyle(e).borderRadius") == "50%"

    page.locator("[data-testid=welcome-talk-to][data-agent=demo]").click()
    page.wait_for_selector(CONVERSATION, timeout=WAIT)
    # The direct conversation's entry shows the same initial, not a speech bubble.
    direct_avatar = page.locator(f"{SIDEBAR} [data-testid=direct-item] [data-testid=agent-avatar]")
    expect(direct_avatar).to_have_text("D")
    header_avatar = page.locator("[data-testid=conversation-header] [data-testid=agent-avatar]")
    expect(header_avatar).to_have_text("D")
    assert header_avatar.evaluate(colour) == direct_avatar.evaluate(colour)
    page.screenshot(path=str(shots / "avatars-without-icons.png"))


def test_a_long_channel_description_is_said_too_long_not_cut(first_start: Page) -> None:
    page = first_start
    page.get_by_test_id("welcome-new-channel").click()
    page.get_by_test_id("channel-name").fill("review")
    description = "d" * 70
    page.get_by_test_id("channel-description").fill(description)
    # Kept whole, counted, and said too long.
    expect(page.get_by_test_id("channel-description")).to_have_value(description)
    expect(page.get_by_test_id("channel-description-counter")).to_have_text("70/64")
    expect(page.get_by_test_id("channel-description-too-long")).to_have_text(
        "70 characters: a description has at most 64."
    )
    # Saving anyway gets the backend's refusal, as a sentence, and creates nothing.
    page.get_by_test_id("channel-save").click()
    expect(page.get_by_test_id("channel-error")).to_have_text(
        "A description has at most 64 characters"
    )
    expect(page.get_by_test_id("channel-item")).to_have_count(0)
    page.get_by_test_id("channel-description").fill("d" * 64)
    expect(page.get_by_test_id("channel-description-too-long")).to_have_count(0)
    page.get_by_test_id("channel-save").click()
    page.wait_for_selector(CONVERSATION, timeout=WAIT)
    expect(page.get_by_test_id("channel-item")).to_have_text("review")


def test_the_first_start_and_the_description_limit_read_in_french(tmp_path: Path) -> None:
    config = tmp_path / "fr.yaml"
    config.write_text(
        "language: fr\nagents:\n  - name: demo\n    builtin: demo\n", encoding="utf-8"
    )
    with running_app(["--config", str(config)], tmp_path / "app.log") as (page, _proc):
        expect(page.get_by_test_id("welcome")).to_contain_text("Bienvenue dans Sidekicks")
        expect(page.get_by_test_id("welcome-talk-to")).to_have_accessible_name("Parler à demo")
        expect(page.get_by_test_id("agent-item")).to_contain_text("demo")
        page.get_by_test_id("welcome-new-channel").click()
        page.get_by_test_id("channel-name").fill("revue")
        page.get_by_test_id("channel-description").fill("d" * 65)
        expect(page.get_by_test_id("channel-description-too-long")).to_have_text(
            "65 caractères : une description compte au plus 64 caractères."
        )
        page.get_by_test_id("channel-save").click()
        # The backend's French refusal, shown as a sentence.
        expect(page.get_by_test_id("channel-error")).to_have_text(
            "Une description compte au plus 64 caractères"
        )
