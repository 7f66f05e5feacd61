"""The permission inbox in the real window (issue 17): every channel's pending requests under
one sidebar entry with a count, answered from there or from their conversation (each follows
the other), the focus kept off the page's body; "always allow" answered from the inbox becomes a
rule that lets the demo edit in another channel without a prompt, listed and revoked there."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.agents import agent_yaml
from tests.e2e.window import back_home, module_app, open_conversation

pytestmark = pytest.mark.e2e

CONVERSATION = "[data-testid=conversation][data-loaded=true]"
BOX = "[data-testid=composer-input]"
PENDING = "[data-testid=permission][data-state=pending]"
REQUEST = "[data-testid=inbox-request]"
COUNT = "[data-testid=inbox-count]"
WAIT = 30_000  # ms: agents start, answer and stream within this


@pytest.fixture(scope="module")
def inbox_window(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Page, Path]]:
    """One window for the module: each test answers every request it makes and revokes the
    rule it adds, so the next finds the inbox empty."""
    folder = tmp_path_factory.mktemp("inbox")
    config = folder / "inbox.yaml"
    config.write_text(
        "agents:\n  - name: demo\n    builtin: demo\n"
        + agent_yaml("asker", "permission")
        + agent_yaml("other", "permission"),
        encoding="utf-8",
    )
    with module_app(folder, ["--config", str(config)]) as (window, _proc):
        yield window, folder / "app.log"


@pytest.fixture
def page(inbox_window: tuple[Page, Path]) -> Page:
    """The window reloaded, on the agents' panel: it reopens on the conversation an earlier test
    left on screen, whose sidebar row then opens nothing (nor moves the focus) when clicked."""
    page = back_home(*inbox_window, (1280, 860))
    page.get_by_test_id("nav-agents").click()
    expect(page.get_by_test_id("agents-panel")).to_be_visible()
    return page


def open_direct(page: Page, agent: str) -> None:
    """The agent's direct conversation, from the sidebar (its first time or again)."""
    open_conversation(page, "[data-testid=agent-item], [data-testid=direct-item]", agent)
    page.wait_for_function(f"() => document.activeElement?.matches('{BOX}')", timeout=WAIT)


def send(page: Page, text: str) -> None:
    page.locator(BOX).fill(text)
    page.keyboard.press("Enter")


def test_two_pending_requests_are_counted_listed_and_answered_from_the_inbox(
    page: Page, shots: Path
) -> None:
    entry = page.get_by_test_id("inbox-entry")
    expect(entry).to_be_visible()
    expect(page.locator(COUNT)).to_have_count(0)  # nothing waits: no badge

    open_direct(page, "asker")
    send(page, "may I?")
    page.locator(PENDING).wait_for(timeout=WAIT)
    open_direct(page, "other")
    send(page, "and me?")
    page.locator(PENDING).wait_for(timeout=WAIT)
    expect(page.locator(COUNT)).to_have_attribute("data-count", "2")
    expect(entry).to_contain_text("2 requests wait for your answer")  # the accessible words

    entry.click()
    requests = page.locator(REQUEST)
    expect(requests).to_have_count(2)
    expect(requests.nth(0).get_by_test_id("inbox-request-channel")).to_have_text("asker")
    expect(requests.nth(1).get_by_test_id("inbox-request-channel")).to_have_text("other")
    expect(requests.nth(0).locator("[data-part=tool]")).to_contain_text("Edit file")
    page.screenshot(path=str(shots / "inbox-two-requests.png"))

    # Answered from the inbox: the count drops, the focus goes to the request left.
    requests.nth(0).locator("[data-option=allow]").click()
    expect(requests).to_have_count(1)
    expect(page.locator(COUNT)).to_have_attribute("data-count", "1")
    expect(requests.nth(0)).to_be_focused()
    # A keystroke now cannot answer it: the entry has the focus, not one of its buttons.
    page.keyboard.press("Enter")
    expect(requests).to_have_count(1)

    # Its conversation shows it answered (the agent got "allow" and finished).
    requests.nth(0).get_by_test_id("inbox-open").click()
    page.wait_for_selector(CONVERSATION)
    expect(page.locator(PENDING)).to_have_count(1)  # other's own request, open here
    open_direct(page, "asker")
    expect(page.locator(f"{CONVERSATION} [data-role=agent]").last).to_contain_text(
        "permission: allow"
    )
    expect(page.locator(PENDING)).to_have_count(0)

    # Answered in its conversation: it leaves the inbox too.
    open_direct(page, "other")
    page.locator(PENDING).locator("[data-option=reject]").click()
    expect(page.locator(COUNT)).to_have_count(0)
    entry.click()
    expect(page.locator(REQUEST)).to_have_count(0)
    expect(page.get_by_test_id("inbox-empty")).to_be_visible()


HOLD_ANSWER = """(answered) => {
  const service = window.pywebview.api.ChannelService;
  const answer = service.AnswerPermission;
  service.AnswerPermission = async (...args) => {
    service.AnswerPermission = answer;
    const result = await answer(...args);
    await new Promise((listed) => {
      const check = () => [...document.querySelectorAll('[data-testid=inbox-request]')]
        .some((e) => e.dataset.request !== answered) ? listed() : requestAnimationFrame(check);
      check();
    });
    return result;
  };
}"""


def hold_the_answer_until_another_is_listed(page: Page, answered: str) -> None:
    """The page's next AnswerPermission resolves only once another request than `answered` is
    listed in the inbox."""
    page.evaluate(HOLD_ANSWER, answered)


def test_a_request_arriving_in_the_open_inbox_takes_no_focus_and_no_enter(page: Page) -> None:
    open_direct(page, "asker")
    send(page, "one")
    page.locator(PENDING).wait_for(timeout=WAIT)
    send(page, "two")  # queued: asked as soon as the first answer ends
    expect(page.locator("[data-testid=message][data-queued=true]")).to_have_count(1)
    page.get_by_test_id("inbox-entry").click()
    requests = page.locator(REQUEST)
    expect(requests).to_have_count(1)

    # The last request answered: the focus goes to the panel's heading, not the body. Its answer
    # is held until the next turn's request is listed (heard before the answer's end, as the
    # events come before the answers that follow them): that one takes no focus either.
    first = requests.get_attribute("data-request")
    hold_the_answer_until_another_is_listed(page, str(first))
    requests.locator("[data-option=allow]").click()
    heading = page.locator("#inbox-heading")
    expect(heading).to_be_focused()
    # The queued message's request arrives while the inbox is open: listed, focus untouched.
    expect(requests).to_have_count(1, timeout=WAIT)
    expect(heading).to_be_focused()
    page.keyboard.press("Enter")
    page.keyboard.press("Space")
    expect(requests).to_have_count(1)
    expect(page.locator(COUNT)).to_have_attribute("data-count", "1")
    requests.locator("[data-option=reject]").click()
    expect(requests).to_have_count(0)
    expect(heading).to_be_focused()


def test_always_allow_from_the_inbox_is_a_rule_that_answers_the_next_request_itself(
    page: Page, shots: Path
) -> None:
    open_direct(page, "demo")
    send(page, "/edit")
    page.locator(PENDING).wait_for(timeout=WAIT)
    page.get_by_test_id("inbox-entry").click()
    page.locator(REQUEST).locator("[data-option=allow-always]").click()
    expect(page.locator(REQUEST)).to_have_count(0)
    rule = page.get_by_test_id("inbox-rule")
    expect(rule).to_have_count(1)
    expect(rule).to_have_attribute("data-agent", "demo")
    expect(rule).to_have_attribute("data-kind", "edit")
    expect(rule).to_contain_text("Edit files")
    expect(rule).to_contain_text("Edit sidekicks_demo.py")

    # A new channel with the demo: its new session asks, the rule answers, no prompt shows.
    page.get_by_test_id("new-channel").click()
    page.fill("[data-testid=channel-name]", "review")
    page.locator("[data-testid=channel-member][value=demo]").check()
    page.click("[data-testid=channel-save]")
    page.wait_for_selector(CONVERSATION)
    send(page, "/demo:edit")
    answer = page.locator(f"{CONVERSATION} [data-role=agent][data-done=true]")
    answer.wait_for(timeout=WAIT)
    expect(answer.get_by_test_id("allowed-by-rule")).to_have_text("allowed by your rule")
    expect(answer.locator("[data-part=tool][data-kind=edit]")).to_have_attribute(
        "data-status", "completed"
    )
    expect(page.locator("[data-testid=permission]")).to_have_count(0)
    expect(page.locator(COUNT)).to_have_count(0)
    page.screenshot(path=str(shots / "inbox-allowed-by-rule.png"))

    # Revoked in the inbox: the list says there is none.
    page.get_by_test_id("inbox-entry").click()
    page.screenshot(path=str(shots / "inbox-rule.png"))
    page.get_by_test_id("inbox-revoke").click()
    expect(page.get_by_test_id("inbox-rule")).to_have_count(0)
    expect(page.get_by_test_id("inbox-no-rules")).to_be_visible()
