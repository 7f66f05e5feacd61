"""Isolated worktrees in the real window (issue 28): the member chip's Worktree switch puts the
workspace fake (tests/fakes/workspace_agent.py) in a Git worktree of its folder; its write lands
there (the folder untouched); the Changes panel shows the worktree's diff; Merge into the folder
lists the conflict with the person's own edit per hunk and writes nothing of that file until a
choice per hunk is made and the file written. A screenshot goes to
test-output/screenshots/worktrees-conflict.png."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.window import api, running_app
from tests.worktree_repos import committed

pytestmark = pytest.mark.e2e

WORKSPACE_AGENT = Path(__file__).resolve().parents[1] / "fakes" / "workspace_agent.py"
WAIT = 20_000  # ms
ORIGINAL = "".join(f"line {i}\n" for i in range(1, 9))
AGENTS = ORIGINAL.replace("line 2\n", "agent 2\n").replace("line 7\n", "agent 7\n")
PERSONS = ORIGINAL.replace("line 2\n", "person 2\n")


@pytest.fixture
def work(tmp_path: Path) -> Path:
    committed(tmp_path / "work", {"notes.txt": ORIGINAL})
    return tmp_path / "work"


@pytest.fixture
def window(tmp_path: Path, work: Path) -> Iterator[Page]:
    command = json.dumps([sys.executable, str(WORKSPACE_AGENT)])
    config = tmp_path / "work.yaml"
    config.write_text(
        "language: en\nagents:\n"
        f"  - name: worker\n    title: Worker\n    command: {command}\n    cwd: work\n",
        encoding="utf-8",
    )
    with running_app(["--config", str(config)], tmp_path / "app.log") as (page, _proc):
        page.set_viewport_size({"width": 1280, "height": 900})
        yield page


def test_a_member_s_worktree_is_merged_with_a_conflict_chosen_per_hunk(
    window: Page, work: Path, shots: Path
) -> None:
    page = window
    api(page, "ChannelService", "Create", "team", "", ["worker"])
    page.get_by_test_id("channel-item").filter(has_text="team").click()
    toggle = page.locator("[data-testid=isolation-toggle][data-agent=worker]")
    expect(toggle).to_have_attribute("aria-pressed", "false", timeout=WAIT)
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "true", timeout=WAIT)

    write = [{"write": "notes.txt", "in_cwd": True, "text": AGENTS}]
    box = page.get_by_test_id("composer-input")
    box.fill("@worker " + json.dumps(write))
    box.press("Escape")
    box.press("Enter")
    page.wait_for_selector("[data-testid=message][data-role=agent][data-done=true]", timeout=WAIT)
    assert (work / "notes.txt").read_text(encoding="utf-8") == ORIGINAL  # in the worktree only
    (work / "notes.txt").write_text(PERSONS, encoding="utf-8")  # the person's own edit meanwhile

    page.get_by_test_id("changes-button").click()
    section = page.locator(
        "[data-testid=changes-panel][open] [data-testid=worktree][data-agent=worker]"
    )
    file = section.locator("[data-testid=worktree-file][data-path='notes.txt']")
    expect(file).to_contain_text("agent 7", timeout=WAIT)
    section.get_by_test_id("worktree-merge").click()
    conflict = section.locator("[data-testid=worktree-conflict][data-path='notes.txt']")
    expect(conflict.get_by_test_id("conflict-hunk")).to_have_count(1, timeout=WAIT)
    expect(conflict).to_contain_text("person 2")
    # Line 7 merged cleanly, line 2 conflicts: nothing of the file written before the choice.
    assert (work / "notes.txt").read_text(encoding="utf-8") == PERSONS
    write_file = conflict.get_by_test_id("conflict-write")
    expect(write_file).to_be_disabled()
    page.screenshot(path=str(shots / "worktrees-conflict.png"))
    conflict.locator("[data-testid=hunk-choice][data-choice=theirs]").click()
    write_file.click()
    expect(section.get_by_test_id("worktree-conflict")).to_have_count(0, timeout=WAIT)
    assert (work / "notes.txt").read_text(encoding="utf-8") == AGENTS
