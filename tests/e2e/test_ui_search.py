"""Search in the real window (issue 17): Ctrl+K finds a message of any conversation and opens
the conversation at it, highlighted and in view; a long conversation opened at an old message
pages newer messages down to its live end (messages arriving meanwhile in their place); Ctrl+F
searches the conversation on screen until its chip is removed; a hostile snippet shows as text.
Screenshots: test-output/screenshots/search-*.png."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.window import api, back_home, module_app, until

pytestmark = pytest.mark.e2e

CONVERSATION = "[data-testid=conversation][data-loaded=true]"
SCROLLER = f"{CONVERSATION} [data-testid=messages]"
MESSAGE = f"{CONVERSATION} [data-testid=message]"
DIALOG = "[data-testid=search-dialog]"
WAIT = 30_000  # ms: agents start and answer within this
TWO_FRAMES = "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))"
# The element is inside the scroller's visible box.
IN_VIEW = """(e) => {
    const s = e.closest('[data-testid=messages]').getBoundingClientRect();
    const r = e.getBoundingClientRect();
    return r.top >= s.top - 1 && r.bottom <= s.bottom + 1;
}"""


@pytest.fixture(scope="module")
def one_window(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Page, Path]]:
    """One window for the module: each test makes its own channels, with words of its own."""
    folder = tmp_path_factory.mktemp("search")
    config = folder / "search.yaml"
    config.write_text("agents:\n  - name: demo\n    builtin: demo\n", encoding="utf-8")
    with module_app(folder, ["--config", str(config)]) as (page, _proc):
        yield page, folder / "app.log"


@pytest.fixture
def app(one_window: tuple[Page, Path]) -> Page:
    page, log = one_window
    return back_home(page, log, (1100, 760))


# ---- helpers --------------------------------------------------------------------------------


def shoot(page: Page, shots: Path, name: str) -> None:
    for theme in ("light", "dark"):
        page.evaluate("(t) => { document.documentElement.dataset.theme = t; }", theme)
        page.evaluate(TWO_FRAMES)
        page.screenshot(path=str(shots / f"search-{name}-{theme}.png"))
    page.evaluate("() => { document.documentElement.dataset.theme = 'light'; }")


def send(page: Page, text: str) -> None:
    box = page.locator("[data-testid=composer-input]")
    box.fill(text)
    box.press("Escape")  # closes the completion opened by /, so Enter sends
    box.press("Enter")
    page.wait_for_function(
        "() => document.querySelector('[data-testid=composer-input]').value === ''"
    )


def echo(page: Page, text: str) -> None:
    """The demo agent answers exactly `text`; waits for that answer."""
    send(page, f"/echo {text}")
    page.wait_for_function(
        f"""(t) => [...document.querySelectorAll('{MESSAGE}[data-role=agent]')]
            .some((e) => e.dataset.done === 'true' && e.textContent.includes(t))""",
        arg=text,
        timeout=WAIT,
    )


def fill_channel(page: Page, channel: str, texts: list[str]) -> None:
    """Sends `texts` to a channel without members: each gets a `no-recipient` line (stored)."""
    page.evaluate(
        """async ([id, texts]) => {
            const send = window.pywebview.api.ChannelService.Send;
            for (const text of texts) await send(id, text);
        }""",
        [channel, texts],
    )
    until(
        page,
        """async ([id, count]) => {
            const c = await window.pywebview.api.ChannelService.Conversation(id);
            const last = c.messages[c.messages.length - 1];
            return !c.busy && last && last.code === 'no-recipient'
                && c.messages.length === Math.min(100, count);
        }""",
        [channel, 2 * len(texts)],
    )


def open_channel(page: Page, name: str) -> None:
    page.locator("[data-testid=channel-item]", has_text=name).click()
    page.wait_for_function(
        "(n) => document.querySelector('#conversation-title')?.textContent.trim() === n", arg=name
    )
    page.wait_for_selector(CONVERSATION)


def search(page: Page, query: str, key: str = "Control+k") -> list[dict[str, Any]]:
    """Opens the search with `key`, types `query` and returns the results once answered."""
    page.keyboard.press(key)
    dialog = page.locator(DIALOG)
    expect(dialog).to_have_attribute("open", "")
    field = page.get_by_test_id("search-input")
    expect(field).to_be_focused()
    field.fill(query)
    page.wait_for_function(
        """(q) => {
            const input = document.querySelector('[data-testid=search-input]');
            const list = document.querySelector('[data-testid=search-results]');
            return input.value === q && list.dataset.answered === 'true';
        }""",
        arg=query,
        timeout=10_000,
    )
    return results(page)


def results(page: Page) -> list[dict[str, Any]]:
    return page.eval_on_selector_all(
        "[data-testid=search-result]",
        """els => els.map(e => ({
            channel: e.dataset.channel, message: e.dataset.message,
            selected: e.getAttribute('aria-selected') === 'true',
            snippet: e.querySelector('[data-testid=search-snippet]').textContent,
            marks: [...e.querySelectorAll('mark')].map(m => m.textContent),
        }))""",
    )


def highlighted(page: Page) -> Any:
    page.wait_for_selector(f"{MESSAGE}[data-highlighted=true]", timeout=10_000)
    return page.locator(f"{MESSAGE}[data-highlighted=true]")


def last_rendered(page: Page) -> str:
    return str(page.eval_on_selector_all(MESSAGE, "els => els[els.length - 1].textContent"))


def last_id(page: Page) -> str:
    return str(page.eval_on_selector_all(MESSAGE, "els => els[els.length - 1].dataset.id"))


# ---- tests ----------------------------------------------------------------------------------


def test_ctrl_k_finds_a_message_and_opens_its_conversation_at_it(app: Page, shots: Path) -> None:
    page = app
    page.locator("[data-testid=agent-item]", has_text="demo").click()
    page.wait_for_selector(CONVERSATION)
    direct = page.locator(CONVERSATION).get_attribute("data-channel")
    echo(page, "a zebra crossing at noon")
    for i in range(4):
        echo(page, f"filler answer number {i}")
    notes = api(page, "ChannelService", "Create", "notes", "")
    fill_channel(page, notes["id"], ["shopping: bread and milk", "call the plumber"])
    open_channel(page, "notes")

    # Escape closes the dialog and gives the focus back where it was.
    composer = page.get_by_test_id("composer-input")
    composer.focus()
    page.keyboard.press("Control+k")
    dialog = page.locator(DIALOG)
    expect(dialog).to_have_attribute("open", "")
    expect(dialog).to_have_attribute("aria-label", "Search messages")
    expect(page.get_by_test_id("search-hint")).to_contain_text('"quotes"')
    page.keyboard.press("Tab")  # the page behind is inert: the focus stays in the dialog
    assert page.evaluate("() => !!document.activeElement.closest('[data-testid=search-dialog]')")
    page.keyboard.press("Escape")
    expect(dialog).not_to_have_attribute("open", "")
    expect(composer).to_be_focused()

    found = search(page, "zebra")
    # The person's message and the demo's echo, newest (the echo) first, "zebra" marked.
    assert len(found) == 2, found
    assert all(r["channel"] == direct for r in found)
    assert [r["marks"] for r in found] == [["zebra"], ["zebra"]]
    # The conversation titled by that message comes first, under "Go to" (issue 29), selected;
    # Down goes on to the messages.
    goto = page.locator(f"{DIALOG} [data-testid=search-goto]")
    expect(goto).to_have_count(1)
    expect(goto).to_have_attribute("data-id", str(direct))
    expect(goto).to_have_attribute("aria-selected", "true")
    page.keyboard.press("ArrowDown")
    assert [r["selected"] for r in results(page)] == [True, False]
    assert "a zebra crossing at noon" in found[0]["snippet"]
    shoot(page, shots, "results")

    page.keyboard.press("ArrowDown")
    assert [r["selected"] for r in results(page)] == [False, True]
    page.keyboard.press("ArrowDown")  # stops at the end
    assert [r["selected"] for r in results(page)] == [False, True]
    page.keyboard.press("ArrowUp")
    page.keyboard.press("Enter")
    expect(dialog).not_to_have_attribute("open", "")
    expect(page.locator(CONVERSATION)).to_have_attribute("data-channel", str(direct))
    target = highlighted(page)
    assert target.get_attribute("data-id") == found[0]["message"]
    assert target.evaluate(IN_VIEW)
    expect(target).to_be_focused()  # read by a screen reader; the keyboard scrolls from there
    shoot(page, shots, "opened-at")
    # The highlight fades (removed after a few seconds).
    page.wait_for_selector(f"{MESSAGE}[data-highlighted=true]", state="detached", timeout=10_000)

    # Another message of the conversation on screen, already loaded: no page asked for.
    page.evaluate(
        """() => {
            window.__around = 0;
            const api = window.pywebview.api.SearchService;
            const around = api.Around;
            api.Around = (...args) => { window.__around++; return around(...args); };
        }"""
    )
    search(page, "zebra")
    page.keyboard.press("ArrowDown")  # past the conversation under "Go to"
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")
    target = highlighted(page)
    assert target.get_attribute("data-id") == found[1]["message"]
    assert page.evaluate("window.__around") == 0

    # The person's message, from another conversation: clicked.
    open_channel(page, "notes")
    search(page, "zebra")
    page.locator("[data-testid=search-result]").nth(1).click()
    expect(page.locator(CONVERSATION)).to_have_attribute("data-channel", str(direct))
    target = highlighted(page)
    assert target.get_attribute("data-id") == found[1]["message"]
    assert target.get_attribute("data-role") == "user"
    assert page.evaluate("window.__around") == 1


def test_a_long_conversation_opens_at_an_old_message_and_pages_down_to_the_latest(
    app: Page, shots: Path
) -> None:
    page = app
    room = api(page, "ChannelService", "Create", "history", "")
    texts = [f"entry {i} " + ("needle in the hay" if i == 7 else "hay") for i in range(150)]
    fill_channel(page, room["id"], texts)  # 300 messages with their no-recipient lines
    # An answer that will go on while the view is detached: the demo asks before an edit.
    api(page, "ChannelService", "AddMember", room["id"], "demo")
    api(page, "ChannelService", "Send", room["id"], "/edit")
    until(
        page,
        "async (id) => (await window.pywebview.api.ChannelService.Conversation(id))"
        ".permissions.length === 1",
        room["id"],
    )
    request = api(page, "ChannelService", "Conversation", room["id"])["permissions"][0]
    page.evaluate(
        """() => {
            window.__newer = 0;
            const api = window.pywebview.api.SearchService;
            const newer = api.Newer;
            api.Newer = (...args) => { window.__newer++; return newer(...args); };
        }"""
    )

    found = search(page, "needle")
    assert len(found) == 1 and found[0]["channel"] == room["id"], found
    page.keyboard.press("Enter")
    target = highlighted(page)
    # Its text may still be waiting to be built (an idle moment: ui parts/fillSoon.ts).
    expect(target).to_contain_text("entry 7 needle in the hay", timeout=10_000)
    page.wait_for_function(
        f"() => ({IN_VIEW})(document.querySelector('{MESSAGE}[data-highlighted=true]'))"
    )
    assert "entry 149" not in last_rendered(page)  # the page around it, not the last one
    expect(page.get_by_test_id("jump-to-latest")).to_be_visible()
    expect(page.get_by_test_id("loading-newer")).to_be_visible()
    shoot(page, shots, "long-opened-at")

    # The answer goes on and ends while the view is detached: not appended after the old page.
    api(page, "ChannelService", "AnswerPermission", request["id"], "reject")
    until(
        page,
        """async (id) => {
            const c = await window.pywebview.api.ChannelService.Conversation(id);
            const last = c.messages[c.messages.length - 1];
            return !c.busy && last.role === 'agent' && last.done;
        }""",
        room["id"],
    )
    page.evaluate(TWO_FRAMES)
    answers = f"{MESSAGE}[data-role=agent][data-agent=demo]"
    assert page.locator(answers).count() == 0

    # Scrolling down pages newer messages (Newer) until the end, then the list is live again.
    scroller = page.locator(SCROLLER)
    for _ in range(40):
        if page.get_by_test_id("loading-newer").count() == 0:
            break
        before = last_id(page)
        scroller.evaluate("e => { e.scrollTop = e.scrollHeight; }")
        page.wait_for_function(
            f"""(before) => {{
                const ms = document.querySelectorAll('{MESSAGE}');
                return ms[ms.length - 1].dataset.id !== before;
            }}""",
            arg=before,
        )
    assert page.evaluate("window.__newer") >= 2
    scroller.evaluate("e => { e.scrollTop = e.scrollHeight; }")
    expect(scroller).to_have_attribute("data-following", "true")
    expect(page.get_by_test_id("jump-to-latest")).to_have_count(0)
    # The answer, once, finished, after the last entry and the member joining.
    expect(page.locator(answers)).to_have_count(1)
    expect(page.locator(answers)).to_have_attribute("data-done", "true")
    rendered = page.eval_on_selector_all(
        MESSAGE, "els => els.map(e => e.dataset.role + ':' + e.textContent)"
    )
    assert rendered[-1].startswith("agent:"), rendered[-3:]
    assert any("entry 149" in text for text in rendered[-5:]), rendered[-5:]
    assert len(rendered) <= 200

    # Live: a new message appends at the end and is followed.
    send(page, "/echo and one more")
    page.wait_for_function(
        f"""() => {{
            const ms = [...document.querySelectorAll('{MESSAGE}')];
            const last = ms[ms.length - 1];
            return last.dataset.done === 'true' && last.textContent.includes('and one more');
        }}""",
        timeout=WAIT,
    )
    page.evaluate(TWO_FRAMES)
    assert scroller.evaluate("e => e.scrollHeight - e.scrollTop - e.clientHeight") <= 40


def test_jump_to_latest_leaves_an_old_message_for_the_end(app: Page) -> None:
    page = app
    room = api(page, "ChannelService", "Create", "archive", "")
    fill_channel(
        page, room["id"], [f"line {i} " + ("rare" if i == 3 else "common") for i in range(120)]
    )
    search(page, "rare")
    page.keyboard.press("Enter")
    highlighted(page)
    page.get_by_test_id("jump-to-latest").click()
    page.wait_for_function(
        f"""() => {{
            const ms = [...document.querySelectorAll('{MESSAGE}')];
            return ms.slice(-2)[0]?.textContent.includes('line 119');
        }}"""
    )
    expect(page.locator(SCROLLER)).to_have_attribute("data-following", "true")
    expect(page.get_by_test_id("loading-newer")).to_have_count(0)

    # Opened at it again, sending a message shows it at the end (the latest page), in view.
    search(page, "rare")
    page.keyboard.press("Enter")
    highlighted(page)
    expect(page.get_by_test_id("loading-newer")).to_be_visible()
    send(page, "written while reading")
    page.wait_for_function(
        f"""() => {{
            const ms = [...document.querySelectorAll('{MESSAGE}')];
            const mine = ms.filter((e) => e.textContent.includes('written while reading'));
            return mine.length === 1 && ms.slice(-2).includes(mine[0]);
        }}""",
        timeout=WAIT,
    )
    expect(page.get_by_test_id("loading-newer")).to_have_count(0)
    texts = page.eval_on_selector_all(MESSAGE, "els => els.map(e => e.textContent)")
    assert any("line 119" in text for text in texts[-4:]), texts[-4:]


def test_ctrl_f_searches_the_conversation_on_screen_until_the_chip_is_removed(app: Page) -> None:
    page = app
    orchard = api(page, "ChannelService", "Create", "orchard", "")
    market = api(page, "ChannelService", "Create", "market", "")
    fill_channel(page, orchard["id"], ["apples are ripe", "pears later"])
    fill_channel(page, market["id"], ["apples cost two coins"])
    open_channel(page, "orchard")

    found = search(page, "apples", key="Control+f")
    expect(page.get_by_test_id("search-scope")).to_have_text("in #orchard")
    assert [r["channel"] for r in found] == [orchard["id"]]
    page.get_by_test_id("search-unscope").click()
    expect(page.get_by_test_id("search-scope")).to_have_count(0)
    expect(page.get_by_test_id("search-input")).to_be_focused()
    page.wait_for_function(
        "() => document.querySelectorAll('[data-testid=search-result]').length === 2"
    )
    assert {r["channel"] for r in results(page)} == {orchard["id"], market["id"]}
    page.keyboard.press("Escape")

    # Outside a conversation, Ctrl+F searches everywhere.
    page.get_by_test_id("nav-agents").click()
    search(page, "apples", key="Control+f")
    expect(page.get_by_test_id("search-scope")).to_have_count(0)


def test_a_hostile_snippet_shows_as_text(app: Page, shots: Path) -> None:
    page = app
    room = api(page, "ChannelService", "Create", "hostile", "")
    hostile = (
        '<img src=x onerror="window.__pwned=1"> hostile <b>bold</b>'
        " <script>window.__pwned=2</script>"
    )
    fill_channel(page, room["id"], [hostile])
    found = search(page, "hostile")
    assert found, "found"
    assert '<img src=x onerror="window.__pwned=1">' in found[0]["snippet"]
    assert "<b>bold</b>" in found[0]["snippet"]
    dialog = page.locator(DIALOG)
    assert (
        dialog.locator("[data-testid=search-results] img, [data-testid=search-results] b").count()
        == 0
    )
    assert page.evaluate("() => window.__pwned") is None
    shoot(page, shots, "hostile")


def test_a_snippet_reads_as_text_without_markdown_with_its_words_marked(
    app: Page, shots: Path
) -> None:
    """Issue 29: not "## Demo answer You asked: > Hi!": the Markdown's syntax is gone from the
    snippet, the words it marks are the matched ones."""
    page = app
    room = api(page, "ChannelService", "Create", "memo", "")  # not "notes": the first test's
    markdown = (
        "## Demo answer\n\nYou asked:\n\n> **Walrus** plans for [the trip](https://x.example)"
        "\n\n- run `npm test`\n- pack the _walrus_ kit"
    )
    fill_channel(page, room["id"], [markdown])
    found = search(page, "walrus")
    assert len(found) == 1, found
    assert found[0]["snippet"] == (
        "Demo answer · You asked: Walrus plans for the trip · run npm test · pack the walrus kit"
    )
    assert found[0]["marks"] == ["Walrus", "walrus"]
    shoot(page, shots, "markdown-snippet")


def test_an_empty_search_one_without_results_and_a_refused_one_say_so(app: Page) -> None:
    page = app
    room = api(page, "ChannelService", "Create", "quiet", "")
    fill_channel(page, room["id"], ["nothing to see"])
    assert search(page, "nothing") != []
    page.get_by_test_id("search-input").fill("xylophone")
    expect(page.get_by_test_id("search-none")).to_have_text("No message matches.")
    expect(page.get_by_test_id("search-result")).to_have_count(0)  # the older results went
    page.get_by_test_id("search-input").fill("")
    expect(page.get_by_test_id("search-hint")).to_be_visible()
    expect(page.get_by_test_id("search-result")).to_have_count(0)
    # The backend refuses a query: said in the dialog, which still works.
    page.get_by_test_id("search-input").fill("word " * 300)
    expect(page.get_by_test_id("search-error")).to_contain_text("at most 1000 characters")
    page.get_by_test_id("search-input").fill("nothing")
    expect(page.get_by_test_id("search-result")).to_have_count(1)
    expect(page.get_by_test_id("search-error")).to_have_count(0)
