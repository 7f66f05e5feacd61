"""New session from the window (issue 17): the header's action asks first, then the divider
shows in the conversation, and the agent's next prompt starts a new session without what came
before."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page

from tests.agents import agent_yaml
from tests.e2e.window import open_conversation, running_app, text_of

pytestmark = pytest.mark.e2e

CONVERSATION = "[data-testid=conversation][data-loaded=true]"
DIVIDER = f"{CONVERSATION} [data-testid=message][data-code=new-session]"
WAIT = 30_000


@pytest.fixture
def app(tmp_path: Path) -> Iterator[tuple[Page, Path]]:
    log = tmp_path / "alpha.jsonl"
    config = tmp_path / "fresh.yaml"
    config.write_text(
        "agents:\n"
        + agent_yaml("alpha", env={"FAKE_LOG": str(log)})
        + agent_yaml("beta", env={"FAKE_LOG": str(tmp_path / "beta.jsonl")}),
        encoding="utf-8",
    )
    with running_app(["--config", str(config)], tmp_path / "app.log") as (page, _proc):
        page.set_viewport_size({"width": 1280, "height": 860})
        yield page, tmp_path


def received(log: Path, method: str) -> list[dict[str, Any]]:
    lines = log.read_text(encoding="utf-8").splitlines() if log.exists() else []
    return [m for m in map(json.loads, filter(None, lines)) if m.get("method") == method]


def send_and_wait(page: Page, text: str, answers: int) -> None:
    box = page.locator("[data-testid=composer-input]")
    box.fill(text)
    box.press("Enter")
    page.wait_for_function(
        f"""() => document.querySelectorAll(
            '{CONVERSATION} [data-testid=message][data-role=agent][data-done=true]').length
            >= {answers}""",
        timeout=WAIT,
    )


def test_new_session_shows_the_divider_and_the_agent_starts_afresh(
    app: tuple[Page, Path], shots: Path
) -> None:
    page, folder = app
    page.locator("[data-testid=agent-item]", has_text="alpha").click()
    page.wait_for_selector(CONVERSATION)
    send_and_wait(page, "the secret is 41", 1)

    # Asked first; Cancel changes nothing.
    page.click("[data-testid=new-session]")
    page.wait_for_selector("[data-testid=dialog][open]")
    page.click("[data-testid=dialog] [data-choice=cancel]")
    page.wait_for_selector("[data-testid=dialog][open]", state="detached")
    assert page.locator(DIVIDER).count() == 0

    page.click("[data-testid=new-session]")
    page.wait_for_selector("[data-testid=dialog][open]")
    page.click("[data-testid=dialog] [data-choice=start]")
    divider = page.locator(DIVIDER)
    divider.wait_for(timeout=WAIT)
    assert "New session" in text_of(divider)
    assert "earlier messages are not sent to the agents" in text_of(divider)
    page.screenshot(path=str(shots / "new-session-divider.png"))

    send_and_wait(page, "what is the secret?", 2)
    log = folder / "alpha.jsonl"
    assert len(received(log, "session/new")) == 2
    assert len(received(log, "initialize")) == 1  # the same process
    last = received(log, "session/prompt")[-1]
    text = "".join(b.get("text", "") for b in last["params"]["prompt"])
    assert "secret is 41" not in text

    # The divider is kept: it shows again after a reload.
    page.reload()
    page.wait_for_selector(DIVIDER, timeout=WAIT)


def test_new_session_in_a_channel_is_in_its_header_too(app: tuple[Page, Path]) -> None:
    page, _folder = app
    page.evaluate("() => window.pywebview.api.ChannelService.Create('team', '', ['alpha', 'beta'])")
    # Not any loaded conversation: the window reloaded by the test before shows its own again.
    open_conversation(page, "[data-testid=channel-item]", "team")
    page.click("[data-testid=new-session]")
    page.click("[data-testid=dialog] [data-choice=start]")
    page.wait_for_selector(DIVIDER, timeout=WAIT)
