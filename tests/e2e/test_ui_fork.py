"""Fork from here in the real window (issue 28): on a message in the middle of a conversation,
the action opens the fork, which shows the history up to that message and no further, and a
new message there is answered (by a new session given that history: the agent's session had
gone on past the message); its start leads back to the source. The agent's folder is a Git
repository and its answers are checkpointed, so the action is a menu: Fork, or Fork into
worktrees from this point (the fork's member then works in a worktree). Screenshot:
test-output/screenshots/fork.png."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.window import api, running_app, text_of
from tests.worktree_repos import committed

pytestmark = pytest.mark.e2e

FAKE = str(Path(__file__).resolve().parents[1] / "fakes" / "fork_agent.py")
CONVERSATION = "[data-testid=conversation][data-loaded=true]"
MESSAGE = f"{CONVERSATION} [data-testid=message]"
ANSWERS = f"{MESSAGE}[data-role=agent][data-done=true]"
BOX = "[data-testid=composer-input]"
WAIT = 30_000  # ms
SHOTS = Path(__file__).resolve().parents[2] / "test-output" / "screenshots"


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Page]:
    config = tmp_path / "fork.yaml"
    env = {"FAKE_STATE": str(tmp_path / "forker.json")}
    committed(tmp_path / "work", {"a.txt": "one\n"})  # checkpointed, and can be isolated
    config.write_text(
        "agents:\n  - name: forker\n    cwd: work\n"
        f"    command: {json.dumps([sys.executable, FAKE, 'fork'])}\n"
        f"    env: {json.dumps(env)}\n",
        encoding="utf-8",
    )
    with running_app(["--config", str(config)], tmp_path / "app.log") as (page, _proc):
        page.set_viewport_size({"width": 1280, "height": 800})
        yield page


def ask(page: Page, text: str, answers: int) -> None:
    """Sends `text` in the conversation on screen and waits for its `answers`-th answer."""
    box = page.locator(BOX)
    box.fill(text)
    box.press("Enter")
    expect(page.locator(ANSWERS)).to_have_count(answers, timeout=WAIT)
    page.wait_for_selector(f"{CONVERSATION}[data-busy=false]", timeout=WAIT)


def test_fork_from_a_middle_message_opens_the_history_up_to_it(app: Page) -> None:
    page = app
    source = api(page, "ChannelService", "Create", "room", "", ["forker"])
    page.locator("[data-testid=channel-item]", has_text="room").click()
    page.wait_for_selector(f"{CONVERSATION}[data-channel='{source['id']}']")
    ask(page, "@forker one", 1)
    ask(page, "@forker two", 2)
    ask(page, "@forker three", 3)

    middle = page.locator(ANSWERS).nth(1)
    middle.hover()
    middle.locator("[data-testid=action-fork]").click()
    page.locator("[data-testid=fork-menu] [data-testid=fork-plain]").click()
    fork = f"[data-testid=conversation][data-loaded=true]:not([data-channel='{source['id']}'])"
    page.wait_for_selector(fork, timeout=WAIT)
    shown = [text_of(m) for m in page.locator(f"{fork} [data-testid=message]").all()]
    said = [s for s in shown if "one" in s or "two" in s or "three" in s]
    assert len(said) == 4 and "heard @forker two" in said[-1]
    assert not any("three" in s for s in shown)

    expect(page.locator("[data-testid=channel-item]", has_text="room (fork)")).to_be_visible()
    ask(page, "@forker again", 3)
    last = text_of(page.locator(ANSWERS).last)
    assert "heard @forker again; remembers nothing" in last  # a new session, given the history
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "fork.png"))
    forks = [c for c in api(page, "ChannelService", "List") if c.get("forkedFrom")]
    assert [f["forkedFrom"]["channel"] for f in forks] == [source["id"]]

    # Its start says where it came from, and leads back to the message it was forked at.
    origin = page.locator(f"{CONVERSATION} [data-testid=fork-origin]")
    expect(origin).to_contain_text("Forked from #room.")
    origin.locator("[data-testid=fork-origin-link]").click()
    page.wait_for_selector(f"{CONVERSATION}[data-channel='{source['id']}']", timeout=WAIT)

    # Into worktrees: the fork's member works in a worktree of its folder.
    middle = page.locator(ANSWERS).nth(1)
    middle.hover()
    middle.locator("[data-testid=action-fork]").click()
    page.locator("[data-testid=fork-menu] [data-testid=fork-worktrees]").click()
    isolated = f"{fork}:not([data-channel='{forks[0]['id']}'])"
    page.wait_for_selector(isolated, timeout=WAIT)
    channel = page.locator(isolated).get_attribute("data-channel")
    [member] = api(page, "WorktreeService", "Worktrees", channel)
    assert member["isolated"] and member["exists"], member
