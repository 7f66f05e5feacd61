"""Issue 29 in the real window: the sidebar stays put (an agent keeps its row when its
conversation opens and gets messages), an agent stopped to make room says so (a toast with the
way to the limit, and a line in its conversation), find and move (the search button, Ctrl+K
going to channels, conversations and agents, Alt+Up/Down and Ctrl+Tab between conversations),
Save looking disabled while the file has problems, and each agent card's @handle.
Screenshots: test-output/screenshots/find-*.png."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.window import api, back_home, module_app, running_app, text_of

pytestmark = pytest.mark.e2e

CONVERSATION = "[data-testid=conversation][data-loaded=true]"
WAIT = 30_000  # ms: agents start and answer within this
THREE_DEMOS = """agents:
  - name: demo
    builtin: demo
  - name: alpha
    title: Alpha
    builtin: demo
  - name: beta
    title: Beta
    builtin: demo
"""


@pytest.fixture(scope="module")
def three_demos(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Page, Path]]:
    """One window for the tests on three demos: each makes the channels it finds, and reads
    the sidebar as it finds it (with what earlier tests made)."""
    folder = tmp_path_factory.mktemp("find")
    config = folder / "find.yaml"
    config.write_text(THREE_DEMOS, encoding="utf-8")
    with module_app(folder, ["--config", str(config)]) as (page, _proc):
        yield page, folder / "app.log"


@pytest.fixture
def app(three_demos: tuple[Page, Path]) -> Page:
    return back_home(*three_demos, (1280, 820))


@pytest.fixture
def crowded(tmp_path: Path) -> Iterator[Page]:
    """Two demo agents and room for one."""
    config = tmp_path / "crowded.yaml"
    config.write_text(
        "limits:\n  maxRunningAgents: 1\n"
        + THREE_DEMOS.replace("  - name: beta\n    title: Beta\n    builtin: demo\n", ""),
        encoding="utf-8",
    )
    with running_app(["--config", str(config)], tmp_path / "app.log") as (page, _proc):
        page.set_viewport_size({"width": 1280, "height": 820})
        yield page


def sidebar_rows(page: Page) -> list[dict[str, Any]]:
    """Every entry of the sidebar with its text and its box."""
    return page.evaluate(
        """() => [...document.querySelectorAll('[data-testid=sidebar] [data-nav-item]')]
          .map((e) => {
            const r = e.getBoundingClientRect();
            const label = e.querySelector('.label');
            return {text: (label || e).textContent.trim(), x: r.x, y: r.y, w: r.width, h: r.height};
        })"""
    )


def send_and_wait(page: Page, text: str, answers: int = 1) -> None:
    box = page.locator("[data-testid=composer-input]")
    box.fill(text)
    box.press("Escape")  # closes the completion opened by /, so Enter sends
    box.press("Enter")
    done = f"{CONVERSATION} [data-testid=message][data-role=agent][data-done=true]"
    expect(page.locator(done)).to_have_count(answers, timeout=WAIT)


def open_agent(page: Page, title: str) -> None:
    row = page.locator(
        "[data-testid=sidebar] :is([data-testid=agent-item], [data-testid=direct-item])",
        has_text=title,
    )
    row.click()
    expect(page.locator("#conversation-title")).to_contain_text(title, timeout=WAIT)
    page.wait_for_selector(CONVERSATION, timeout=WAIT)


# ---- the sidebar stays put ------------------------------------------------------------------


def test_an_agent_keeps_its_place_in_the_sidebar_when_opened_and_written_to(
    app: Page, shots: Path
) -> None:
    page = app
    page.wait_for_selector(
        "[data-testid=sidebar] :is([data-testid=agent-item], [data-testid=direct-item])"
    )
    before = sidebar_rows(page)
    texts = [r["text"] for r in before]
    assert (
        texts.index("demo") < texts.index("Alpha") < texts.index("Beta") < texts.index("All agents")
    ), texts  # every agent under Direct messages, in the configuration's order
    open_agent(page, "Alpha")  # the middle one: anything above or below it moving would show
    send_and_wait(page, "/echo Hello")
    expect(page.locator("[data-testid=direct-item]", has_text="Alpha")).to_have_attribute(
        "title", "/echo Hello", timeout=WAIT
    )  # the conversation is titled: the sidebar has heard of it
    after = sidebar_rows(page)
    assert after == before
    open_agent(page, "Beta")
    send_and_wait(page, "/echo Again")
    open_agent(page, "Alpha")  # an older conversation again: nothing moves
    assert sidebar_rows(page) == before
    page.screenshot(path=str(shots / "find-sidebar-stays-put.png"))


# ---- an agent stopped to make room says so -------------------------------------------------


def test_an_agent_stopped_to_make_room_says_so_in_a_toast_and_in_its_conversation(
    crowded: Page, shots: Path
) -> None:
    page = crowded
    open_agent(page, "demo")
    send_and_wait(page, "/echo First")
    open_agent(page, "Alpha")
    send_and_wait(page, "/echo Second")  # starting alpha stops demo: one agent runs at a time
    toast = page.locator("[data-testid=made-room-toast][data-agent=demo]")
    expect(toast).to_contain_text(
        "@demo was stopped to make room for @alpha (one agent runs at a time)", timeout=WAIT
    )
    page.screenshot(path=str(shots / "find-made-room-toast.png"))
    covers = page.evaluate(
        """() => {
            const box = (id) =>
                document.querySelector(`[data-testid=${id}]`).getBoundingClientRect();
            const a = box('made-room-toast');
            const b = box('composer');
            return !(a.bottom <= b.top || a.top >= b.bottom || a.right <= b.left
                     || a.left >= b.right);
        }"""
    )
    assert not covers  # it sits above the composer, none of its buttons under it
    open_agent(page, "demo")
    line = page.locator(f"{CONVERSATION} [data-testid=message][data-code=made-room]")
    expect(line).to_have_count(1, timeout=WAIT)
    assert "@demo was stopped to make room for @alpha" in text_of(line)
    toast.get_by_test_id("made-room-limit").click()  # the way to the limit
    field = page.get_by_test_id("preferences-max-running")
    expect(field).to_be_focused(timeout=WAIT)
    expect(field).to_have_value("1")
    expect(toast).to_have_count(0)
    states = {a["name"]: a["state"] for a in api(page, "AgentService", "List")}
    assert states == {"demo": "stopped", "alpha": "ready"}


# ---- find and move --------------------------------------------------------------------------


def test_the_search_button_and_ctrl_k_go_to_channels_conversations_and_agents(
    app: Page, shots: Path
) -> None:
    page = app
    room = api(page, "ChannelService", "Create", "release-notes", "Notes for the release", [])
    open_agent(page, "demo")
    send_and_wait(page, "/echo Ship the release notes today")
    button = page.get_by_test_id("search-button")
    expect(button).to_be_visible()
    expect(button).to_have_attribute("title", re.compile(r"\(Ctrl\+K\)$"))
    button.click()
    dialog = page.locator("[data-testid=search-dialog][open]")
    expect(dialog).to_be_visible()
    field = page.get_by_test_id("search-input")
    expect(field).to_be_focused()
    field.fill("release")
    # "Go to" first (the channel, the titled conversation), then the messages found.
    goto = dialog.get_by_test_id("search-goto")
    expect(goto).to_have_count(2, timeout=WAIT)
    expect(goto.nth(0)).to_have_attribute("data-id", room["id"])
    expect(goto.nth(1)).to_have_attribute("data-kind", "conversation")
    expect(dialog.get_by_test_id("search-result").first).to_be_visible(timeout=WAIT)
    order = dialog.locator(
        "[data-testid=search-group-goto], [data-testid=search-goto],"
        " [data-testid=search-group-messages], [data-testid=search-result]"
    ).evaluate_all("(all) => all.map((e) => e.dataset.testid)")
    assert order[:4] == [
        "search-group-goto",
        "search-goto",
        "search-goto",
        "search-group-messages",
    ], order
    assert set(order[4:]) == {"search-result"}, order
    expect(goto.nth(0)).to_have_attribute("aria-selected", "true")
    page.screenshot(path=str(shots / "find-goto.png"))
    field.press("Enter")  # the channel
    expect(dialog).to_have_count(0)
    expect(page.locator(CONVERSATION)).to_have_attribute("data-channel", room["id"], timeout=WAIT)

    # An agent by its @handle, with the keyboard shortcut.
    page.keyboard.press("Control+k")
    expect(field).to_be_focused()
    field.fill("@beta")
    expect(dialog.get_by_test_id("search-goto")).to_have_count(1)
    expect(dialog.get_by_test_id("search-goto")).to_have_attribute("data-kind", "agent")
    field.press("Enter")
    expect(page.locator("#conversation-title")).to_contain_text("Beta", timeout=WAIT)


def test_alt_arrows_and_ctrl_tab_switch_conversations_in_the_sidebars_order(app: Page) -> None:
    page = app
    room = api(page, "ChannelService", "Create", "general", "", [])
    for title in ("demo", "Alpha", "Beta"):  # Beta's last: its conversation ends the sidebar
        open_agent(page, title)
    order = page.locator("[data-testid=sidebar] [data-conversation]").evaluate_all(
        "(all) => all.map((e) => e.dataset.conversation)"
    )
    # The channels, then demo's, Alpha's and Beta's (and what the module's other tests made).
    assert room["id"] in order and len(order) >= 4, order
    assert order.index(room["id"]) < len(order) - 3, order
    shown = page.locator(CONVERSATION)
    expect(shown).to_have_attribute("data-channel", order[-1], timeout=WAIT)
    page.get_by_test_id("composer-input").focus()  # from the composer too
    page.keyboard.press("Alt+ArrowDown")  # round from the last to the first
    expect(shown).to_have_attribute("data-channel", order[0], timeout=WAIT)
    page.keyboard.press("Alt+ArrowDown")
    expect(shown).to_have_attribute("data-channel", order[1], timeout=WAIT)
    page.keyboard.press("Alt+ArrowUp")
    expect(shown).to_have_attribute("data-channel", order[0], timeout=WAIT)
    # Ctrl+Tab, if QtWebEngine lets it reach the page (docs/interface.md says what it does).
    page.keyboard.press("Control+Tab")
    expect(shown).to_have_attribute("data-channel", order[1], timeout=WAIT)
    page.keyboard.press("Control+Shift+Tab")
    expect(shown).to_have_attribute("data-channel", order[0], timeout=WAIT)


# ---- smaller --------------------------------------------------------------------------------


def test_every_agent_card_shows_its_handle(app: Page) -> None:
    page = app
    page.get_by_test_id("nav-agents").click()
    for name in ("demo", "alpha", "beta"):
        card = page.locator(f"article[data-agent={name}]")
        expect(card.get_by_test_id("agent-handle")).to_have_text(f"@{name}", timeout=WAIT)
