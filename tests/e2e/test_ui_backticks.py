"""No raw markup (issue 29): the agents' and Sidekicks' sentences quote names in backticks, and
the window shows those as code, never as backticks — an agent's description, its sign-in
method's description, a tool call's title, a failed answer's error, the sign-in hint, the
Preferences' problems. The fake agent (tests/fakes/backtick_agent.py) says every sentence that
way."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.e2e.window import back_home, module_app

pytestmark = pytest.mark.e2e

FAKES = Path(__file__).resolve().parents[1] / "fakes"
CONVERSATION = "[data-testid=conversation][data-loaded=true]"
WAIT = 20_000


@pytest.fixture(scope="module")
def one_window(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Page, Path]]:
    """One window: one test talks to `ticks`, the other only types in the Preferences form
    (a value it refuses, so nothing is saved)."""
    folder = tmp_path_factory.mktemp("backticks")
    command = [sys.executable, str(FAKES / "backtick_agent.py")]
    config = folder / "backticks.yaml"
    config.write_text(
        "agents:\n"
        "  - name: ticks\n"
        f"    command: {json.dumps(command)}\n"
        '    description: "Reads `CODEX_API_KEY`; sign in with `opencode auth login`"\n',
        encoding="utf-8",
    )
    env = {"SIDEKICKS_SECRETS_DIR": str(folder / "secrets")}
    with module_app(folder, ["--config", str(config)], env) as (page, _proc):
        yield page, folder / "app.log"


@pytest.fixture
def app(one_window: tuple[Page, Path]) -> Page:
    page, log = one_window
    return back_home(page, log, (1280, 860))


def shows_code(where: Locator, *names: str) -> None:
    """`where` shows each of `names` as code, and no backtick at all."""
    expect(where.locator("code")).to_have_text(list(names), timeout=WAIT)
    assert "`" not in where.inner_text(), where.inner_text()


def test_backticks_in_agents_and_app_sentences_show_as_code(app: Page, shots: Path) -> None:
    page = app
    page.keyboard.press("Control+Shift+A")
    card = page.locator("article[data-agent=ticks]")
    shows_code(card.locator(".description"), "CODEX_API_KEY", "opencode auth login")

    page.locator("[data-testid=agent-item]", has_text="ticks").click()
    page.wait_for_selector(CONVERSATION)
    box = page.locator("[data-testid=composer-input]")
    box.fill("hello")
    box.press("Enter")

    # A tool call's title, as claude-agent-acp writes a command's.
    tool = page.locator(f"{CONVERSATION} [data-testid=message][data-role=agent] .tool .title")
    shows_code(tool.first, "npm test")

    # The failed answer's error, as the agent wrote it, with its names as code.
    failure = page.get_by_test_id("message-error")
    expect(failure).to_contain_text("Run opencode auth login first", timeout=WAIT)
    shows_code(failure.locator("pre").first, "opencode auth login", "/retry")

    # The agent's error, offered as a sign-in hint beside its methods, in the conversation.
    shows_code(page.get_by_test_id("signin-notice-hint"), "opencode auth login", "/retry")

    # The agent's sign-in method, described with a backticked variable, and the hint, on its card.
    page.keyboard.press("Control+Shift+A")
    shows_code(card.get_by_test_id("agent-signin-hint"), "opencode auth login", "/retry")
    method = card.locator("[data-testid=signin-method][data-method=codex-api-key] .description")
    shows_code(method, "CODEX_API_KEY")
    page.screenshot(path=str(shots / "backticks-as-code.png"))


def test_an_app_sentence_refusing_a_value_shows_its_names_as_code(app: Page) -> None:
    page = app
    page.keyboard.press("Control+,")
    page.wait_for_selector("[data-testid=config-editor] .cm-content", timeout=WAIT)
    # The Preferences form refuses a duration it cannot read, naming the key in backticks.
    idle = page.get_by_test_id("preferences-idle")
    idle.fill("soon")
    idle.press("Enter")
    problem = page.get_by_test_id("preferences-problems").locator("li").first
    expect(problem).to_contain_text("must be a duration like 90s", timeout=WAIT)
    shows_code(problem, "stopIdleAgentsAfter")
