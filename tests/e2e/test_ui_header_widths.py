"""The conversation header at every width (issue 29), in the real window, in English and in
French: a direct conversation with the demo agent (ready, then stopped) and a channel of three
members, at 760×560, 1024×700, 1280×820 and 1920×1080. At each: no two visible controls of the
header overlap, each is inside the window and the header, the name shows whole, each session
picker shows its whole value or is in the "⋯" menu, and every action is either shown or an item
of "⋯" (opened and found there); the composer shows its placeholder or its text without a
scroll bar, a text typed wide grows the box when the window is made narrow; the settings',
agents' and inbox panels' titles show whole beside their actions or above them. The export's
"Saved to…" toast covers neither the header nor the members bar nor the composer. One app
start per language (the English one serves the long-name test too); the width is changed with
Playwright's set_viewport_size, which QtWebEngine honours over CDP (the page's innerWidth
follows).
Screenshots: test-output/screenshots/header-<lang>-<width>-<case>.png; what each width showed
(shown and folded actions): test-output/header-widths-<lang>.json."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.agents import agent_yaml
from tests.e2e.window import api, back_home, module_app, open_conversation, running_app

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
WIDTHS = [(760, 560), (1024, 700), (1280, 820), (1920, 1080)]
CONVERSATION = "[data-testid=conversation][data-loaded=true]"
HEADER = "[data-testid=conversation-header]"
MENU_BUTTON = f"{HEADER} [data-testid=conversation-menu-button]"
MENU = "[data-testid=conversation-menu]"
WAIT = 30_000
CHANNEL = "design-review"
LONG_TITLE = "Beta, the careful reviewer of pull requests"
# Both long: at 760 px the whole @handle pushed the state badge and the "⋯" out of the window.
LONG_HANDLE = "gamma-who-reads-every-diff-twice-at-noon"  # 40: the longest a name may be
HANDLED_TITLE = "Gamma, the second reader of every change"
HANDLE_MIN = 48  # px: ui/src/conversation/headerMeasure.ts
TITLE_CAP = 180  # px: ui/src/conversation/headerMeasure.ts
# The sidebar lists an agent under Agents or, once it has a conversation, Direct messages.
AGENT_ROW = "[data-testid=agent-item], [data-testid=direct-item]"
# A resize is seen by the ResizeObserver, measured in the next frame, rendered in the one after.
SETTLED = """() => new Promise((r) =>
  requestAnimationFrame(() => requestAnimationFrame(() => requestAnimationFrame(r))))"""

DIRECT_ACTIONS = {"isolation", "export", "new-session", "details"}
CHANNEL_ACTIONS = {"handoffs", "export", "new-session", "rename", "delete"}
# What each action is in the "⋯" menu, found by the test ids the inline controls have.
IN_MENU = {
    "export": "[data-testid=export-menu] [data-format=markdown]",
    "new-session": "[data-testid=new-session][role=menuitem]",
    "details": "[data-testid=agent-details][role=menuitem]",
    "rename": "[data-testid=rename-channel][role=menuitem]",
    "delete": "[data-testid=delete-channel][role=menuitem]",
    "isolation": "[data-testid=isolation-toggle][role=menuitemcheckbox]",
    "handoffs": "[data-testid=handoff-budget] [role=menuitemradio][aria-checked=true]",
    "usage": "[data-testid=usage]",
    "changes": "[data-testid=changes-button][role=menuitem]",
}
WORKSPACE_AGENT = ROOT / "tests" / "fakes" / "workspace_agent.py"

GEOMETRY = """() => {
  const header = document.querySelector('[data-testid=conversation-header]');
  const hb = header.getBoundingClientRect();
  const W = window.innerWidth, H = window.innerHeight;
  const problems = [];
  const shown = (el) => {
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden'
      && !el.closest('[data-folded=true]') && !el.closest('[role=menu]');
  };
  const label = (el) => el.dataset.testid || el.dataset.picker || el.getAttribute('aria-label')
    || el.textContent.trim().slice(0, 30);
  const inside = (r, box, pad = 0.5) => r.left >= box.left - pad && r.right <= box.right + pad
    && r.top >= box.top - pad && r.bottom <= box.bottom + pad;
  const name = header.querySelector('[data-testid=conversation-name]');
  const controls = [...header.querySelectorAll('button, select, input, a[href], [role=meter]')]
    .filter(shown).filter((el) => !el.parentElement.closest('button'));
  const boxes = [[name, 'the name'], ...controls.map((el) => [el, label(el)])];
  for (const [el, what] of boxes) {
    const r = el.getBoundingClientRect();
    if (!inside(r, { left: 0, top: 0, right: W, bottom: H }))
      problems.push(`${what} is outside the window`);
    if (!inside(r, hb)) problems.push(`${what} is outside the header`);
  }
  // The name's box is its line (title, handle, badge): measure its parts, not the block.
  const nameParts = [...name.children].filter(shown);
  const partBoxes = [...nameParts.map((el) => [el, 'the name']),
    ...controls.map((el) => [el, label(el)])];
  for (let i = 0; i < partBoxes.length; i++) for (let j = i + 1; j < partBoxes.length; j++) {
    const a = partBoxes[i][0].getBoundingClientRect(), b = partBoxes[j][0].getBoundingClientRect();
    const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
    const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
    if (w > 0.5 && h > 0.5 && partBoxes[i][1] !== partBoxes[j][1])
      problems.push(`${partBoxes[i][1]} overlaps ${partBoxes[j][1]}`);
  }
  const text = header.querySelector('[data-testid=conversation-name-text]');
  if (text.scrollWidth > text.clientWidth)
    problems.push(`the name is cut: ${text.clientWidth} of ${text.scrollWidth} px`);
  for (const part of nameParts)
    if (!inside(part.getBoundingClientRect(), hb)) problems.push('the name runs out of the header');
  const slots = [...header.querySelectorAll('[data-fit-actions] [data-action]')].map((el) => ({
    id: el.dataset.action, folded: el.dataset.folded === 'true', visible: shown(el),
  }));
  for (const slot of slots) if (!slot.folded && !slot.visible && slot.id !== 'usage')
    problems.push(`${slot.id} is neither shown nor folded`);
  const inline = '[data-testid=session-pickers] [data-testid=session-picker]';
  const pickers = [...header.querySelectorAll(inline)].map((el) => {
    const value = el.querySelector('.name, .switch-name');
    return {
      key: el.dataset.picker,
      value: el.dataset.value,
      folded: el.closest('[data-action]').dataset.folded === 'true',
      text: value ? value.textContent.trim() : '',
      whole: value ? value.scrollWidth <= value.clientWidth : true,
    };
  });
  for (const p of pickers)
    if (!p.folded && !p.whole) problems.push(`the picker ${p.key} shows "${p.text}" cut`);
  return { problems, slots, pickers, name: text.textContent, nameWidth: text.clientWidth };
}"""


# Where each item's label of the "⋯" menu starts (its first text): one edge for all, whether
# the item has an icon, a check mark or neither.
LABEL_STARTS = """() => [...document.querySelectorAll(
    '[data-testid=conversation-menu] [role^=menuitem]')]
  .filter((item) => item.getBoundingClientRect().width > 0)
  .map((item) => {
    const texts = document.createTreeWalker(item, NodeFilter.SHOW_TEXT,
      { acceptNode: (n) => (n.textContent.trim() ? 1 : 3) });
    const range = document.createRange();
    range.selectNodeContents(texts.nextNode());
    return range.getBoundingClientRect().left;
  })"""


def config_text(language: str) -> str:
    return (
        f"theme: light\nlanguage: {language}\nagents:\n"
        "  - name: demo\n    builtin: demo\n    title: Demo\n"
        + agent_yaml("alpha", title="Alpha")
        + agent_yaml("beta", "usage", title=LONG_TITLE)
        + agent_yaml(LONG_HANDLE, title=HANDLED_TITLE)
    )


@pytest.fixture(scope="module")
def language_window(
    tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest
) -> Iterator[tuple[Page, str, Path]]:
    """One window per language, for the tests of that language (each opens its own
    conversation: the demo's and a channel, or beta's)."""
    folder = tmp_path_factory.mktemp(f"header-{request.param}")
    exports = folder / "exports"
    exports.mkdir()
    config = folder / "header.yaml"
    config.write_text(config_text(request.param), encoding="utf-8")
    env = {"SIDEKICKS_TEST_SAVE_PATH": str(exports)}
    with module_app(folder, ["--config", str(config)], env) as (page, _proc):
        yield page, str(request.param), folder / "app.log"


@pytest.fixture
def app(language_window: tuple[Page, str, Path]) -> tuple[Page, str]:
    page, language, log = language_window
    return back_home(page, log), language


def resize(page: Page, width: int, height: int) -> None:
    page.set_viewport_size({"width": width, "height": height})
    page.wait_for_function("([w, h]) => innerWidth === w && innerHeight === h", arg=[width, height])
    page.evaluate(SETTLED)


def open_menu(page: Page) -> None:
    page.click(MENU_BUTTON)
    page.wait_for_selector(MENU)


def close_menu(page: Page) -> None:
    page.keyboard.press("Escape")
    page.wait_for_selector(MENU, state="detached")


def check_header(
    page: Page, title: str, expected: set[str], long_title: bool = False
) -> dict[str, Any]:
    """Asserts the header's layout at this width; returns what it showed and what it folded.
    A title longer than the cap may be cut (test_a_long_name… checks how much shows)."""
    found = page.evaluate(GEOMETRY)
    problems = [
        p for p in found["problems"] if not (long_title and p.startswith("the name is cut"))
    ]
    assert problems == [], found
    assert found["name"] == title
    slots = {slot["id"]: slot for slot in found["slots"]}
    assert expected <= set(slots), f"actions missing from the header: {expected - set(slots)}"
    folded = [slot["id"] for slot in found["slots"] if slot["folded"]]
    menu_shown = page.locator(MENU_BUTTON).count() == 1
    if folded or menu_shown:
        open_menu(page)
        menu = page.locator(MENU)
        box = menu.bounding_box()
        size = page.viewport_size
        assert box is not None and size is not None
        assert box["x"] >= 0 and box["x"] + box["width"] <= size["width"] + 0.5
        assert box["y"] + box["height"] <= size["height"] + 0.5, "the ⋯ menu runs off the window"
        starts = page.evaluate(LABEL_STARTS)
        assert max(starts) - min(starts) <= 1, f"the ⋯ items' labels start apart: {starts}"
        for action in folded:
            assert menu.locator(f"[data-action='{action}']").count() == 1, f"{action} not in ⋯"
            if action in IN_MENU:
                assert menu.locator(IN_MENU[action]).count() >= 1, f"{action}: {IN_MENU[action]}"
        for picker in found["pickers"]:
            if picker["folded"]:
                item = menu.locator(f"[data-testid=session-picker][data-picker='{picker['key']}']")
                assert item.get_attribute("data-value") == picker["value"]
                # Its current value is said: the checked choice (a select) or the checked box.
                checked = item.locator("[aria-checked=true]").count() + (
                    1 if item.get_attribute("aria-checked") is not None else 0
                )
                assert checked == 1
        close_menu(page)
    return {
        "shown": [slot["id"] for slot in found["slots"] if not slot["folded"]],
        "folded": folded,
        "name_px": found["nameWidth"],
    }


def check_composer(page: Page, width: int) -> None:
    """The composer shows its whole text or placeholder without a scroll bar (its placeholder,
    wrapped at 760 px in French, overflowed the one-line box)."""
    sizes = page.locator("[data-testid=composer-input]").evaluate(
        "(b) => ({ shown: b.clientHeight, whole: b.scrollHeight })"
    )
    assert sizes["whole"] <= sizes["shown"] + 1, (width, sizes)


def shoot(page: Page, shots: Path, language: str, width: int, case: str) -> None:
    page.screenshot(path=str(shots / f"header-{language}-{width}-{case}.png"))


def boxes_overlap(a: dict[str, float] | None, b: dict[str, float] | None) -> bool:
    assert a is not None and b is not None
    w = min(a["x"] + a["width"], b["x"] + b["width"]) - max(a["x"], b["x"])
    h = min(a["y"] + a["height"], b["y"] + b["height"]) - max(a["y"], b["y"])
    return w > 0.5 and h > 0.5


def export_from_header(page: Page) -> None:
    """Exports as Markdown, from the header's Export menu or from "⋯" when it is folded."""
    export = page.locator(f"{HEADER} [data-action=export]").first
    if export.get_attribute("data-folded") == "true":
        open_menu(page)
        page.click(f"{MENU} [data-testid=export-menu] [data-format=markdown]")
    else:
        page.click(f"{HEADER} [data-testid=export-button]")
        page.click("[data-testid=export-menu] [data-format=markdown]")
    page.wait_for_selector("[data-testid=export-saved]", timeout=WAIT)


def check_toast(page: Page) -> None:
    toast = page.locator("[data-testid=export-saved]").bounding_box()
    for covered in (HEADER, "[data-testid=members]", "[data-testid=composer]"):
        assert not boxes_overlap(toast, page.locator(covered).bounding_box()), covered
    size = page.viewport_size
    assert toast is not None and size is not None
    assert toast["x"] >= 0 and toast["x"] + toast["width"] <= size["width"]


def check_members(page: Page) -> None:
    """The members bar wraps: each control inside the window, none over another."""
    problems = page.evaluate(
        """() => {
          const bar = document.querySelector('[data-testid=members]');
          const els = [...bar.querySelectorAll('button, select, [role=meter], .chip-name')]
            .filter((el) => el.getBoundingClientRect().width > 0);
          const out = [];
          for (const el of els) { const r = el.getBoundingClientRect();
            if (r.left < 0 || r.right > innerWidth + 0.5) out.push(`${el.className} outside`); }
          for (let i = 0; i < els.length; i++) for (let j = i + 1; j < els.length; j++) {
            const a = els[i].getBoundingClientRect(), b = els[j].getBoundingClientRect();
            if (Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5
                && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5
                && !els[i].contains(els[j]) && !els[j].contains(els[i]))
              out.push(`${els[i].className} over ${els[j].className}`);
          }
          return out;
        }"""
    )
    assert problems == []


def keyboard_reaches_the_menu(page: Page) -> None:
    """⋯ opens from the keyboard on its first item; ↓ moves; Escape gives the focus back."""
    page.focus(MENU_BUTTON)
    page.keyboard.press("ArrowDown")
    page.wait_for_selector(MENU)
    first = page.evaluate("() => document.activeElement.closest('[role=menu]') !== null")
    page.keyboard.press("ArrowDown")
    second = page.evaluate("() => document.activeElement.getAttribute('role')")
    assert first and second is not None and second.startswith("menuitem")
    page.keyboard.press("Escape")
    page.wait_for_selector(MENU, state="detached")
    focused = page.evaluate("() => document.activeElement.dataset.testid")
    assert focused == "conversation-menu-button"


def use_a_folded_picker(page: Page, shots: Path, language: str) -> None:
    """At 760 px a picker is folded; changed from "⋯" (reached by the keyboard), it changes."""
    resize(page, 760, 560)
    folded = page.locator(f"{HEADER} [data-fit-actions] [data-action^='picker:'][data-folded=true]")
    assert folded.count() >= 1, "at 760 px some picker should be folded"
    key = str(folded.first.get_attribute("data-action")).removeprefix("picker:")
    keyboard_reaches_the_menu(page)
    open_menu(page)
    shoot(page, shots, language, 760, "direct-menu")
    item = page.locator(f"{MENU} [data-testid=session-picker][data-picker='{key}']")
    if item.get_attribute("role") == "menuitemcheckbox":
        value = "false" if item.get_attribute("data-value") == "true" else "true"
        item.click()
    else:
        choice = item.locator("[role=menuitemradio][aria-checked=false]").first
        value = str(choice.get_attribute("data-value"))
        choice.click()
    page.wait_for_selector(MENU, state="detached")
    page.wait_for_selector(
        f"{HEADER} [data-testid=session-pickers] [data-picker='{key}'][data-value='{value}']",
        state="attached",
        timeout=WAIT,
    )


@pytest.mark.parametrize("language_window", ["en", "fr"], indirect=True)
def test_the_header_fits_at_every_width(app: tuple[Page, str], shots: Path) -> None:
    page, language = app
    report: dict[str, Any] = {}
    resize(page, 1280, 820)
    open_conversation(page, AGENT_ROW, "Demo")
    box = page.locator("[data-testid=composer-input]")
    box.fill("/echo hello")
    box.press("Escape")  # closes the command completion, so that Enter sends
    box.press("Enter")
    page.wait_for_selector(
        f"{CONVERSATION} [data-testid=message][data-role=agent][data-done=true]", timeout=WAIT
    )
    page.wait_for_selector(f"{HEADER} [data-testid=session-picker]", state="attached")

    for state in ("ready", "stopped"):
        if state == "stopped":
            api(page, "AgentService", "Stop", "demo")
            page.wait_for_selector(f"{HEADER} [data-testid=agent-state][data-state=stopped]")
        for width, height in WIDTHS:
            resize(page, width, height)
            report[f"direct-{state}-{width}"] = check_header(page, "Demo", DIRECT_ACTIONS)
            shoot(page, shots, language, width, f"direct-{state}")
        if state == "ready":
            use_a_folded_picker(page, shots, language)

    members = ["demo", "alpha", "beta"]
    api(page, "ChannelService", "Create", CHANNEL, "Header check: three members", members)
    open_conversation(page, "[data-testid=channel-item]", CHANNEL)
    page.wait_for_selector(f"{CONVERSATION} [data-testid=members] [data-member=beta]")
    for width, height in WIDTHS:
        resize(page, width, height)
        report[f"channel-{width}"] = check_header(page, CHANNEL, CHANNEL_ACTIONS)
        check_members(page)
        check_composer(page, width)
        if width in (760, 1280):
            export_from_header(page)
            check_toast(page)
        shoot(page, shots, language, width, "channel")
    # Text typed wide, then the window made narrow: the box grows with its wrapped lines.
    box = page.locator("[data-testid=composer-input]")
    box.fill("a sentence long enough to wrap when the window is narrow " * 3)
    resize(page, 760, 560)
    check_composer(page, 760)
    assert box.evaluate("(b) => b.clientHeight") > 50  # several lines
    box.fill("")
    (ROOT / "test-output").mkdir(exist_ok=True)
    (ROOT / "test-output" / f"header-widths-{language}.json").write_text(
        json.dumps(report, indent=1), encoding="utf-8"
    )


# A main-area panel's header (settings, agents, inbox): its title whole, its parts apart and in
# the window. At 760 px "Paramètres" was cut to "Param…" by Open…, Recent and Save.
PANEL_HEADER = """() => {
  const header = document.querySelector('main .panel-header');
  const title = header.querySelector('h2');
  const parts = [header.querySelector('.panel-titles'),
    ...header.querySelectorAll('.actions > *')].filter((e) => e.offsetParent !== null);
  const boxes = parts.map((e) => {
    const r = e.getBoundingClientRect();
    return { x: r.x, y: r.y, width: r.width, height: r.height };
  });
  return { title: title.textContent, cut: title.scrollWidth > title.clientWidth, boxes };
}"""
PANELS = {
    "settings": ("[data-testid=nav-settings]", "[data-testid=settings-panel]"),
    "agents": ("[data-testid=nav-agents]", "[data-testid=agents-panel]"),
    "inbox": ("[data-testid=inbox-entry]", "[data-testid=inbox-panel]"),
}


def panel_header_problems(found: dict[str, Any], width: int) -> list[str]:
    """What is wrong with a panel header PANEL_HEADER measured: its title cut, a part outside
    the window, two parts over each other."""
    problems = [f"the title is cut: {found['title']}"] if found["cut"] else []
    boxes = found["boxes"]
    for i, box in enumerate(boxes):
        if box["x"] < -0.5 or box["x"] + box["width"] > width + 0.5:
            problems.append(f"part {i} is outside the window")
        problems += [
            f"parts {i} and {j} overlap"
            for j in range(i + 1, len(boxes))
            if boxes_overlap(box, boxes[j])
        ]
    return problems


@pytest.mark.parametrize("language_window", ["en", "fr"], indirect=True)
def test_the_panels_titles_show_whole_at_every_width(app: tuple[Page, str], shots: Path) -> None:
    page, language = app
    for panel, (entry, shown) in PANELS.items():
        page.click(entry)
        page.wait_for_selector(shown)
        for width, height in WIDTHS:
            resize(page, width, height)
            found = page.evaluate(PANEL_HEADER)
            assert panel_header_problems(found, width) == [], (panel, width, found)
            if width == 760:
                page.screenshot(path=str(shots / f"panel-{language}-{width}-{panel}.png"))


LONG_NAME = """() => {
  const header = document.querySelector('[data-testid=conversation-header]');
  const text = header.querySelector('[data-testid=conversation-name-text]');
  return { shown: text.clientWidth, whole: text.scrollWidth, text: text.textContent,
    tip: text.title };
}"""


def assert_the_title_keeps_its_cap(page: Page, title: str, width: int) -> None:
    """Cut only past the cap: at least TITLE_CAP px of the title shows, whole where there is
    room (1920 px), and its tooltip says it whole."""
    name = page.evaluate(LONG_NAME)
    assert name["text"] == title and name["tip"] == title
    assert name["shown"] >= min(name["whole"], TITLE_CAP) - 1, name
    if width == 1920:
        assert name["shown"] >= name["whole"], name


@pytest.mark.parametrize("language_window", ["en"], indirect=True)
def test_a_long_name_keeps_a_readable_width_and_says_itself_whole(
    app: tuple[Page, str], shots: Path
) -> None:
    page, _language = app
    open_conversation(page, AGENT_ROW, LONG_TITLE)
    box = page.locator("[data-testid=composer-input]")
    box.fill("hello")
    box.press("Enter")  # its answer reports its context usage: the header's meter
    page.wait_for_selector(f"{HEADER} [data-testid=usage]", state="attached", timeout=WAIT)
    for width, height in WIDTHS:
        resize(page, width, height)
        check_header(page, LONG_TITLE, DIRECT_ACTIONS | {"usage"}, long_title=True)
        assert_the_title_keeps_its_cap(page, LONG_TITLE, width)
        shoot(page, shots, "en", width, "long-name")


# The routing line under the composer ("› @gamma-… will answer"): its chevron and its first
# words on one line (the chevron, a block, stood alone on its line above the sentence).
ROUTING_FIRST_LINE = """() => {
  const preview = document.querySelector('[data-testid=routing-preview]');
  const icon = preview.querySelector('svg');
  const walker = document.createTreeWalker(preview, NodeFilter.SHOW_TEXT,
    { acceptNode: (n) => (n.textContent.trim() ? 1 : 3) });
  const range = document.createRange();
  range.selectNodeContents(walker.nextNode());
  return { icon: icon.getBoundingClientRect().top, text: range.getClientRects()[0].top };
}"""
LONG_HANDLE_SHOWN = """() => {
  const handle = document.querySelector('[data-testid=conversation-header] .handle');
  return { shown: handle.clientWidth, whole: handle.scrollWidth, tip: handle.title };
}"""


@pytest.mark.parametrize("language_window", ["en"], indirect=True)
def test_a_long_handle_gives_way_and_keeps_the_header_in_the_window(
    app: tuple[Page, str], shots: Path
) -> None:
    page, _language = app
    open_conversation(page, AGENT_ROW, HANDLED_TITLE)
    for width, height in WIDTHS:
        resize(page, width, height)
        check_header(page, HANDLED_TITLE, DIRECT_ACTIONS, long_title=True)
        assert_the_title_keeps_its_cap(page, HANDLED_TITLE, width)  # the handle gave way first
        handle = page.evaluate(LONG_HANDLE_SHOWN)
        assert handle["tip"] == f"@{LONG_HANDLE}"
        assert handle["shown"] >= min(handle["whole"], HANDLE_MIN) - 1, handle
        if width == 1920:
            assert handle["shown"] >= handle["whole"], handle  # whole where there is room
        lines = page.evaluate(ROUTING_FIRST_LINE)
        assert abs(lines["icon"] - lines["text"]) < 8, (width, lines)
        shoot(page, shots, "en", width, "long-handle")


BUDGET_CHANNEL = "hand-off-budget-of-a-long-named-channel"
REFUSE_BUDGETS = """() => {
  window.pywebview.api.HandoffService.SetHandoffs = () =>
    Promise.reject(new Error('the history could not be written'));
}"""


@pytest.mark.parametrize("language_window", ["en"], indirect=True)
def test_a_hand_off_budget_picked_in_the_menu_is_set_and_a_refusal_is_said(
    app: tuple[Page, str], shots: Path
) -> None:
    """Picked from "⋯" (its items unmount at the click), a refusal was said nowhere: it is said
    in the window's toasts. The backend refuses only for a channel gone or a history that
    refuses the write, neither of which leaves the channel on screen to pick from: the page's
    call is made to fail the way it then would (the page reloads before the next test)."""
    page, _language = app
    api(page, "ChannelService", "Create", BUDGET_CHANNEL, "", ["alpha", "beta"])
    open_conversation(page, "[data-testid=channel-item]", BUDGET_CHANNEL)
    page.wait_for_selector(f"{CONVERSATION} [data-testid=members] [data-member=beta]")
    slot = page.locator(f"{HEADER} [data-fit-actions] [data-action=handoffs]")
    for width in (760, 700, 640, 600, 520):  # the long name leaves no room for it, at last
        resize(page, width, 560)
        if slot.get_attribute("data-folded") == "true":
            break
    assert slot.get_attribute("data-folded") == "true", "the hand-off budget never folded"
    budget = slot.get_by_test_id("handoff-budget")

    open_menu(page)
    page.click(f"{MENU} [data-testid=handoff-budget] [role=menuitemradio][data-value='5']")
    expect(budget).to_have_attribute("data-value", "5", timeout=WAIT)
    assert page.get_by_test_id("handoff-budget-error").count() == 0

    page.evaluate(REFUSE_BUDGETS)
    open_menu(page)
    page.click(f"{MENU} [data-testid=handoff-budget] [role=menuitemradio][data-value='1']")
    toast = page.locator("[data-testid=toasts] [data-testid=handoff-budget-error]")
    expect(toast).to_contain_text("Hand-offs not changed:", timeout=WAIT)
    expect(toast).to_contain_text("Hand-offs not changed: The history could not be written")
    expect(budget).to_have_attribute("data-value", "5")
    assert not boxes_overlap(toast.bounding_box(), page.locator(HEADER).bounding_box())
    shoot(page, shots, "en", width, "handoff-refused")
    toast.get_by_role("button", name="Dismiss").click()
    expect(toast).to_have_count(0)


@pytest.fixture
def worker(tmp_path: Path) -> Iterator[tuple[Page, Path]]:
    """The workspace fake as `worker` (its folder: tmp_path/work), which writes files."""
    work = tmp_path / "work"
    work.mkdir()
    (work / "notes.txt").write_text("one\n", encoding="utf-8")
    command = json.dumps([sys.executable, str(WORKSPACE_AGENT)])
    config = tmp_path / "work.yaml"
    config.write_text(
        "language: en\nagents:\n"
        f"  - name: worker\n    title: Worker\n    command: {command}\n    cwd: work\n",
        encoding="utf-8",
    )
    with running_app(["--config", str(config)], tmp_path / "app.log") as (page, _proc):
        yield page, work


def test_changes_come_first_in_the_header_at_every_width(
    worker: tuple[Page, Path], shots: Path
) -> None:
    page, work = worker
    resize(page, 1280, 820)
    open_conversation(page, AGENT_ROW, "Worker")
    box = page.locator("[data-testid=composer-input]")
    box.fill(json.dumps([{"write": str(work / "notes.txt"), "text": "two\n"}]))
    box.press("Escape")
    box.press("Enter")
    page.wait_for_selector(f"{HEADER} [data-testid=changes-button]", timeout=WAIT)
    for width, height in WIDTHS:
        resize(page, width, height)
        shown = check_header(page, "Worker", DIRECT_ACTIONS | {"changes"})
        assert "changes" in shown["shown"], shown  # the first of the actions, at every width
        shoot(page, shots, "en", width, "direct-changes")
