"""Configuration rough edges in the real window (#16): warnings counted as warnings, a missing
program said on its agent's card before a start, the last valid configuration said after an
invalid outside edit, the start file among the recent files, channel members the configuration
no longer has."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.agents import agent_yaml
from tests.e2e.editor import replace_editor_text
from tests.e2e.window import api, back_home, module_app, running_app

pytestmark = pytest.mark.e2e

WAIT = 20_000
MISSING = "sidekicks-no-such-agent-program"
GHOST = f'  - name: ghost\n    command: ["{MISSING}", "--acp"]\n'


def config_text(language: str = "en", theme: str = "light", agents: str = "") -> str:
    return (
        f"theme: {theme}\nlanguage: {language}\nagents:\n  - name: demo\n    builtin: demo\n"
        + agent_yaml("alpha")
        + agents
    )


@pytest.fixture
def e2e_config(tmp_path: Path) -> Path:
    path = tmp_path / "edges.yaml"
    path.write_text(config_text(agents=GHOST), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def edges_window(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Page, Path, Path]]:
    """One window for the tests that only read the configuration or type in the editor without
    saving (reloaded before each: the buffer is gone); those that write the file take `window`."""
    folder = tmp_path_factory.mktemp("edges")
    config = folder / "edges.yaml"
    config.write_text(config_text(agents=GHOST), encoding="utf-8")
    with module_app(folder, ["--config", str(config)]) as (page, _proc):
        yield page, folder / "app.log", config


@pytest.fixture
def reading_window(edges_window: tuple[Page, Path, Path]) -> Page:
    page, log, _config = edges_window
    return back_home(page, log)


def open_settings(page: Page) -> None:
    page.keyboard.press("Control+,")
    page.wait_for_selector("[data-testid=config-editor] .cm-content", timeout=WAIT)


def test_a_missing_program_is_said_on_its_card_before_any_start(
    reading_window: Page, shots: Path
) -> None:
    window = reading_window
    ghost = window.locator("article[data-agent=ghost]")
    expect(ghost).to_have_attribute("data-state", "stopped", timeout=WAIT)
    warning = ghost.get_by_test_id("agent-command-missing")
    expect(warning).to_have_text(f"{MISSING} was not found on PATH: the agent will not start")
    expect(warning.locator("code")).to_have_text(MISSING)  # the backticks shown as code
    expect(
        window.locator("article[data-agent=alpha]").get_by_test_id("agent-command-missing")
    ).to_have_count(0)
    ghost.screenshot(path=str(shots / "agent-command-missing.png"))


def test_one_warning_is_counted_as_a_warning_and_a_problem_beside_it_as_a_problem(
    reading_window: Page, shots: Path
) -> None:
    window = reading_window
    open_settings(window)
    heading = window.locator("#problems-heading")
    expect(window.get_by_test_id("warning-count")).to_have_text("1 warning", timeout=WAIT)
    expect(window.get_by_test_id("problem-count")).to_have_count(0)
    expect(heading).not_to_contain_text("Problems")  # never "PROBLEMS 1" for a warning

    replace_editor_text(window, config_text(theme="blue", agents=GHOST))
    expect(window.get_by_test_id("problem-count")).to_have_text("1 problem", timeout=WAIT)
    expect(window.get_by_test_id("warning-count")).to_have_text("1 warning")
    window.get_by_test_id("problems").screenshot(path=str(shots / "settings-counts.png"))


@pytest.fixture
def french_window(tmp_path: Path) -> Iterator[Page]:
    path = tmp_path / "french.yaml"
    path.write_text(config_text(language="fr", agents=GHOST), encoding="utf-8")
    with running_app(["--config", str(path)], tmp_path / "app.log") as (page, _proc):
        yield page


def test_the_counts_and_the_missing_program_read_in_french(french_window: Page) -> None:
    page = french_window
    warning = page.locator("article[data-agent=ghost]").get_by_test_id("agent-command-missing")
    expect(warning).to_contain_text(MISSING, timeout=WAIT)
    expect(warning).not_to_contain_text("was not found")
    open_settings(page)
    expect(page.get_by_test_id("warning-count")).to_have_text("1 avertissement", timeout=WAIT)


def test_an_invalid_outside_edit_says_the_agents_shown_are_the_last_valid_ones(
    window: Page, e2e_config: Path, shots: Path
) -> None:
    panel = window.get_by_test_id("agents-panel")
    expect(panel.locator("article[data-agent=alpha]")).to_be_visible(timeout=WAIT)
    banner = window.get_by_test_id("agents-stale-config")
    expect(banner).to_have_count(0)

    e2e_config.write_text(config_text(theme="blue") + agent_yaml("beta"), encoding="utf-8")
    expect(banner).to_contain_text("shows the last valid configuration", timeout=WAIT)
    expect(panel.locator("article[data-agent=alpha]")).to_be_visible()
    expect(panel.locator("article[data-agent=beta]")).to_have_count(0)
    panel.screenshot(path=str(shots / "agents-stale-config.png"))

    banner.get_by_role("button").click()
    expect(window.get_by_test_id("settings-panel")).to_be_visible(timeout=WAIT)
    expect(window.get_by_test_id("problem-count")).to_have_text("1 problem", timeout=WAIT)

    e2e_config.write_text(config_text() + agent_yaml("beta"), encoding="utf-8")
    expect(window.get_by_test_id("problem-count")).to_have_count(0, timeout=WAIT)
    window.get_by_test_id("nav-agents").click()
    expect(panel.locator("article[data-agent=beta]")).to_be_visible(timeout=WAIT)
    expect(banner).to_have_count(0)


def test_recent_lists_the_file_the_app_started_on(
    reading_window: Page, edges_window: tuple[Page, Path, Path]
) -> None:
    window, e2e_config = reading_window, edges_window[2]
    open_settings(window)
    window.get_by_test_id("recent-button").click()
    items = window.get_by_test_id("recent-item")
    expect(items).to_have_count(1, timeout=WAIT)
    assert items.evaluate_all("els => els.map(e => e.dataset.path)") == [str(e2e_config)]


def test_a_member_renamed_in_the_configuration_is_flagged_never_promised_and_removable(
    window: Page, e2e_config: Path, shots: Path
) -> None:
    room = api(window, "ChannelService", "Create", "edges", "")
    api(window, "ChannelService", "AddMember", room["id"], "demo")
    api(window, "ChannelService", "Send", room["id"], "@alpha hello")
    window.locator("[data-testid=channel-item]", has_text="edges").click()
    answer = window.locator("[data-testid=message][data-role=agent][data-agent=alpha]")
    expect(answer).to_have_count(1, timeout=WAIT)
    chip = window.locator("[data-testid=members] [data-member=alpha]")
    expect(chip).to_be_visible()
    expect(chip.get_by_test_id("member-not-configured")).to_have_count(0)
    box = window.locator("[data-testid=composer-input]")
    box.fill("and now?")
    preview = window.get_by_test_id("routing-preview")
    expect(preview).to_have_text(re.compile(r"@alpha will answer"))

    # alpha renamed on disk: the member stays, flagged, and the preview promises nothing from it
    e2e_config.write_text(config_text(agents=GHOST).replace("name: alpha", "name: alfa"), "utf-8")
    flag = chip.get_by_test_id("member-not-configured")
    expect(flag).to_have_text("not in the configuration", timeout=WAIT)
    expect(chip.locator(".meter, [data-testid=usage-meter]")).to_have_count(0)
    expect(preview).to_contain_text("@alpha will not answer")
    expect(preview).not_to_contain_text("@alpha will answer")
    expect(window.locator("[data-testid=members] [data-member=demo]")).to_be_visible()
    window.get_by_test_id("members").screenshot(path=str(shots / "member-not-configured.png"))

    chip.get_by_test_id("remove-not-configured").click()
    expect(chip).to_have_count(0, timeout=WAIT)
    expect(preview).to_contain_text("@demo will answer")  # the single member left
