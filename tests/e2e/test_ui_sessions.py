"""The agent's own sessions in the window (issue 26): the agent's card lists them (title,
folder, last activity); "Open" shows the session as a conversation named after its title, with
its replayed history; an agent that does not list sessions says so."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.window import running_app

pytestmark = pytest.mark.e2e

FAKE = str(Path(__file__).resolve().parents[1] / "fakes" / "acp2026_sessions.py")
WAIT = 30_000


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Page]:
    work = tmp_path / "work"
    work.mkdir()
    lines = ["agents:"]
    for name, flags in (("keeper", []), ("plain", ["no-list"])):
        lines += [
            f"  - name: {name}",
            f"    command: {json.dumps([sys.executable, FAKE, *flags])}",
            f"    cwd: {json.dumps(str(work))}",
        ]
    config = tmp_path / "sessions.yaml"
    config.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with running_app(["--config", str(config)], tmp_path / "app.log") as (page, _proc):
        page.set_viewport_size({"width": 1280, "height": 860})
        yield page


def test_the_agents_card_lists_its_sessions_and_opens_one(app: Page, shots: Path) -> None:
    page = app
    page.get_by_test_id("nav-agents").click()
    card = page.locator("article[data-agent=keeper]")
    card.get_by_test_id("agent-sessions-toggle").click()
    rows = card.get_by_test_id("agent-session")
    expect(rows).to_have_count(3, timeout=WAIT)
    expect(rows.nth(0)).to_contain_text("Fix the parser")
    expect(rows.nth(0).locator("time")).to_contain_text("2026")
    expect(rows.nth(2)).to_contain_text("Untitled session")
    page.screenshot(path=str(shots / "agent-sessions.png"))

    rows.nth(0).get_by_test_id("agent-session-open").click()
    expect(page.locator("#conversation-title")).to_have_text("Fix the parser", timeout=WAIT)
    conversation = page.locator("[data-testid=conversation][data-loaded=true]")
    expect(conversation.locator("[data-testid=message][data-role=user]")).to_have_count(2)
    expect(conversation).to_contain_text("It skips the last token.")
    expect(conversation).to_contain_text("Fixed: the loop ends one later.")

    # An agent without session/list says so in its card.
    page.get_by_test_id("nav-agents").click()
    plain = page.locator("article[data-agent=plain]")
    plain.get_by_test_id("agent-sessions-toggle").click()
    expect(plain.get_by_test_id("agent-sessions-error")).to_contain_text(
        "does not list its sessions", timeout=WAIT
    )
