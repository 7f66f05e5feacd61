"""Checkpoints in the real window (issue 25): one answer of the workspace fake
(tests/fakes/workspace_agent.py) writes a file through Sidekicks, writes another itself and runs
`sed -i` on a third; the Changes panel shows the three records with their route badges, one
hunk is reverted alone, then "Restore to before this answer" previews the files and puts the
folder back (the disk checked each time), and the restore's notice shows its own changes.
Settings shows the checkpoint store's figures and clears it. Screenshots in both themes go to
test-output/screenshots/checkpoints-*.png."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page

from tests.e2e.window import api, running_app, text_of

pytestmark = pytest.mark.e2e

WORKSPACE_AGENT = Path(__file__).resolve().parents[1] / "fakes" / "workspace_agent.py"
CONVERSATION = "[data-testid=conversation][data-loaded=true]"
MESSAGE = f"{CONVERSATION} [data-testid=message]"
PANEL = "[data-testid=changes-panel][open]"
WAIT = 30_000  # ms: the agent starts, writes and runs within this
TWO_FRAMES = "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))"

# Twelve lines; the edit changes the first and the last: two hunks, far enough apart.
ORIGINAL = "".join(f"line {i}\n" for i in range(1, 13))
EDITED = ORIGINAL.replace("line 1\n", "LINE 1\n").replace("line 12\n", "LINE 12\n")
FIRST_HUNK_ONLY = ORIGINAL.replace("line 1\n", "LINE 1\n")
OTHER = "alpha\nbeta\n"
OWN = "written by the agent itself\n"
# The agent's own shell is snapshotted before when its tool call is announced, which a bare
# `sed` outruns (app/workspace/checkpointing.py says so; measured here: its change then reads
# "agent"). Half a second before it runs is the margin, not a wait of the test's.
SED = ["sed", "-i", "s/beta/BETA/", "other.txt"]


@pytest.fixture
def work(tmp_path: Path) -> Path:
    folder = tmp_path / "work"
    folder.mkdir()
    (folder / "notes.txt").write_text(ORIGINAL, encoding="utf-8")
    (folder / "other.txt").write_text(OTHER, encoding="utf-8")
    return folder


@pytest.fixture
def window(tmp_path: Path, work: Path) -> Iterator[Page]:
    """The app with the workspace fake as `worker` (its folder: tmp_path/work)."""
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


def shoot(page: Page, shots: Path, name: str) -> None:
    for theme in ("light", "dark"):
        page.evaluate("(t) => { document.documentElement.dataset.theme = t; }", theme)
        page.evaluate(TWO_FRAMES)
        page.screenshot(path=str(shots / f"checkpoints-{name}-{theme}.png"))
    page.evaluate("() => { document.documentElement.dataset.theme = 'light'; }")


def send(page: Page, text: str) -> None:
    box = page.locator("[data-testid=composer-input]")
    box.fill(text)
    box.press("Escape")
    box.press("Enter")
    page.wait_for_function(
        "() => document.querySelector('[data-testid=composer-input]').value === ''"
    )


def answer_of_three_routes(page: Page, work: Path) -> None:
    """Opens Worker's conversation and has it write notes.txt through Sidekicks, own.txt itself
    and run `sed -i` on other.txt; returns once the answer's three changes show under it."""
    page.locator("[data-testid=agent-item]", has_text="Worker").click()
    page.wait_for_selector(CONVERSATION)
    actions = [
        {"write": str(work / "notes.txt"), "text": EDITED},
        {"own_write": str(work / "own.txt"), "text": OWN},
        # Asked first (as agents that ask before a command do): the window's Allow is heard by
        # the agent once the folder's checkpoint is taken, so sed's change is the command's.
        {"shell": SED, "cwd": str(work), "asked": True},
    ]
    send(page, json.dumps(actions))
    prompt = page.locator("[data-testid=permission][data-state=pending]")
    prompt.wait_for(timeout=WAIT)
    prompt.locator("[data-option=once]").click()
    page.wait_for_selector(f"{MESSAGE}[data-role=agent][data-done=true]", timeout=WAIT)
    page.wait_for_selector(
        f"{MESSAGE}[data-role=agent] [data-testid=answer-changes][data-files='3']", timeout=WAIT
    )


def test_an_answer_of_three_routes_is_reviewed_reverted_in_part_and_restored(
    window: Page, work: Path, shots: Path
) -> None:
    page = window
    notes, own, other = work / "notes.txt", work / "own.txt", work / "other.txt"
    answer_of_three_routes(page, work)
    assert notes.read_text(encoding="utf-8") == EDITED
    assert other.read_text(encoding="utf-8") == "alpha\nBETA\n"

    # Three records, one per file, each with its route's badge and its title.
    answer = page.locator(f"{MESSAGE}[data-role=agent]").last
    summary = answer.locator("[data-testid=answer-changes]")
    assert set(str(summary.get_attribute("data-routes")).split()) == {"fs", "agent", "command"}
    assert f"{own} (Agent's own edit)" in str(summary.get_attribute("title"))
    summary.click()
    panel = page.locator(PANEL)
    panel.wait_for()
    entries = panel.locator("[data-testid=change]")
    routes = entries.evaluate_all(
        "els => Object.fromEntries(els.map(e => [e.dataset.path, [e.dataset.route,"
        " e.querySelector('[data-testid=change-route]').textContent.trim(), e.dataset.status]]))"
    )
    assert routes == {
        str(notes): ["fs", "Sidekicks write", "modified"],
        str(own): ["agent", "Agent's own edit", "added"],
        str(other): ["command", "Command", "modified"],
    }
    badge = panel.locator(f"[data-testid=change][data-path='{own}'] [data-testid=change-route]")
    assert "its own tools" in str(badge.get_attribute("title"))
    sed = panel.locator(f"[data-testid=change][data-path='{other}']")
    assert text_of(sed.locator("tr.del td.code")) == "-beta"
    assert text_of(sed.locator("tr.add td.code")) == "+BETA"
    shoot(page, shots, "routes")

    # The second hunk of notes.txt reverted alone: the record keeps the first one.
    entry = panel.locator(f"[data-testid=change][data-path='{notes}']")
    assert entry.locator("tr.hunk").count() == 2
    entry.locator("[data-testid=revert-hunk][data-hunk='1']").click()
    entry.locator("tr.hunk").nth(1).wait_for(state="detached", timeout=WAIT)
    assert notes.read_text(encoding="utf-8") == FIRST_HUNK_ONLY
    assert entry.get_attribute("data-reverted") == "false"
    assert text_of(entry.locator("tr.add td.code")) == "+LINE 1"

    # Restore to before this answer, from the answer's own actions: the preview, then Restore.
    page.keyboard.press("Escape")
    page.wait_for_selector(PANEL, state="detached")
    answer.hover()
    restore = answer.locator("[data-testid=action-restore]")
    restore.wait_for(timeout=WAIT)
    assert restore.get_attribute("title") == "Restore to before this answer"
    restore.click()
    dialog = page.locator("[data-testid=restore-dialog][open][data-loaded=true]")
    dialog.wait_for(timeout=WAIT)
    files = dialog.locator("[data-testid=restore-file]").evaluate_all(
        "els => Object.fromEntries(els.map(e => [e.dataset.path, e.dataset.status]))"
    )
    assert files == {str(notes): "modified", str(own): "deleted", str(other): "modified"}
    assert "removed" in text_of(dialog.locator(f"[data-testid=restore-file][data-path='{own}']"))
    shoot(page, shots, "preview")
    dialog.locator("[data-testid=restore-confirm]").click()
    page.wait_for_selector("[data-testid=restore-dialog][open]", state="detached", timeout=WAIT)
    assert notes.read_text(encoding="utf-8") == ORIGINAL
    assert other.read_text(encoding="utf-8") == OTHER
    assert not own.exists()

    # The restore's notice, with its own changes: reverting them undoes the restore.
    notice = page.locator(f"{MESSAGE}[data-role=system][data-code=restored]")
    notice.wait_for(timeout=WAIT)
    assert "Folders restored to before @worker's answer" in text_of(notice)
    summary = notice.locator("[data-testid=answer-changes]")
    summary.wait_for(timeout=WAIT)
    assert summary.get_attribute("data-files") == "3"
    shoot(page, shots, "restored")
    summary.click()
    panel.wait_for()
    assert panel.locator("[data-testid=change][data-route=restore]").count() == 3
    assert text_of(panel.locator("h3").first).startswith("Folders restored")
    panel.locator("[data-testid=revert-answer]").click()
    page.wait_for_function(
        "() => [...document.querySelectorAll('[data-testid=change][data-route=restore]')]"
        ".every(e => e.dataset.reverted === 'true')",
        timeout=WAIT,
    )
    assert notes.read_text(encoding="utf-8") == FIRST_HUNK_ONLY
    assert own.read_text(encoding="utf-8") == OWN
    assert other.read_text(encoding="utf-8") == "alpha\nBETA\n"


def test_settings_show_the_store_and_clearing_it_leaves_changes_unrevertible(
    window: Page, work: Path, shots: Path
) -> None:
    page = window
    answer_of_three_routes(page, work)
    answer = page.locator(f"{MESSAGE}[data-role=agent]").last
    answer.hover()
    answer.locator("[data-testid=action-restore]").wait_for(timeout=WAIT)

    page.get_by_test_id("nav-settings").click()
    figures = page.locator("[data-testid=checkpoints-figures][data-snapshots]")
    figures.wait_for(timeout=WAIT)
    stored = api(page, "CheckpointService", "StoreInfo")
    assert stored["snapshots"] > 0 and stored["sizeBytes"] > 0
    assert figures.get_attribute("data-snapshots") == str(stored["snapshots"])
    assert re.fullmatch(r"\d+(\.\d)? (B|KB|MB)", text_of(page.get_by_test_id("checkpoints-size")))
    assert "snapshot" in text_of(page.get_by_test_id("checkpoints-count"))
    assert "none" not in text_of(page.get_by_test_id("checkpoints-oldest"))
    assert page.get_by_test_id("checkpoints-days").input_value() == "7"
    shoot(page, shots, "settings")

    # Older than 7 days: nothing of today's goes. 0 days: all of it, after a confirmation.
    page.get_by_test_id("checkpoints-days").fill("0")
    page.get_by_test_id("checkpoints-clear").click()
    confirm = page.locator("[data-testid=dialog][open]")
    confirm.wait_for()
    assert "Every checkpoint is removed" in text_of(confirm)
    confirm.locator("[data-choice=clear]").click()
    page.wait_for_selector("[data-testid=checkpoints-cleared]", timeout=WAIT)
    assert figures.get_attribute("data-snapshots") == "0"
    assert text_of(page.get_by_test_id("checkpoints-oldest")) == "oldest: none"
    assert api(page, "CheckpointService", "StoreInfo")["snapshots"] == 0

    # Back in the conversation: the answer can no longer be restored to, and the records whose
    # contents were in its checkpoints cannot be reverted, saying why.
    page.locator("[data-testid=direct-item]", has_text="Worker").click()
    page.wait_for_selector(CONVERSATION)
    answer = page.locator(f"{MESSAGE}[data-role=agent]").last
    answer.hover()
    answer.locator("[data-testid=action-copy]").wait_for()
    assert answer.locator("[data-testid=action-restore]").count() == 0
    answer.locator("[data-testid=answer-changes]").click()
    panel = page.locator(PANEL)
    panel.wait_for()
    own = panel.locator(f"[data-testid=change][data-path='{work / 'own.txt'}']")
    assert text_of(own.locator("[data-testid=change-not-revertible]")) == (
        "Its checkpoint was cleared"
    )
    assert own.locator("[data-testid=revert-change]").is_disabled()
    assert own.locator("[data-testid=revert-hunk]").count() == 0
    shoot(page, shots, "cleared")
