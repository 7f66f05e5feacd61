"""The Agents panel in the real window: states live, controls by state, errors, the log, the
outdated badge, and the frame around it (sidebar, status line) in both languages and themes."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from app import Sidekicks
from tests.agents import agent_yaml
from tests.e2e.window import api, running_app

pytestmark = pytest.mark.e2e

WAIT = 20_000  # ms: an agent start is a real process and an ACP handshake


def config_text(
    theme: str = "light", language: str = "en", alpha_extra: str = "", alpha_env: str = ""
) -> str:
    # alpha_env: a change its process sees (a new description alone needs no restart)
    env = {"env": {"SIDEKICKS_TEST": alpha_env}} if alpha_env else {}
    return (
        f"theme: {theme}\nlanguage: {language}\nagents:\n"
        '  - name: demo\n    title: Demo\n    icon: "🧪"\n'
        "    description: A built-in demo agent. Works offline, shows every kind of message.\n"
        "    builtin: demo\n"
        + agent_yaml(
            "alpha", description="A fake agent that answers with an echo." + alpha_extra, **env
        )
        + agent_yaml("crashy", "exit-after-init", icon="💥")
    )


@pytest.fixture
def e2e_config(tmp_path: Path) -> Path:
    path = tmp_path / "agents.yaml"
    path.write_text(config_text(), encoding="utf-8")
    return path


def card(page: Page, agent: str) -> str:
    return f"article[data-agent={agent}]"


def buttons_enabled(page: Page, agent: str) -> dict[str, bool]:
    return {
        action: page.locator(f"{card(page, agent)} [data-testid=agent-{action}]").is_enabled()
        for action in ("start", "stop", "restart")
    }


def test_states_change_live_with_the_buttons_and_the_log_shows_stderr(
    window: Page, shots: Path
) -> None:
    window.set_viewport_size({"width": 1200, "height": 780})
    alpha = window.locator(card(window, "alpha"))
    expect(alpha).to_have_attribute("data-state", "stopped")
    expect(alpha.get_by_test_id("agent-state")).to_have_text("stopped")
    expect(alpha).to_contain_text("A fake agent that answers with an echo.")
    assert buttons_enabled(window, "alpha") == {"start": True, "stop": False, "restart": False}
    # The icon buttons are named by their aria-label.
    expect(alpha.get_by_role("button", name="Start", exact=True)).to_be_visible()
    window.screenshot(path=str(shots / "agents-light-en.png"))

    alpha.get_by_test_id("agent-start").click()
    window.wait_for_selector(f"{card(window, 'alpha')}[data-state=ready]", timeout=WAIT)
    expect(alpha.get_by_test_id("agent-state")).to_have_text("ready")
    assert buttons_enabled(window, "alpha") == {"start": False, "stop": True, "restart": True}
    expect(window.get_by_test_id("agents-panel")).to_contain_text("1 running")

    # The log: the lines written before it was opened (Logs), then the live ones (agent:log).
    alpha.get_by_test_id("agent-log-toggle").click()
    expect(alpha.get_by_test_id("agent-log")).to_contain_text("fake agent ready: []")

    # A crash: ready, then error by itself, with its reason and its last stderr lines.
    crashy = window.locator(card(window, "crashy"))
    crashy.get_by_test_id("agent-start").click()
    window.wait_for_selector(f"{card(window, 'crashy')}[data-state=error]", timeout=WAIT)
    error = crashy.get_by_test_id("agent-error")
    expect(error).to_contain_text("The agent stopped by itself (exit code 4)")
    expect(error.locator("pre")).to_contain_text("fake agent ready: ['exit-after-init']")
    assert buttons_enabled(window, "crashy") == {"start": True, "stop": False, "restart": False}
    window.screenshot(path=str(shots / "agents-running-error.png"))

    # A restart is a new process: its stderr line arrives live in the open log.
    alpha.get_by_test_id("agent-restart").click()
    expect(alpha.get_by_test_id("agent-log")).to_contain_text(
        "fake agent ready: []\nfake agent ready: []", timeout=WAIT
    )
    window.wait_for_selector(f"{card(window, 'alpha')}[data-state=ready]", timeout=WAIT)

    alpha.get_by_test_id("agent-stop").click()
    window.wait_for_selector(f"{card(window, 'alpha')}[data-state=stopped]", timeout=WAIT)
    assert buttons_enabled(window, "alpha") == {"start": True, "stop": False, "restart": False}


def test_a_changed_definition_asks_for_a_restart(window: Page, e2e_config: Path) -> None:
    alpha = window.locator(card(window, "alpha"))
    alpha.get_by_test_id("agent-start").click()
    window.wait_for_selector(f"{card(window, 'alpha')}[data-state=ready]", timeout=WAIT)
    expect(alpha.get_by_test_id("agent-outdated")).to_have_count(0)

    e2e_config.write_text(config_text(alpha_extra=" Changed.", alpha_env="1"), encoding="utf-8")
    expect(alpha.get_by_test_id("agent-outdated")).to_have_text(
        "restart to apply changes", timeout=WAIT
    )
    expect(alpha).to_contain_text("Changed.")  # the list reloaded on config:changed

    alpha.get_by_test_id("agent-restart").click()
    expect(alpha.get_by_test_id("agent-outdated")).to_have_count(0, timeout=WAIT)
    window.wait_for_selector(f"{card(window, 'alpha')}[data-state=ready]", timeout=WAIT)


def background(page: Page) -> str:
    return str(page.evaluate("getComputedStyle(document.body).backgroundColor"))


def test_language_and_theme_written_from_outside_apply_live(
    window: Page, e2e_config: Path, shots: Path
) -> None:
    window.set_viewport_size({"width": 1200, "height": 780})
    crashy = window.locator(card(window, "crashy"))
    crashy.get_by_test_id("agent-start").click()
    window.wait_for_selector(f"{card(window, 'crashy')}[data-state=error]", timeout=WAIT)
    light = background(window)
    assert window.evaluate("document.documentElement.dataset.theme") == "light"

    e2e_config.write_text(config_text(theme="dark", language="fr"), encoding="utf-8")
    expect(window.get_by_test_id("nav-settings")).to_contain_text("Paramètres", timeout=WAIT)
    expect(window.locator(card(window, "alpha")).get_by_test_id("agent-state")).to_have_text(
        "arrêté"
    )
    expect(crashy.get_by_test_id("agent-state")).to_have_text("erreur")
    expect(window.get_by_test_id("sidebar")).to_contain_text("Canaux")
    expect(crashy.get_by_role("button", name="Démarrer", exact=True)).to_be_enabled()
    assert window.evaluate("document.documentElement.lang") == "fr"
    assert window.evaluate("document.documentElement.dataset.theme") == "dark"
    dark = background(window)
    assert dark != light
    window.screenshot(path=str(shots / "agents-dark-fr.png"))

    e2e_config.write_text(config_text(theme="light", language="en"), encoding="utf-8")
    expect(window.get_by_test_id("nav-settings")).to_contain_text("Settings", timeout=WAIT)
    expect(crashy.get_by_test_id("agent-state")).to_have_text("error")
    assert window.evaluate("document.documentElement.dataset.theme") == "light"
    assert background(window) == light

    # theme: system follows the OS live (prefers-color-scheme change events).
    window.emulate_media(color_scheme="light")
    e2e_config.write_text(config_text(theme="system"), encoding="utf-8")
    html = window.locator("html")
    expect(html).to_have_attribute("data-theme-setting", "system", timeout=WAIT)
    expect(html).to_have_attribute("data-theme", "light")
    window.emulate_media(color_scheme="dark")
    expect(html).to_have_attribute("data-theme", "dark")
    assert background(window) == dark
    window.emulate_media(color_scheme="light")
    expect(html).to_have_attribute("data-theme", "light")


def test_the_status_line_and_the_sidebar(window: Page, e2e_config: Path, shots: Path) -> None:
    status = window.get_by_role("status").filter(has=window.get_by_test_id("status-path"))
    expect(status.get_by_test_id("status-path")).to_contain_text(str(e2e_config))
    expect(status.get_by_test_id("status-source")).to_have_text("given with --config")
    expect(status.get_by_test_id("status-problems")).to_have_text("No problems")

    # An invalid edit from outside: the last valid configuration runs, the problem is counted.
    e2e_config.write_text(config_text().replace("theme: light", "theme: blue"), encoding="utf-8")
    expect(status.get_by_test_id("status-problems")).to_have_text("1 problem", timeout=WAIT)

    # Channels and direct conversations appear in the sidebar as they are created.
    room = api(window, "ChannelService", "Create", "design", "UI work")
    direct = api(window, "ChannelService", "Direct", "demo")
    expect(window.get_by_test_id("channel-item")).to_have_text("design")
    expect(window.get_by_test_id("direct-item")).to_contain_text("Demo")
    window.get_by_test_id("channel-item").click()
    expect(window.get_by_test_id("conversation")).to_have_attribute("data-channel", room["id"])
    expect(window.get_by_test_id("channel-item")).to_have_attribute("aria-current", "page")
    window.get_by_test_id("direct-item").click()
    expect(window.get_by_test_id("conversation")).to_have_attribute("data-channel", direct["id"])

    # The keyboard: arrows move between sidebar entries, Enter opens one.
    # (Every agent has its row under Direct messages, in the configuration's order: issue 29.)
    window.get_by_test_id("direct-item").focus()
    window.keyboard.press("ArrowDown")
    expect(window.get_by_test_id("agent-item").first).to_be_focused()
    window.keyboard.press("ArrowUp")
    expect(window.get_by_test_id("direct-item")).to_be_focused()
    window.get_by_test_id("agent-item").last.focus()
    window.keyboard.press("ArrowDown")
    expect(window.get_by_test_id("nav-agents")).to_be_focused()
    window.keyboard.press("Enter")
    expect(window.get_by_test_id("agents-panel")).to_be_visible()
    expect(window.get_by_test_id("nav-agents")).to_have_attribute("aria-current", "page")
    window.screenshot(path=str(shots / "sidebar-channels.png"))


def test_a_history_problem_is_shown_as_a_banner(
    e2e_config: Path, tmp_path: Path, shots: Path
) -> None:
    # Another Sidekicks holds this configuration's history: the window runs on in memory.
    with (
        Sidekicks(config=str(e2e_config)),
        running_app(["--config", str(e2e_config)], tmp_path / "app.log") as (page, _proc),
    ):
        page.set_viewport_size({"width": 1200, "height": 780})
        banner = page.get_by_test_id("history-problem")
        expect(banner).to_contain_text("Conversations are not being saved.")
        expect(banner).to_contain_text("Another Sidekicks")
        expect(page.get_by_test_id("status-line")).to_contain_text("History in memory only")
        page.screenshot(path=str(shots / "history-problem.png"))
