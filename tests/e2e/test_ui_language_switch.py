"""Switching the language in the real window (#16 item 10): what is on screen follows at once —
the settings' problems (worded by the backend) are asked for again in the new language, code
blocks' Copy buttons are relabelled both ways, the channel's Delete button is a verb in
French, and the welcome's agents are described in French (the catalog asked again). The switch
is made from outside the app, as an edit of the configuration file."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.agents import agent_yaml
from tests.e2e.editor import replace_editor_text
from tests.e2e.window import api, running_app

pytestmark = pytest.mark.e2e

WAIT = 30_000  # ms: the demo agent starts and answers within this
CONFIG = "theme: light\nlanguage: en\nagents:\n  - name: demo\n    builtin: demo\n"
CONVERSATION = "[data-testid=conversation][data-loaded=true]"


@pytest.fixture
def config(tmp_path: Path) -> Path:
    path = tmp_path / "switch.yaml"
    path.write_text(CONFIG + agent_yaml("alpha"), encoding="utf-8")
    return path


@pytest.fixture
def window(config: Path, tmp_path: Path) -> Iterator[Page]:
    with running_app(["--config", str(config)], tmp_path / "app.log") as (page, _proc):
        page.set_viewport_size({"width": 1200, "height": 800})
        yield page


def switch_to(page: Page, config: Path, language: str, settings_label: str) -> None:
    """Writes `language` into the file from outside; waits until the window speaks it."""
    text = re.sub(r"language: \w+", f"language: {language}", config.read_text(encoding="utf-8"))
    config.write_text(text, encoding="utf-8")
    expect(page.get_by_test_id("nav-settings")).to_contain_text(settings_label, timeout=WAIT)


def test_the_settings_problems_are_in_the_new_language_at_once(window: Page, config: Path) -> None:
    page = window
    page.keyboard.press("Control+,")
    page.wait_for_selector("[data-testid=config-editor] .cm-content", timeout=WAIT)
    replace_editor_text(page, CONFIG.replace("theme: light", "theme: purple"))
    problem = page.get_by_test_id("problem")
    expect(problem).to_contain_text("must be one of", timeout=WAIT)

    # No keystroke after the switch: the list is asked for again and speaks French.
    switch_to(page, config, "fr", "Paramètres")
    expect(problem).to_contain_text("doit valoir", timeout=WAIT)
    expect(problem).not_to_contain_text("must be one of")
    switch_to(page, config, "en", "Settings")
    expect(problem).to_contain_text("must be one of", timeout=WAIT)


def test_the_welcome_s_agents_are_described_in_the_new_language(window: Page, config: Path) -> None:
    page = window
    codex = page.locator("[data-testid=welcome-add][data-id=codex-acp]")
    expect(codex).to_have_attribute("title", "OpenAI's coding agent, through Zed's ACP adapter.")
    switch_to(page, config, "fr", "Paramètres")
    # The backend's words (the catalog), asked again: not only the page's own ("Ajouter …").
    expect(codex).to_have_attribute(
        "title", "L’agent de code d’OpenAI, par l’adaptateur ACP de Zed.", timeout=WAIT
    )
    expect(codex).to_contain_text("Ajouter Codex CLI")


def test_code_block_buttons_and_the_delete_button_follow_the_language(
    window: Page, config: Path
) -> None:
    page = window
    page.locator("[data-testid=agent-item]", has_text="demo").click()
    page.wait_for_selector(CONVERSATION, timeout=WAIT)
    box = page.locator("[data-testid=composer-input]")
    box.fill("/echo ```python\nprint(1)\n```")
    box.press("Escape")  # closes the command completion, so Enter sends
    box.press("Enter")
    copy = page.locator(".code-block .copy-code").first  # the answer echoes the block again
    expect(copy).to_have_text("Copy", timeout=WAIT)

    switch_to(page, config, "fr", "Paramètres")
    expect(copy).to_have_text("Copier")
    switch_to(page, config, "en", "Settings")
    expect(copy).to_have_text("Copy")

    channel = api(page, "ChannelService", "Create", "review", "")
    page.locator("[data-testid=channel-item]", has_text="review").click()
    page.wait_for_selector(f"{CONVERSATION}", timeout=WAIT)
    assert channel["name"] == "review"
    switch_to(page, config, "fr", "Paramètres")
    expect(page.get_by_test_id("delete-channel")).to_have_text("Supprimer")


def test_a_crashed_agents_reason_on_its_card_follows_a_switch_to_french_and_back(
    window: Page, config: Path
) -> None:
    page = window
    text = config.read_text(encoding="utf-8") + agent_yaml("crasher", "exit-after-init")
    config.write_text(text, encoding="utf-8")
    page.click("[data-testid=nav-agents]")
    card = page.locator("[data-testid=agents-panel] article[data-agent=crasher]")
    card.get_by_test_id("agent-start").click(timeout=WAIT)
    reason = card.get_by_test_id("agent-error").locator(".reason")
    expect(reason).to_contain_text("stopped by itself (exit code 4)", timeout=WAIT)
    tail = card.get_by_test_id("agent-error").locator(".tail")
    expect(tail).to_contain_text("fake agent ready")

    # Made before the switch, said in the new language after it; the agent's lines as written.
    switch_to(page, config, "fr", "Paramètres")
    expect(reason).to_contain_text("arrêté de lui-même (code de sortie 4)", timeout=WAIT)
    expect(reason).not_to_contain_text("stopped by itself")
    expect(tail).to_contain_text("fake agent ready")
    switch_to(page, config, "en", "Settings")
    expect(reason).to_contain_text("stopped by itself (exit code 4)", timeout=WAIT)
