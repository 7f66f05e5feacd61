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

# A busy page, made on purpose: a message's text is built a moment after it shows (fillSoon),
# within a frame's budget and then in idle moments, which a busy page gives late, as tasks of
# their own, maybe between a scroll and its event (a suite under load failed so, now and then).
# Here the page's clock runs fast while the conversation opens (its budget builds one text),
# and its idle moments are held, then given one per step right after the scroll: the worst
# moment, on every step, instead of by chance.
BUSY_PAGE = """() => {
    const held = window.__heldFromStart ?? [];
    const now = performance.now.bind(performance);
    window.__busyClock = (busy) => {
        let ahead = 0;  // each reading 4 ms later: a frame's budget goes to one text
        performance.now = busy ? () => now() + (ahead += 4) : now;
    };
    window.requestIdleCallback = (callback) => held.push(callback);
    window.__giveIdle = () => {
        let given = 0;
        if (held.length) { held.shift()(); given++; }
        return given;
    };
}"""

# Idle moments held from the page's start: the message views' warm-up (parts/warmUp.ts), which
# a busy machine's page has not finished when a conversation opens, then takes some of the
# moments given at the steps, and texts are built at other steps than on a quiet page (a whole
# run under load failed so: a text built between the first message in view and the one a scroll
# left, before the scroll's event, moved what was read by its whole height).
HOLD_IDLE_FROM_START = (
    "window.__heldFromStart = [];"
    "window.requestIdleCallback = (run) => { window.__heldFromStart.push(run); return 0; };"
)

# Scrolls up by `step` pixels like the wheel would, and gives a held idle moment right after
# (a text built, maybe above the one being read, before the scroll's event arrives). Reports
# where the first message in view after the scroll was before it (as painted: read in a frame,
# nothing pending), moved by the scroll, and where it is three frames later.
SCROLL_UP_AND_WATCH = """async (step) => {
    const scroller = document.querySelector('[data-testid=messages]');
    const messages = () => [...scroller.querySelectorAll('[data-testid=message]')];
    const frame = () => new Promise((r) => requestAnimationFrame(r));
    await frame();
    const painted = new Map(messages().map((m) => [m.dataset.id, m.getBoundingClientRect().top]));
    const from = scroller.scrollTop;
    const scrolled = new Promise((r) => scroller.addEventListener('scroll', r, { once: true }));
    scroller.dispatchEvent(new WheelEvent('wheel', { deltaY: -step, bubbles: true }));
    scroller.scrollTop -= step;
    const given = window.__giveIdle();
    await scrolled;
    const top = scroller.getBoundingClientRect().top;
    const anchor = messages().find((m) => m.getBoundingClientRect().bottom > top);
    const atEvent = { top: scroller.scrollTop, height: scroller.scrollHeight,
                      following: scroller.dataset.following };
    await frame(); await frame(); await frame();
    return { id: anchor.dataset.id, before: painted.get(anchor.dataset.id) + Math.min(step, from),
             after: anchor.getBoundingClientRect().top, given, scrollTop: scroller.scrollTop,
             // What a failure is read by: where the view was, at the scroll's event, and after.
             seen: { from, atEvent, height: scroller.scrollHeight,
                     following: scroller.dataset.following } };
}"""


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Page]:
    config = tmp_path / "layout.yaml"
    config.write_text("agents:\n  - name: demo\n    builtin: demo\n", encoding="utf-8")
    with running_app(["--config", str(config)], tmp_path / "app.log") as (page, _proc):
        page.set_viewport_size({"width": 1100, "height": 760})
        yield page


@pytest.mark.parametrize("warmed_up", [True, False], ids=["warmed-up", "warm-up-pending"])
def test_scrolling_up_through_messages_not_yet_laid_out_keeps_the_one_being_read_in_place(
    app: Page, warmed_up: bool
) -> None:
    page = app
    if not warmed_up:
        page.add_init_script(HOLD_IDLE_FROM_START)
        page.reload()
        page.wait_for_selector("[data-ready=true]")
        assert page.evaluate("document.documentElement.dataset.warmedUp") is None
    page.evaluate(BUSY_PAGE)
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
    page.evaluate("window.__busyClock(true)")
    page.locator("[data-testid=channel-item]", has_text="tall").click()
    page.wait_for_function(
        f"(n) => document.querySelectorAll('{CONVERSATION} [data-testid=message]').length === n",
        arg=SENDS * 2,
        timeout=WAIT,
    )
    page.evaluate("window.__busyClock(false)")
    assert page.locator(f"{CONVERSATION} [data-filling]").count() > SENDS // 2  # texts to build
    scroller = page.locator(SCROLLER)
    assert (
        scroller.evaluate(
            "e => getComputedStyle(e.querySelector('[data-testid=message]')).contentVisibility"
        )
        == "auto"
    )

    moves, given, steps = [], 0, []
    for _ in range(80):  # up to the top, 250 px at a time
        seen = page.evaluate(SCROLL_UP_AND_WATCH, 250)
        moves.append(seen["after"] - seen["before"])
        steps.append(seen["seen"])
        given += seen["given"]
        if seen["scrollTop"] <= 0:
            break
    assert scroller.get_attribute("data-following") == "false"
    assert given > 0  # texts were built during the scrolls: what the anchor is kept against
    moved = [(step, move, steps[step]) for step, move in enumerate(moves) if abs(move) >= 1.5]
    assert moved == [], moved[:3]
    assert page.locator("[data-testid=conversation-start]").is_visible()
