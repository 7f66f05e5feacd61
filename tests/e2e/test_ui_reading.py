"""Reading a conversation in the real window (issue 29): prose in a column of readable width at
1920 px while a code block is wider, the composer lined up with the column; a run of one
sender's messages shows the name once; the message list is one Tab stop with arrows between
messages and Enter into one's actions; a tool call the person rejected says "rejected" in a
neutral colour, and the permission question comes above the diff it asks about. Screenshots go
to test-output/screenshots/reading-*.png."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from playwright.sync_api import Locator, Page, expect

from app.core.ids import new_id
from app.history.base import StoredChannel
from app.history.lmdb_store import LmdbHistory
from app.models.conversation import Channel, Message, Part
from app.paths import data_dir
from tests.e2e.window import back_home, module_app

Seeded = dict[str, list[str]]  # the seeded channel's id: its messages' ids

pytestmark = pytest.mark.e2e

CONVERSATION = "[data-testid=conversation][data-loaded=true]"
LIST = f"{CONVERSATION} [data-testid=messages]"
MESSAGE = f"{LIST} [data-testid=message]"
WAIT = 30_000
PROSE = (
    "A sentence long enough to wrap several times at the widest window, so that the width of "
    "its lines is the column's and not the text's own: "
) * 6
TWO_FRAMES = "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))"
CODE = "x = [" + ", ".join(str(n) for n in range(120)) + "]"  # one line of about 500 characters

# The focusable element just before the list (the header's last control): where a person
# tabbing from the top of the conversation comes from.
FOCUS_BEFORE_LIST = """(list) => {
    const all = [...document.querySelectorAll(
        'a[href], button:not(:disabled), input, select, textarea, summary, [tabindex]')]
        .filter((e) => e.tabIndex >= 0 && e.getClientRects().length > 0 && !list.contains(e)
            && (list.compareDocumentPosition(e) & Node.DOCUMENT_POSITION_PRECEDING)
            && !e.contains(list));
    all.at(-1).focus();
    return all.at(-1).outerHTML.slice(0, 80);
}"""


def seed(config: Path) -> tuple[str, list[str]]:
    """A channel whose history holds runs of one sender, broken by a system line and by the
    other sender; its id and its messages' ids."""
    history = LmdbHistory(data_dir(config))
    channel = Channel(id=new_id(), name="reading", members=["demo"])
    history.put_channel(StoredChannel(channel=channel))
    start = datetime.now(UTC) - timedelta(minutes=10)

    def message(seconds: int, role: str, text: str = "", **more: object) -> Message:
        kept = Message(
            id=new_id(),
            channel=channel.id,
            created_at=(start + timedelta(seconds=seconds)).isoformat().replace("+00:00", "Z"),
            role=role,  # type: ignore[arg-type]
            parts=[Part(kind="text", text=text)] if text else [],
            done=True,
            **more,  # type: ignore[arg-type]
        )
        history.add_message(kept)
        return kept

    ids = [
        message(0, "user", "First question").id,
        message(20, "user", "A second thought, just after").id,
        message(40, "agent", f"{PROSE}\n\n```python\n{CODE}\n```\n", agent="demo").id,
        message(
            60, "agent", "One more thing, see [the docs](https://example.org).", agent="demo"
        ).id,
        message(70, "system", agent="demo", code="agent-joined").id,
        message(80, "agent", "After the system line", agent="demo").id,
        message(90, "user", "Thanks!").id,
    ]
    history.close()
    return channel.id, ids


@pytest.fixture(scope="module")
def one_window(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Page, Path, Seeded]]:
    """One window for the module, its history seeded before it starts: the seeded tests only
    read the "reading" channel, the rejected-edit test talks to the demo in its own."""
    folder = tmp_path_factory.mktemp("reading")
    config = folder / "reading.yaml"
    config.write_text("agents:\n  - name: demo\n    builtin: demo\n", encoding="utf-8")
    seeded: Seeded = {}
    with module_app(
        folder, ["--config", str(config)], before_start=lambda: seeded.update([seed(config)])
    ) as (page, _proc):
        yield page, folder / "app.log", seeded


@pytest.fixture
def seeded(one_window: tuple[Page, Path, Seeded]) -> tuple[Page, list[str]]:
    page, log, seeds = one_window
    ((channel, ids),) = seeds.items()
    back_home(page, log)
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.locator("[data-testid=channel-item]", has_text="reading").click()
    page.wait_for_selector(f"{CONVERSATION}[data-channel='{channel}']")
    page.locator(f"{MESSAGE}[data-id='{ids[-1]}']").wait_for()
    return page, ids


def box(locator: Locator) -> dict[str, float]:
    found = locator.bounding_box()
    assert found is not None
    return found


def active(page: Page) -> dict[str, str | None]:
    return page.evaluate(
        """() => { const e = document.activeElement;
            const item = e?.closest('[data-item]');
            return { id: e?.dataset.id ?? null, item: item?.dataset.id ?? null,
                     testid: e?.dataset.testid ?? null, tag: e?.tagName ?? null }; }"""
    )


def test_prose_reads_in_a_column_while_code_is_wider_and_the_composer_lines_up(
    seeded: tuple[Page, list[str]], shots: Path
) -> None:
    page, ids = seeded
    answer = page.locator(f"{MESSAGE}[data-id='{ids[2]}']")
    answer.scroll_into_view_if_needed()
    paragraph = box(answer.locator(".markdown > p").first)
    code = box(answer.locator(".markdown > .code-block").first)
    # 46rem of 13.5 px (about 90 characters a line), not the 1,650 px of the whole row.
    assert 550 <= paragraph["width"] <= 800, paragraph
    assert code["width"] > 1.4 * paragraph["width"], code  # the long line gets the room
    assert abs(code["x"] - paragraph["x"]) < 2  # both start at the column's left edge
    # The column is centred in the list; the composer's box spans it, avatar to prose end.
    listed = box(page.locator(LIST))
    avatar = box(answer.locator(".gutter"))
    composer = box(page.locator("[data-testid=composer] .box"))
    prose_end = paragraph["x"] + paragraph["width"]
    left, right = avatar["x"] - listed["x"], listed["x"] + listed["width"] - prose_end
    assert abs(left - right) < 30, (left, right)  # centred (the scrollbar aside)
    assert abs(composer["x"] - avatar["x"]) < 2
    assert abs(composer["x"] + composer["width"] - prose_end) < 2
    page.screenshot(path=str(shots / "reading-column-1920.png"))

    # Narrower windows: the column takes the width there is, nothing runs off the list (the
    # long code line scrolls in its block), the composer still starts under the avatars.
    for width in (1280, 760):
        page.set_viewport_size({"width": width, "height": 900})
        page.evaluate(TWO_FRAMES)
        assert page.eval_on_selector(LIST, "e => e.scrollWidth <= e.clientWidth")
        listed, code = box(page.locator(LIST)), box(answer.locator(".markdown > .code-block"))
        assert code["x"] + code["width"] <= listed["x"] + listed["width"]
        avatar = box(answer.locator(".gutter"))
        assert abs(box(page.locator("[data-testid=composer] .box"))["x"] - avatar["x"]) < 2
        page.screenshot(path=str(shots / f"reading-column-{width}.png"))


def test_a_run_of_one_senders_messages_shows_the_name_once(seeded: tuple[Page, list[str]]) -> None:
    page, ids = seeded
    headed = {
        i: page.locator(f"{MESSAGE}[data-id='{message_id}'] header").count()
        for i, message_id in enumerate(ids)
        if i != 4  # the system line
    }
    # 1 follows 0 (you), 3 follows 2 (demo); the system line and a change of sender break runs.
    assert headed == {0: 1, 1: 0, 2: 1, 3: 0, 5: 1, 6: 1}
    second = page.locator(f"{MESSAGE}[data-id='{ids[3]}']")
    assert second.get_attribute("data-continued") == "true"
    side = second.locator(".side-time")
    assert side.evaluate("e => getComputedStyle(e).opacity") == "0"
    second.hover()  # the time on hover, and its own actions
    expect(side).to_have_css("opacity", "1")
    expect(second.get_by_test_id("message-actions")).to_have_css("opacity", "1")
    assert second.get_by_test_id("action-copy").count() == 1


def test_the_message_list_is_one_tab_stop_with_arrows_between_messages(
    seeded: tuple[Page, list[str]],
) -> None:
    page, ids = seeded
    items = ids  # every message, the system line included, is an item
    assert page.locator(f"{LIST} [tabindex='0']").count() == 1  # one stop: the newest message
    page.eval_on_selector(LIST, FOCUS_BEFORE_LIST)
    page.keyboard.press("Tab")
    assert active(page)["id"] == items[-1]
    # The next Tab leaves the list (links, code copy buttons, actions are not stops) for the box.
    page.keyboard.press("Tab")
    assert active(page)["testid"] == "composer-input"
    page.keyboard.press("Shift+Tab")
    assert active(page)["id"] == items[-1]

    # Up and Down move between messages (the system line is one), Home and End to the ends.
    page.keyboard.press("ArrowUp")
    assert active(page)["id"] == items[-2]
    page.keyboard.press("ArrowUp")
    assert active(page)["id"] == items[4]
    page.keyboard.press("ArrowDown")
    assert active(page)["id"] == items[5]
    page.keyboard.press("Home")
    assert active(page)["id"] == items[0]
    page.keyboard.press("End")
    assert active(page)["id"] == items[-1]

    # Enter reaches the message's actions; Tab stays within it; Escape goes back to it.
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowUp")  # the demo's "one more thing", with a link
    target = items[3]
    assert active(page)["id"] == target
    page.keyboard.press("Enter")
    first = active(page)
    assert first["item"] == target and first["tag"] == "BUTTON", first
    assert (
        page.locator(f"{MESSAGE}[data-id='{target}'] [data-testid=message-actions]").evaluate(
            "(bar) => bar.contains(document.activeElement)"
        )
        is True
    )
    seen = [first["testid"]]
    for _ in range(12):
        page.keyboard.press("Tab")
        now = active(page)
        if now["item"] != target:
            break
        seen.append(now["testid"] or now["tag"])
    assert now["testid"] == "composer-input", (seen, now)  # past the message's last: out
    assert "A" in seen  # its link was on the way, its neighbours' things were not
    assert len(seen) >= 3, seen
    page.keyboard.press("Shift+Tab")
    assert active(page)["item"] == target  # back into the list: the message last used
    page.keyboard.press("Escape")
    assert active(page)["id"] == target
    # The roving stop stays where the keyboard was: from the box, Shift+Tab comes back to it.
    page.keyboard.press("Tab")
    assert active(page)["testid"] == "composer-input"
    page.keyboard.press("Shift+Tab")
    assert active(page)["id"] == target
    assert page.locator(f"{LIST} [data-item][tabindex='0']").count() == 1
    # A feed of articles for screen readers, each with its place.
    assert page.locator(LIST).get_attribute("role") == "feed"
    assert page.locator(f"{MESSAGE}[data-id='{ids[0]}']").get_attribute("aria-posinset") == "1"
    assert page.locator(f"{MESSAGE}[data-id='{ids[0]}']").get_attribute("aria-setsize") == "7"


def test_a_rejected_edit_is_rejected_not_failed_and_its_question_comes_above_its_diff(
    one_window: tuple[Page, Path, Seeded], shots: Path
) -> None:
    page = back_home(one_window[0], one_window[1])
    page.set_viewport_size({"width": 1280, "height": 900})
    direct = page.evaluate("() => window.pywebview.api.ChannelService.Direct('demo')")
    page.evaluate("(id) => window.pywebview.api.ChannelService.Send(id, '/edit')", direct["id"])
    page.locator("[data-testid=direct-item]", has_text="Demo").click()
    card = page.locator(f"{CONVERSATION} [data-part=tool][data-kind=edit]")
    prompt = card.locator("[data-testid=permission][data-state=pending]")
    prompt.wait_for(timeout=WAIT)
    diff = card.get_by_test_id("diff")
    asked, shown = box(prompt), box(diff)
    assert asked["y"] + asked["height"] <= shown["y"], (asked, shown)  # question first
    page.screenshot(path=str(shots / "reading-permission-above-diff.png"))

    # From the composer, the list's stop is this answer; its Tab goes to the prompt's
    # buttons first (the prompt says "or Tab to the buttons"), then along them.
    page.locator("[data-testid=composer-input]").focus()
    page.keyboard.press("Shift+Tab")  # Stop, in the turn line above the box
    assert page.evaluate("document.activeElement?.dataset.testid") == "stop"
    page.keyboard.press("Shift+Tab")
    assert page.evaluate("document.activeElement?.dataset.role") == "agent"
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement?.dataset.option") == "allow"
    page.keyboard.press("Tab")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement?.dataset.option") == "reject"
    page.keyboard.press("Enter")
    answer = page.locator(f"{MESSAGE}[data-role=agent][data-done=true]")
    answer.wait_for(timeout=WAIT)
    expect(card).to_have_attribute("data-status", "rejected", timeout=WAIT)
    status = card.locator("summary .status")
    expect(status).to_have_text("rejected")
    danger = page.evaluate(
        """() => { const e = document.createElement('span');
            e.style.color = 'var(--danger)'; e.style.background = 'var(--danger-bg)';
            document.querySelector('[data-testid=conversation]').append(e);
            const s = getComputedStyle(e); const out = [s.color, s.backgroundColor];
            e.remove(); return out; }"""
    )
    colours = status.evaluate(
        "e => [getComputedStyle(e).color, getComputedStyle(e).backgroundColor]"
    )
    assert colours[0] != danger[0] and colours[1] != danger[1], (colours, danger)
    outcome = card.get_by_test_id("permission-outcome")
    assert outcome.evaluate("e => getComputedStyle(e).color") != danger[0]
    page.screenshot(path=str(shots / "reading-rejected.png"))

    # Kept so: the conversation read again still says rejected.
    page.reload()
    page.wait_for_selector("[data-ready=true]")
    page.locator("[data-testid=direct-item]", has_text="Demo").click()
    expect(page.locator(f"{CONVERSATION} [data-part=tool][data-kind=edit]")).to_have_attribute(
        "data-status", "rejected", timeout=WAIT
    )
