"""Message actions in the real window (issue 17): Copy (the message as Markdown, read back from
the clipboard by pasting it), Copy link and a pasted link that opens the conversation, Retry in
a channel of two demo agents (only that one answers again), Edit and resend (Escape gives the
draft back), and Resend of a message Stop dropped. Screenshots of the toolbar in both themes
(test-output/screenshots/message-actions-*.png)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Locator, Page

from tests.agents import agent_yaml
from tests.e2e.window import api, back_home, module_app, text_of

pytestmark = pytest.mark.e2e

CONVERSATION = "[data-testid=conversation][data-loaded=true]"
MESSAGE = f"{CONVERSATION} [data-testid=message]"
BOX = "[data-testid=composer-input]"
WAIT = 30_000  # ms: agents start, answer and stream within this
TWO_FRAMES = "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))"


@pytest.fixture(scope="module")
def one_window(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Page, Path]]:
    """One window for the module: each test makes its own channel."""
    folder = tmp_path_factory.mktemp("actions")
    config = folder / "actions.yaml"
    config.write_text(
        "agents:\n"
        "  - name: demo\n    builtin: demo\n    title: First\n"
        "  - name: demo2\n    builtin: demo\n    title: Second\n" + agent_yaml("slowpoke", "slow"),
        encoding="utf-8",
    )
    with module_app(folder, ["--config", str(config)]) as (page, _proc):
        yield page, folder / "app.log"


@pytest.fixture
def app(one_window: tuple[Page, Path]) -> Page:
    page, log = one_window
    return back_home(page, log, (1280, 860))


# ---- helpers --------------------------------------------------------------------------------


def open_channel(page: Page, name: str, members: list[str]) -> str:
    """Creates the channel with its members (the backend's Create) and opens it; its id."""
    channel = api(page, "ChannelService", "Create", name, "", members)
    page.locator("[data-testid=channel-item]", has_text=name).click()
    page.wait_for_selector(f"{CONVERSATION}[data-channel='{channel['id']}']")
    return str(channel["id"])


def send(page: Page, text: str) -> None:
    box = page.locator(BOX)
    box.fill(text)
    box.press("Escape")  # closes a completion opened by @ or /, so Enter sends
    box.press("Enter")
    page.wait_for_function(f"() => document.querySelector('{BOX}').value === ''")


def messages(page: Page) -> list[dict[str, Any]]:
    return page.eval_on_selector_all(
        MESSAGE,
        """els => els.map(e => ({id: e.dataset.id, role: e.dataset.role, agent: e.dataset.agent,
            done: e.dataset.done, queued: e.dataset.queued, text: e.textContent}))""",
    )


def wait_messages(page: Page, expression: str, timeout: int = WAIT) -> list[dict[str, Any]]:
    """Waits until `expression` is true of `ms`, the rendered messages; returns them."""
    page.wait_for_function(
        f"""() => {{
            const ms = [...document.querySelectorAll('{MESSAGE}')].map(e => ({{
                id: e.dataset.id, role: e.dataset.role, agent: e.dataset.agent,
                done: e.dataset.done, queued: e.dataset.queued, text: e.textContent}}));
            return {expression};
        }}""",
        timeout=timeout,
    )
    return messages(page)


def idle(page: Page) -> None:
    page.wait_for_selector(f"{CONVERSATION}[data-busy=false]", timeout=WAIT)


def message(page: Page, message_id: str) -> Locator:
    return page.locator(f"{MESSAGE}[data-id='{message_id}']")


def act(page: Page, message_id: str, action: str) -> None:
    """Points at the message (its toolbar shows) and clicks one of its actions."""
    target = message(page, message_id)
    target.hover()
    target.locator(f"[data-testid=action-{action}]").click()


def paste_in_composer(page: Page) -> str:
    """What the clipboard holds, read back the way a person would: Ctrl+V in the empty box."""
    box = page.locator(BOX)
    box.fill("")
    box.focus()
    page.keyboard.press("Control+V")
    page.wait_for_function(f"() => document.querySelector('{BOX}').value !== ''")
    return box.input_value()


def shoot(page: Page, shots: Path, name: str) -> None:
    for theme in ("light", "dark"):
        page.evaluate("(t) => { document.documentElement.dataset.theme = t; }", theme)
        page.evaluate(TWO_FRAMES)
        page.screenshot(path=str(shots / f"message-actions-{name}-{theme}.png"))
    page.evaluate("() => { document.documentElement.dataset.theme = 'light'; }")


# ---- tests ----------------------------------------------------------------------------------


def test_copy_puts_the_markdown_on_the_clipboard_and_a_pasted_link_opens_the_message(
    app: Page, shots: Path
) -> None:
    page = app
    links = open_channel(page, "links", ["demo"])
    send(page, "/echo **bold** and `code`")
    shown = wait_messages(page, "ms.some(m => m.agent === 'demo' && m.done === 'true')")
    answer = next(m["id"] for m in shown if m["agent"] == "demo")
    idle(page)

    # Copy: the message as Markdown, what MessageMarkdown gives, on the system clipboard.
    message(page, answer).hover()
    shoot(page, shots, "toolbar")
    act(page, answer, "copy")
    page.wait_for_selector("[data-testid=action-status]:has-text('Copied')")
    markdown = api(page, "ExportService", "MessageMarkdown", links, answer)
    assert "**bold** and `code`" in markdown
    assert paste_in_composer(page) == markdown
    assert page.evaluate("document.activeElement?.dataset.testid") == "composer-input"

    # Copy link: sidekicks://message/<channel>/<message>.
    act(page, answer, "copy-link")
    page.wait_for_selector("[data-testid=action-status]:has-text('Link copied')")
    link = f"sidekicks://message/{links}/{answer}"
    assert paste_in_composer(page) == link

    # Pasted in another conversation (the demo echoes it: a link in an agent's answer too).
    page.locator(BOX).fill("")
    open_channel(page, "elsewhere", ["demo2"])
    box = page.locator(BOX)
    box.fill("/echo see ")
    box.press("End")
    page.keyboard.press("Control+V")
    box.press("Enter")
    wait_messages(page, "ms.some(m => m.agent === 'demo2' && m.done === 'true')")
    idle(page)
    anchors = page.locator(f"{MESSAGE} .markdown a[href='{link}']")
    assert anchors.count() == 2  # the person's message and the echo
    assert anchors.first.get_attribute("target") is None  # not a new window: opens in the app
    # Anything else in sidekicks: is not a link.
    send(page, "/echo [settings](sidekicks://settings) and sidekicks://message/x/y")
    wait_messages(page, "ms.filter(m => m.agent === 'demo2' && m.done === 'true').length === 2")
    assert page.locator(f"{MESSAGE} .markdown a[href^='sidekicks:']").count() == 2

    anchors.first.click()
    page.wait_for_selector(f"{CONVERSATION}[data-channel='{links}']")
    message(page, answer).wait_for()
    assert "bold" in text_of(message(page, answer))


def test_retry_makes_only_that_agent_answer_again_and_is_reachable_by_keyboard(
    app: Page,
) -> None:
    page = app
    open_channel(page, "pair", ["demo", "demo2"])
    send(page, "@demo @demo2 /echo hello both")
    shown = wait_messages(
        page,
        "ms.some(m => m.agent === 'demo' && m.done === 'true')"
        " && ms.some(m => m.agent === 'demo2' && m.done === 'true')",
    )
    idle(page)
    second = next(m["id"] for m in shown if m["agent"] == "demo2")
    asked = next(m["id"] for m in shown if m["role"] == "user")

    # The keyboard: Up and Down move between messages, Enter reaches the message's actions
    # (Retry first on an answer; issue 29: Tab leaves the list, tests/e2e/test_ui_reading.py).
    message(page, second).focus()
    page.keyboard.press("ArrowUp")
    first = next(m["id"] for m in shown if m["agent"] == "demo")
    assert page.evaluate("document.activeElement?.dataset.id") == first
    page.keyboard.press("ArrowDown")
    assert page.evaluate("document.activeElement?.dataset.id") == second
    page.keyboard.press("Enter")
    label = page.evaluate("document.activeElement?.getAttribute('aria-label')")
    assert label == "Retry: @demo2 answers this message again"
    assert (
        message(page, second)
        .locator("[data-testid=message-actions]")
        .evaluate("e => getComputedStyle(e).opacity")
        == "1"
    )
    page.keyboard.press("Enter")

    after = wait_messages(
        page, "ms.filter(m => m.agent === 'demo2' && m.done === 'true').length === 2"
    )
    idle(page)
    retry = [m for m in after if m["role"] == "user" and m["id"] != asked]
    assert len(retry) == 1 and "@demo @demo2 /echo hello both" in retry[0]["text"]
    assert "Retry: only @demo2 answers" in retry[0]["text"]
    answers = [m["agent"] for m in messages(page) if m["role"] == "agent"]
    assert answers == ["demo", "demo2", "demo2"]  # demo did not answer again; the first stays
    assert second in [m["id"] for m in messages(page)]


def test_edit_and_resend_fills_the_composer_and_escape_gives_the_draft_back(app: Page) -> None:
    page = app
    open_channel(page, "edits", ["demo"])
    send(page, "/echo first version")
    shown = wait_messages(page, "ms.some(m => m.agent === 'demo' && m.done === 'true')")
    idle(page)
    first = next(m["id"] for m in shown if m["role"] == "user")
    box = page.locator(BOX)
    box.fill("a draft I keep")

    act(page, first, "edit")
    page.wait_for_selector("[data-testid=composer-editing]")
    assert box.input_value() == "/echo first version"
    assert page.evaluate("document.activeElement?.dataset.testid") == "composer-input"
    box.press("Escape")
    page.wait_for_selector("[data-testid=composer-editing]", state="detached")
    assert box.input_value() == "a draft I keep"
    assert page.locator(f"{CONVERSATION}[data-busy=false]").count() == 1

    box.fill("")
    act(page, first, "edit")
    page.wait_for_function(f"() => document.querySelector('{BOX}').value === '/echo first version'")
    box.fill("/echo second version")
    box.press("Enter")
    after = wait_messages(
        page, "ms.filter(m => m.agent === 'demo' && m.done === 'true').length === 2"
    )
    users = [m["text"] for m in after if m["role"] == "user"]
    assert len(users) == 2 and "first version" in users[0] and "second version" in users[1]
    assert "second version" in after[-1]["text"]
    assert page.locator("[data-testid=composer-editing]").count() == 0


def test_a_message_dropped_by_stop_is_resent_from_its_actions(app: Page, shots: Path) -> None:
    page = app
    open_channel(page, "stopped", ["slowpoke"])
    send(page, "keep talking")
    wait_messages(page, "ms.some(m => m.agent === 'slowpoke' && m.text.includes('tick'))")
    send(page, "the next question")
    shown = wait_messages(page, "ms.some(m => m.queued === 'true')")
    dropped = next(m["id"] for m in shown if m["queued"] == "true")
    page.click("[data-testid=stop]")
    idle(page)
    message(page, dropped).locator("[data-testid=message-error]").wait_for()
    resend = message(page, dropped).locator("[data-testid=action-resend]")
    assert resend.is_visible()  # shown without pointing at it: the message waits for it
    page.mouse.move(0, 0)
    shoot(page, shots, "dropped")

    resend.click()
    message(page, dropped).locator("[data-testid=action-resent]").wait_for()
    after = wait_messages(
        page,
        f"ms.some(m => m.role === 'user' && m.id !== '{dropped}'"
        " && m.text.includes('the next question') && m.queued !== 'true')"
        " && ms.filter(m => m.agent === 'slowpoke').length === 2",
    )
    assert message(page, dropped).locator("[data-testid=action-resend]").count() == 0
    assert [m["role"] for m in after][-2:] == ["user", "agent"]
    page.click("[data-testid=stop]")
    idle(page)
