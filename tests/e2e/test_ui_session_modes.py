"""A member's session mode and options in the conversation header (#14), in the real window with
a fake agent that offers them like codex-acp does (tests/fakes/modes_agent.py `switches`: modes
read-only/auto/full-access, a `model` and a `reasoning_effort` select, a `web_search` boolean; it
answers every prompt with its settings). The pickers appear once its session opened, a change
reaches the agent (its next answer says so), an agent's own change shows live, a refused change
reverts with the agent's sentence, and the values are still shown after the page is reloaded.
The built-in demo agent (modes ask/code, a model, show_thoughts) too: picked in its header, said
by its /status, kept across a restart (screenshots in test-output/screenshots/session-*.png)."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page

from tests.e2e.window import api, running_app

pytestmark = pytest.mark.e2e

MODES_AGENT = Path(__file__).resolve().parents[1] / "fakes" / "modes_agent.py"
CONVERSATION = "[data-testid=conversation][data-loaded=true]"
MESSAGE = f"{CONVERSATION} [data-testid=message]"
PICKERS = "[data-testid=conversation-header] [data-testid=session-pickers][data-agent=codex]"
WAIT = 30_000  # ms: the agent starts, opens its session and answers within this
TWO_FRAMES = "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))"


def config_text(language: str = "en") -> str:
    command = json.dumps([sys.executable, str(MODES_AGENT), "switches"])
    return f"language: {language}\nagents:\n  - name: codex\n    command: {command}\n"


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Page]:
    config = tmp_path / "session.yaml"
    config.write_text(config_text(), encoding="utf-8")
    with running_app(["--config", str(config)], tmp_path / "app.log") as (page, _proc):
        page.set_viewport_size({"width": 1280, "height": 760})
        yield page


# ---- helpers --------------------------------------------------------------------------------


def shoot(page: Page, shots: Path, name: str) -> None:
    for theme in ("light", "dark"):
        page.evaluate("(t) => { document.documentElement.dataset.theme = t; }", theme)
        page.evaluate(TWO_FRAMES)
        page.screenshot(path=str(shots / f"session-{name}-{theme}.png"))
    page.evaluate("() => { document.documentElement.dataset.theme = 'light'; }")


def open_direct(page: Page) -> str:
    page.locator("[data-testid=agent-item]", has_text="codex").click()
    page.wait_for_selector(CONVERSATION)
    return str(page.get_attribute(CONVERSATION, "data-channel"))


def ask(page: Page, text: str) -> str:
    """Sends `text` and returns the agent's answer to it, once finished."""
    selector = f"{MESSAGE}[data-role=agent]"
    before = page.locator(selector).count()
    box = page.locator("[data-testid=composer-input]")
    box.fill(text)
    box.press("Escape")  # closes a completion opened by @ or /, so Enter sends
    box.press("Enter")
    # Read in the evaluation that sees it finished, as textContent: its innerText is "" until
    # the list has laid it out (content-visibility: auto), a frame or more later under load.
    answer = page.wait_for_function(
        f"""(n) => {{
            const m = document.querySelectorAll('{selector}')[n];
            return m && m.dataset.done === 'true' && m.querySelector('.markdown')?.textContent
                && m.textContent.split(/\\s+/).join(' ').trim();
        }}""",
        arg=before,
        timeout=WAIT,
    )
    return str(answer.json_value())


def picker(page: Page, key: str, scope: str = PICKERS) -> dict[str, str]:
    return page.eval_on_selector(
        f"{scope} [data-picker='{key}']",
        "e => ({value: e.dataset.value, pending: e.dataset.pending,"
        " label: e.getAttribute('aria-label'), text: e.textContent.trim()})",
    )


def wait_value(page: Page, key: str, value: str, scope: str = PICKERS) -> None:
    """Waits until the picker shows `value`, nothing pending."""
    page.wait_for_function(
        """([sel, v]) => {
            const e = document.querySelector(sel);
            return e && e.dataset.value === v && e.dataset.pending === 'false';
        }""",
        arg=[f"{scope} [data-picker='{key}']", value],
        timeout=WAIT,
    )


def choose(page: Page, key: str, value: str) -> None:
    """Picks `value` in the picker's menu with the mouse."""
    page.click(f"{PICKERS} [data-picker='{key}']")
    page.click(f"[data-testid=session-menu] [role=menuitemradio][data-value='{value}']")


# ---- tests ----------------------------------------------------------------------------------


def test_the_mode_and_the_model_are_picked_in_the_header_reach_the_agent_and_stay(
    app: Page, shots: Path
) -> None:
    page = app
    channel = open_direct(page)
    # Its first answer opened the session: the header shows what it offers, in the fixed order.
    assert "mode=read-only" in ask(page, "hello")
    page.wait_for_selector(f"{PICKERS} [data-picker=mode]", timeout=WAIT)
    keys = page.eval_on_selector_all(
        f"{PICKERS} [data-testid=session-picker]", "els => els.map(e => e.dataset.picker)"
    )
    assert keys == ["mode", "option:model", "option:reasoning_effort", "option:web_search"]
    mode = picker(page, "mode")
    assert mode["value"] == "read-only" and mode["text"] == "Read Only"
    assert mode["label"] == "Mode of codex: Read Only"
    assert picker(page, "option:model")["label"] == "Model of codex: gpt-5.2-codex"
    assert picker(page, "option:reasoning_effort")["label"].startswith("Reasoning Effort of codex")
    shoot(page, shots, "direct")

    # The mode, with the mouse: the menu lists the modes with their descriptions.
    page.click(f"{PICKERS} [data-picker=mode]")
    menu = page.locator("[data-testid=session-menu]")
    assert menu.locator("[role=menuitemradio]").count() == 3
    assert "make edits, and run commands" in menu.inner_text()
    shoot(page, shots, "mode-menu")
    menu.locator("[role=menuitemradio][data-value=auto]").click()
    wait_value(page, "mode", "auto")

    # The model, with the keyboard: ↓ opens the menu on the current model, ↓ moves, Enter picks.
    page.focus(f"{PICKERS} [data-picker='option:model']")
    page.keyboard.press("ArrowDown")
    page.wait_for_selector("[data-testid=session-menu]")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")
    wait_value(page, "option:model", "gpt-5.1-codex-mini")
    assert page.locator("[data-testid=session-menu]").count() == 0
    assert page.evaluate("document.activeElement.dataset.picker") == "option:model"
    # The mini model has one reasoning effort: the agent said so, the header follows.
    wait_value(page, "option:reasoning_effort", "medium")

    # The agent has them (its answer says so), and so does the conversation.
    said = ask(page, "what now?")
    assert "mode=auto" in said and "model=gpt-5.1-codex-mini" in said
    session = api(page, "ChannelService", "Conversation", channel)["sessions"]["codex"]
    assert session["mode"] == "auto"

    # The agent changes its own mode: the header follows live.
    ask(page, "go full-access")
    wait_value(page, "mode", "full-access")

    # Reloading the page loads them anew from the conversation: still shown.
    page.reload()
    page.wait_for_selector("[data-ready=true]", timeout=WAIT)
    page.locator("[data-testid=direct-item]", has_text="codex").click()
    page.wait_for_selector(CONVERSATION)
    wait_value(page, "mode", "full-access")
    wait_value(page, "option:model", "gpt-5.1-codex-mini")


def test_a_boolean_option_is_a_switch_and_a_refused_change_reverts_with_its_reason(
    app: Page, shots: Path
) -> None:
    page = app
    channel = open_direct(page)
    ask(page, "hello")
    switch = page.locator(f"{PICKERS} [data-picker='option:web_search']")
    switch.wait_for(timeout=WAIT)
    assert switch.get_attribute("role") == "switch"
    assert switch.get_attribute("aria-checked") == "false"
    assert switch.get_attribute("aria-label") == "Web search of codex"
    switch.click()
    wait_value(page, "option:web_search", "true")
    assert "web_search=True" in ask(page, "and now?")

    # An offer the agent does not stand by (made here to look like one): the agent refuses the
    # change, the picker shows the last known value again and the agent's reason is shown.
    session = api(page, "ChannelService", "Conversation", channel)["sessions"]["codex"]
    model = next(o for o in session["options"] if o["id"] == "model")
    model["choices"].append({"value": "gpt-0", "name": "gpt-0", "description": ""})
    page.evaluate(
        "([c, s]) => window.__sidekicks.dispatch("
        "[['session:changed', {channel: c, agent: 'codex', session: s}]])",
        [channel, session],
    )
    choose(page, "option:model", "gpt-0")
    error = page.locator("[data-testid=session-error][data-agent=codex]")
    error.wait_for(timeout=WAIT)
    assert "gpt-0" in error.inner_text()
    wait_value(page, "option:model", "gpt-5.2-codex")
    shoot(page, shots, "refused")
    error.get_by_role("button").click()
    assert error.count() == 0


def test_in_a_channel_each_member_s_chip_opens_its_pickers_in_french(
    tmp_path: Path, shots: Path
) -> None:
    config = tmp_path / "session-fr.yaml"
    config.write_text(config_text("fr"), encoding="utf-8")
    with running_app(["--config", str(config)], tmp_path / "app.log") as (page, _proc):
        page.set_viewport_size({"width": 1280, "height": 760})
        created = api(page, "ChannelService", "Create", "team")
        api(page, "ChannelService", "AddMember", created["id"], "codex")
        page.locator("[data-testid=channel-item]", has_text="team").click()
        page.wait_for_selector(CONVERSATION)
        ask(page, "@codex hello")
        chip = page.locator("[data-member=codex] [data-testid=member-session]")
        chip.wait_for(timeout=WAIT)
        assert chip.get_attribute("aria-label") == "Mode et options de codex"
        assert chip.inner_text() == "Read Only · gpt-5.2-codex", "the chip: mode and model"
        # The header stays one line: the pickers are in a popover, not in the members row.
        assert page.locator("[data-testid=members] [data-testid=session-pickers]").count() == 0

        chip.click()
        popover = "[data-member=codex] [role=dialog]"
        assert picker(page, "mode", popover)["label"] == "Mode de codex : Read Only"
        assert page.evaluate("document.activeElement.dataset.picker") == "mode"
        titles = page.eval_on_selector_all(
            f"{popover} .title", "els => els.map(e => e.textContent.trim())"
        )
        assert titles == ["Mode", "Modèle", "Reasoning Effort", "Web search"]
        shoot(page, shots, "channel-popover")
        page.keyboard.press("Enter")
        page.click("[data-testid=session-menu] [role=menuitemradio][data-value=auto]")
        wait_value(page, "mode", "auto", popover)
        page.wait_for_function(
            "() => document.querySelector('[data-member=codex] [data-testid=member-session]')"
            "?.textContent.includes('Auto')"
        )
        # Escape closes a menu first, then the popover, and gives the focus back to the chip.
        page.keyboard.press("ArrowDown")
        page.wait_for_selector("[data-testid=session-menu]")
        page.keyboard.press("Escape")
        assert page.locator("[data-testid=session-menu]").count() == 0
        assert page.locator(popover).count() == 1
        page.keyboard.press("Escape")
        assert page.locator(popover).count() == 0
        assert page.evaluate("document.activeElement.dataset.testid") == "member-session"


DEMO_PICKERS = "[data-testid=conversation-header] [data-testid=session-pickers][data-agent=demo]"


def test_the_demo_s_mode_and_model_are_picked_and_kept_across_a_restart(
    tmp_path: Path, shots: Path
) -> None:
    config = tmp_path / "demo.yaml"
    config.write_text("agents:\n  - name: demo\n    builtin: demo\n", encoding="utf-8")
    with running_app(["--config", str(config)], tmp_path / "app.log") as (page, _proc):
        page.set_viewport_size({"width": 1280, "height": 760})
        page.locator("[data-testid=agent-item]", has_text="demo").click()
        page.wait_for_selector(CONVERSATION)
        # Opening the conversation prepares the demo, which opens its session: no message needed.
        wait_value(page, "mode", "code", DEMO_PICKERS)
        wait_value(page, "option:model", "demo-swift", DEMO_PICKERS)
        assert picker(page, "option:show_thoughts", DEMO_PICKERS)["value"] == "true"
        page.click(f"{DEMO_PICKERS} [data-picker=mode]")
        assert "never edits a file" in page.inner_text("[data-testid=session-menu]")
        page.click("[data-testid=session-menu] [role=menuitemradio][data-value=ask]")
        wait_value(page, "mode", "ask", DEMO_PICKERS)
        page.click(f"{DEMO_PICKERS} [data-picker='option:model']")
        page.click("[data-testid=session-menu] [role=menuitemradio][data-value=demo-sage]")
        wait_value(page, "option:model", "demo-sage", DEMO_PICKERS)
        said = ask(page, "/status")
        assert "Mode: Ask (ask)" in said and "Model: Demo Sage (demo-sage)" in said
        shoot(page, shots, "demo")

    # A new launch: the conversation shows the values its history kept, and the demo has them.
    with running_app(["--config", str(config)], tmp_path / "app2.log") as (page, _proc):
        page.locator("[data-testid=direct-item]", has_text="demo").click()
        page.wait_for_selector(CONVERSATION)
        wait_value(page, "mode", "ask", DEMO_PICKERS)
        wait_value(page, "option:model", "demo-sage", DEMO_PICKERS)
        said = ask(page, "/status")
        assert "Mode: Ask (ask)" in said and "Model: Demo Sage (demo-sage)" in said
