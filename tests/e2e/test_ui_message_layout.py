"""Messages far from the screen are not laid out (#16 item 17: content-visibility in the message
list): they take an estimated height until they come near the screen. Scrolling up through
messages laid out for the first time must not move the one being read."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page

from tests.e2e.window import api, running_app, until

pytestmark = pytest.mark.e2e

CONVERSATION = "[data-testid=conversation][data-loaded=true]"
SCROLLER = f"{CONVERSATION} [data-testid=messages]"
WAIT = 30_000
SENDS = 40  # each answered by a one-line system message (no members): 80 messages
LINES = 30  # a tall message: far more than its estimated height

# Scrolls up by `step` pixels like the wheel would, then reports where the first message in
# view is, at once (laid out with the estimates) and three frames later (the messages that came
# near the screen now have their own height).
SCROLL_UP_AND_WATCH = """async (step) => {
    const scroller = document.querySelector('[data-testid=messages]');
    const frame = () => new Promise((r) => requestAnimationFrame(r));
    scroller.dispatchEvent(new WheelEvent('wheel', { deltaY: -step, bubbles: true }));
    scroller.scrollTop -= step;
    await new Promise((r) => scroller.addEventListener('scroll', r, { once: true }));
    const top = scroller.getBoundingClientRect().top;
    const anchor = [...scroller.querySelectorAll('[data-testid=message]')]
        .find((m) => m.getBoundingClientRect().bottom > top);
    const before = anchor.getBoundingClientRect().top;
    await frame(); await frame(); await frame();
    return { id: anchor.dataset.id, before, after: anchor.getBoundingClientRect().top,
             scrollTop: scroller.scrollTop };
}"""


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Page]:
    config = tmp_path / "layout.yaml"
    config.write_text("agents:\n  - name: demo\n    builtin: demo\n", encoding="utf-8")
    with running_app(["--config", str(config)], tmp_path / "app.log") as (page, _proc):
        page.set_viewport_size({"width": 1100, "height": 760})
        yield page


def test_scrolling_up_through_messages_not_yet_laid_out_keeps_the_one_being_read_in_place(
    app: Page,
) -> None:
    page = app
    room = api(page, "ChannelService", "Create", "tall", "tall messages")
    page.evaluate(
        """async ([id, sends, lines]) => {
            const send = window.pywebview.api.ChannelService.Send;
            for (let i = 0; i < sends; i++) {
                const text = Array.from({ length: lines }, (_, l) => `message ${i}, line ${l}`);
                await send(id, text.join('\\n'));
            }
        }""",
        [room["id"], SENDS, LINES],
    )
    until(
        page,
        """async ([id, count]) => {
            const c = await window.pywebview.api.ChannelService.Conversation(id);
            return !c.busy && c.messages.length === count
                && c.messages[count - 1].code === 'no-recipient';
        }""",
        [room["id"], SENDS * 2],
        timeout=60,
    )
    page.locator("[data-testid=channel-item]", has_text="tall").click()
    page.wait_for_function(
        f"(n) => document.querySelectorAll('{CONVERSATION} [data-testid=message]').length === n",
        arg=SENDS * 2,
        timeout=WAIT,
    )
    scroller = page.locator(SCROLLER)
    assert (
        scroller.evaluate(
            "e => getComputedStyle(e.querySelector('[data-testid=message]')).contentVisibility"
        )
        == "auto"
    )

    moves = []
    for _ in range(60):  # up to the top, 250 px at a time
        seen = page.evaluate(SCROLL_UP_AND_WATCH, 250)
        moves.append(seen["after"] - seen["before"])
        if seen["scrollTop"] <= 0:
            break
    assert scroller.get_attribute("data-following") == "false"
    assert all(abs(move) < 1.5 for move in moves), moves
    assert page.locator("[data-testid=conversation-start]").is_visible()
