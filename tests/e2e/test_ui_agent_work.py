"""Agents at work in the real window (issue 15): a turn of the workspace fake
(tests/fakes/workspace_agent.py) that writes two files and runs a command printing in colours,
seen in its tool cards (diffs, the command's live then final output with its exit code),
reviewed in the Changes panel and reverted from it (the disk checked each time), a refused
revert's sentence, and a conflict notice. Screenshots in both themes go to
test-output/screenshots/agent-work-*.png."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from playwright.sync_api import Locator, Page

from tests.e2e.window import (
    back_home,
    module_app,
    open_conversation,
    record_events,
    recorded,
    running_app,
    text_of,
)

pytestmark = pytest.mark.e2e

WORKSPACE_AGENT = Path(__file__).resolve().parents[1] / "fakes" / "workspace_agent.py"
CONVERSATION = "[data-testid=conversation][data-loaded=true]"
MESSAGE = f"{CONVERSATION} [data-testid=message]"
WAIT = 30_000  # ms: the agent starts, writes and runs within this
TWO_FRAMES = "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))"

ORIGINAL = "one\ntwo\nthree\n"
EDITED = "one\nTWO\nthree\n"
NEW_FILE = "print('hello')\n"
# Green at once, then red once the test lets it finish (the `go` file, beside the agent's folder
# so that it is no change of the answer's): the card is seen running.
SCRIPT = (
    "printf '\\033[32mgreen light\\033[0m\\n'; "
    "while [ ! -e ../go ]; do sleep 0.02; done; "
    "printf '\\033[31mred light\\033[0m done\\n'"
)


@pytest.fixture
def work(tmp_path: Path) -> Path:
    folder = tmp_path / "work"
    folder.mkdir()
    (folder / "notes.txt").write_text(ORIGINAL, encoding="utf-8")
    return folder


@contextmanager
def worker_window(tmp_path: Path, language: str = "en") -> Iterator[Page]:
    """The app with the workspace fake as `worker` (its folder: tmp_path/work)."""
    command = json.dumps([sys.executable, str(WORKSPACE_AGENT)])
    config = tmp_path / "work.yaml"
    config.write_text(
        f"language: {language}\nagents:\n"
        f"  - name: worker\n    title: Worker\n    command: {command}\n    cwd: work\n",
        encoding="utf-8",
    )
    with running_app(["--config", str(config)], tmp_path / "app.log") as (page, _proc):
        page.set_viewport_size({"width": 1280, "height": 900})
        yield page


# The workspace fake under four names, each in a folder of its own (the module's window):
# each test of that window talks to one of them, in its own conversation and folder.
DESKS = ("worker", "builder", "counter", "linker")


@pytest.fixture(scope="module")
def workshop(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Page, Path]]:
    folder = tmp_path_factory.mktemp("agent-work")
    command = json.dumps([sys.executable, str(WORKSPACE_AGENT)])
    lines = ["language: en", "agents:"]
    for name in DESKS:
        (folder / name).mkdir()
        (folder / name / "notes.txt").write_text(ORIGINAL, encoding="utf-8")
        lines += [f"  - name: {name}", f"    title: {name.title()}", f"    command: {command}"]
        lines += [f"    cwd: {name}"]
    config = folder / "work.yaml"
    config.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with module_app(folder, ["--config", str(config)]) as (page, _proc):
        yield page, folder


def desk(workshop: tuple[Page, Path], name: str) -> tuple[Page, Path]:
    """The shared window, reloaded, and the folder of the agent `name`."""
    page, folder = workshop
    back_home(page, folder / "app.log")
    page.set_viewport_size({"width": 1280, "height": 900})
    return page, folder / name


def shoot(page: Page, shots: Path, name: str) -> None:
    for theme in ("light", "dark"):
        page.evaluate("(t) => { document.documentElement.dataset.theme = t; }", theme)
        page.evaluate(TWO_FRAMES)
        page.screenshot(path=str(shots / f"agent-work-{name}-{theme}.png"))
    page.evaluate("() => { document.documentElement.dataset.theme = 'light'; }")


def send(page: Page, text: str) -> None:
    box = page.locator("[data-testid=composer-input]")
    box.fill(text)
    box.press("Escape")
    box.press("Enter")
    page.wait_for_function(
        "() => document.querySelector('[data-testid=composer-input]').value === ''"
    )


def colours(screen: Locator) -> dict[str, str]:
    """The text of each xterm foreground colour class in a terminal's screen (DOM renderer)."""
    return screen.evaluate(
        """e => {
            const out = {};
            for (const span of e.querySelectorAll('.xterm-rows span')) {
                const cls = [...span.classList].find(c => c.startsWith('xterm-fg-'));
                if (cls) out[cls] = (out[cls] ?? '') + span.textContent;
            }
            return out;
        }"""
    )


def terminal_text(screen: Locator) -> str:
    return screen.evaluate(
        "e => [...e.querySelectorAll('.xterm-rows > div')].map(r => r.textContent).join('\\n')"
    )


def test_a_turn_that_writes_and_runs_is_reviewed_and_reverted_from_the_window(
    workshop: tuple[Page, Path], shots: Path
) -> None:
    page, work = desk(workshop, "worker")
    notes, new = work / "notes.txt", work / "hello.py"
    open_conversation(page, "[data-testid=agent-item]", "Worker")
    assert page.locator("[data-testid=changes-button]").count() == 0  # nothing changed yet
    record_events(page)

    actions = [
        {"write": str(notes), "text": EDITED},
        {"write": str(new), "text": NEW_FILE},
        {"run": "sh", "args": ["-c", SCRIPT], "cwd": str(work)},
    ]
    send(page, json.dumps(actions))

    # The command's card: unfolded on its terminal, running, its first line live in colour.
    answer = page.locator(f"{MESSAGE}[data-role=agent]").last
    card = answer.locator("[data-part=tool][data-kind=execute]")
    terminal = card.locator("[data-testid=terminal]")
    terminal.wait_for(timeout=WAIT)
    page.wait_for_function(
        "() => document.querySelector('[data-testid=terminal]')?.dataset.running === 'true'"
        " && document.querySelector('[data-testid=terminal-screen] .xterm-rows')"
        "?.textContent.includes('green light')",
        timeout=WAIT,
    )
    assert card.get_attribute("open") is not None
    assert "sh -c" in terminal.locator("[data-testid=terminal-command]").inner_text()
    assert terminal.locator("[data-testid=terminal-state] .spinner").count() == 1
    screen = terminal.locator("[data-testid=terminal-screen]")
    assert "green light" in colours(screen).get("xterm-fg-2", "")  # ANSI green, not HTML
    assert screen.locator("b, font, script").count() == 0
    live = [e["data"] for e in recorded(page, "terminal:output")]
    assert any("green light" in data for data in live)
    shoot(page, shots, "running")

    (work.parent / "go").write_text("", encoding="utf-8")
    page.wait_for_function(
        "() => document.querySelector('[data-testid=terminal]')?.dataset.exitCode === '0'",
        timeout=WAIT,
    )
    page.wait_for_selector(f"{MESSAGE}[data-role=agent][data-done=true]", timeout=WAIT)
    assert terminal.locator("[data-testid=terminal-state]").inner_text() == "exit code 0"
    page.wait_for_function(
        "() => document.querySelector('[data-testid=terminal-screen] .xterm-rows')"
        "?.textContent.includes('red light done')"
    )
    assert "red light" in colours(screen).get("xterm-fg-1", "")
    text = terminal_text(screen)
    assert text.index("green light") < text.index("red light done")

    # The two edit cards show their diffs; the answer says what it changed.
    diffs = answer.locator("[data-testid=diff]")
    assert diffs.count() == 2
    assert "TWO" in diffs.nth(0).locator("tr.add").inner_text()
    assert diffs.nth(1).get_attribute("data-new-file") == "true"
    summary = answer.locator("[data-testid=answer-changes]")
    assert summary.get_attribute("data-files") == "2"
    assert "2 files changed" in summary.inner_text()
    button = page.locator("[data-testid=changes-button]")
    assert button.get_attribute("data-count") == "2"
    shoot(page, shots, "cards")

    # The stored message holds the final output: the conversation opened again shows it.
    page.click("[data-testid=nav-agents]")
    page.wait_for_selector("[data-testid=agents-panel]")
    page.locator("[data-testid=direct-item]", has_text="Worker").click()
    page.wait_for_selector(CONVERSATION)
    again = page.locator("[data-testid=terminal-screen]").last
    page.wait_for_function(
        "() => [...document.querySelectorAll('[data-testid=terminal-screen] .xterm-rows')]"
        ".some(e => e.textContent.includes('red light done'))",
        timeout=WAIT,
    )
    assert "green light" in terminal_text(again)
    assert page.locator("[data-testid=terminal]").last.get_attribute("data-exit-code") == "0"

    # The Changes panel from the header: both files, by the agent, with their diffs.
    page.locator("[data-testid=changes-button]").click()
    panel = page.locator("[data-testid=changes-panel][open]")
    panel.wait_for()
    entries = panel.locator("[data-testid=change]")
    assert entries.evaluate_all("els => els.map(e => [e.dataset.path, e.dataset.agent])") == [
        [str(notes), "worker"],
        [str(new), "worker"],
    ]
    notes_entry = panel.locator(f"[data-testid=change][data-path='{notes}']")
    new_entry = panel.locator(f"[data-testid=change][data-path='{new}']")
    assert notes_entry.locator("tr.del td.code").inner_text() == "-two"
    assert notes_entry.locator("tr.add td.code").inner_text() == "+TWO"
    assert "print('hello')" in new_entry.locator("tr.add").inner_text()
    assert "new file" in new_entry.inner_text()
    shoot(page, shots, "panel")

    # Revert one file from the panel: the disk has the text before.
    notes_entry.locator("[data-testid=revert-change]").click()
    page.wait_for_selector(
        f"[data-testid=change][data-path='{notes}'][data-reverted=true]", timeout=WAIT
    )
    assert notes.read_text(encoding="utf-8") == ORIGINAL
    assert new.read_text(encoding="utf-8") == NEW_FILE
    assert page.locator("[data-testid=changes-button]").get_attribute("data-count") == "1"

    # The file changed on disk since: reverting the answer is refused, said, and changes nothing.
    new.write_text("print('mine now')\n", encoding="utf-8")
    panel.locator("[data-testid=revert-answer]").click()
    refusal = panel.locator("[data-testid=changes-answer] > [data-testid=revert-refusal]")
    refusal.wait_for(timeout=WAIT)
    assert str(new) in refusal.inner_text() and "nothing was reverted" in refusal.inner_text()
    assert refusal.get_attribute("role") == "alert"
    assert new.read_text(encoding="utf-8") == "print('mine now')\n"
    assert new_entry.get_attribute("data-reverted") == "false"
    shoot(page, shots, "refused")

    # Put back as the agent wrote it: the whole answer reverts (the new file is gone).
    new.write_text(NEW_FILE, encoding="utf-8")
    panel.locator("[data-testid=revert-answer]").click()
    page.wait_for_selector(
        f"[data-testid=change][data-path='{new}'][data-reverted=true]", timeout=WAIT
    )
    assert not new.exists()
    assert notes.read_text(encoding="utf-8") == ORIGINAL
    assert panel.locator("[data-testid=revert-refusal]").count() == 0
    assert panel.locator("[data-testid=revert-answer]").is_disabled()

    # Escape closes the panel and gives the focus back to the header's button.
    page.keyboard.press("Escape")
    page.wait_for_selector("[data-testid=changes-panel][open]", state="detached")
    assert page.evaluate("document.activeElement?.dataset.testid") == "changes-button"
    assert page.locator("[data-testid=changes-button]").get_attribute("data-count") == "0"
    assert answer.locator("[data-testid=answer-changes]").get_attribute("data-reverted") == "true"


def test_an_answer_opens_its_own_changes_and_a_conflict_is_noticed(
    workshop: tuple[Page, Path], shots: Path
) -> None:
    page, work = desk(workshop, "builder")
    notes = work / "notes.txt"
    open_conversation(page, "[data-testid=agent-item]", "Builder")
    send(page, json.dumps([{"read": str(notes)}]))
    page.wait_for_selector(f"{MESSAGE}[data-role=agent][data-done=true]", timeout=WAIT)

    # The person edits the file after the agent read it; the agent then writes it.
    notes.write_text("changed by hand\n", encoding="utf-8")
    send(page, json.dumps([{"write": str(notes), "text": EDITED}]))
    page.wait_for_function(
        "() => document.querySelectorAll('[data-role=agent][data-done=true]').length === 2",
        timeout=WAIT,
    )
    notice = page.locator(f"{MESSAGE}[data-role=system]").last
    notice.wait_for(timeout=WAIT)
    said = text_of(notice)
    assert "@builder wrote" in said and str(notes) in said and "outside Sidekicks" in said
    shoot(page, shots, "conflict-notice")

    # "1 file changed" under that answer opens the panel on its changes only.
    answer = page.locator(f"{MESSAGE}[data-role=agent]").last
    answer.locator("[data-testid=answer-changes]").click()
    panel = page.locator("[data-testid=changes-panel][open]")
    panel.wait_for()
    assert panel.get_attribute("data-filter") == answer.get_attribute("data-id")
    assert panel.locator("h2").inner_text() == "Changes of this answer"
    conflict = panel.locator("[data-testid=change-conflict]")
    assert "outside Sidekicks" in conflict.inner_text()
    assert "changed by hand" in panel.locator("tr.del").inner_text()
    shoot(page, shots, "conflict")
    panel.locator("[data-testid=changes-show-all]").click()
    assert panel.get_attribute("data-filter") is None
    page.keyboard.press("Escape")
    page.wait_for_selector("[data-testid=changes-panel][open]", state="detached")
    assert page.evaluate("document.activeElement?.dataset.testid") == "answer-changes"


def test_a_killed_command_says_its_signal_and_the_changes_read_in_french(
    tmp_path: Path, work: Path, shots: Path
) -> None:
    notes = work / "notes.txt"
    with worker_window(tmp_path, language="fr") as page:
        page.locator("[data-testid=agent-item]", has_text="Worker").click()
        page.wait_for_selector(CONVERSATION)
        actions = [
            {"run": "sleep", "args": ["30"], "kill": True},
            {"write": str(notes), "text": EDITED},
        ]
        send(page, json.dumps(actions))
        page.wait_for_selector(f"{MESSAGE}[data-role=agent][data-done=true]", timeout=WAIT)
        terminal = page.locator("[data-testid=terminal]")
        page.wait_for_function(
            "() => document.querySelector('[data-testid=terminal]')?.dataset.signal === 'SIGTERM'",
            timeout=WAIT,
        )
        assert (
            terminal.locator("[data-testid=terminal-state]").inner_text() == "arrêtée par SIGTERM"
        )
        assert "Aucune sortie." in terminal.inner_text()
        assert terminal.locator(".xterm").count() == 0  # nothing to show: no terminal made

        answer = page.locator(f"{MESSAGE}[data-role=agent]").last
        assert "1 fichier modifié" in answer.locator("[data-testid=answer-changes]").inner_text()
        button = page.locator("[data-testid=changes-button]")
        assert "Modifications" in button.inner_text()
        assert button.get_attribute("aria-label") == (
            "Modifications : 1 fichier modifié par les agents"
        )
        answer.locator("[data-testid=answer-changes]").click()
        panel = page.locator("[data-testid=changes-panel][open]")
        panel.wait_for()
        assert panel.locator("h2").inner_text() == "Modifications de cette réponse"
        assert panel.locator("[data-testid=revert-change]").inner_text() == (
            "Annuler la modification"
        )
        assert panel.locator("[data-testid=revert-answer]").inner_text() == (
            "Tout annuler pour cette réponse"
        )
        shoot(page, shots, "french")
        panel.locator("[data-testid=revert-change]").click()
        page.wait_for_selector("[data-testid=change][data-reverted=true]", timeout=WAIT)
        assert panel.locator("[data-testid=change-reverted]").inner_text() == "annulée"
        assert notes.read_text(encoding="utf-8") == ORIGINAL


def test_fifty_commands_make_terminals_only_for_the_cards_on_screen(
    workshop: tuple[Page, Path],
) -> None:
    page, _work = desk(workshop, "counter")
    open_conversation(page, "[data-testid=agent-item]", "Counter")
    runs = [
        {"run": "printf", "args": [f"\\033[3{i % 7 + 1}mline {i}\\033[0m\\n"]} for i in range(50)
    ]
    send(page, json.dumps(runs))
    page.wait_for_selector(f"{MESSAGE}[data-role=agent][data-done=true]", timeout=60_000)
    cards = page.locator("[data-testid=terminal]")
    assert cards.count() == 50
    # At the bottom (the list may have stopped following during the burst of tool calls: its
    # own race between a scroll event and growth, seen without any terminal too).
    page.locator("[data-testid=messages]").evaluate("e => { e.scrollTop = e.scrollHeight; }")
    page.wait_for_function(
        "() => [...document.querySelectorAll('[data-testid=terminal]')].slice(-3)"
        ".every(e => e.querySelector('.xterm-rows')?.textContent.includes('line'))",
        timeout=WAIT,
    )
    at_bottom = page.locator(".xterm").count()
    assert 0 < at_bottom < 25, at_bottom
    assert "line 49" in terminal_text(cards.last.locator("[data-testid=terminal-screen]"))

    # Scrolled up to the first commands: theirs are made, the bottom ones' are gone.
    cards.first.scroll_into_view_if_needed()
    page.wait_for_function(
        "() => document.querySelector('[data-testid=terminal] .xterm-rows')"
        "?.textContent.includes('line 0')",
        timeout=WAIT,
    )
    page.wait_for_function(
        "() => !document.querySelectorAll('[data-testid=terminal]')[49].querySelector('.xterm')",
        timeout=WAIT,
    )
    assert 0 < page.locator(".xterm").count() < 25
    assert cards.evaluate_all("els => els.every(e => e.dataset.exitCode === '0')")


@pytest.mark.posix_only("making a symlink needs a privilege on Windows")
def test_a_write_through_a_link_is_asked_as_its_real_target_and_recorded_so(
    workshop: tuple[Page, Path], tmp_path: Path, shots: Path
) -> None:
    page, work = desk(workshop, "linker")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "target.txt").write_text(ORIGINAL, encoding="utf-8")
    (work / "door.txt").symlink_to(outside / "target.txt")
    open_conversation(page, "[data-testid=agent-item]", "Linker")
    send(page, json.dumps([{"write": str(work / "door.txt"), "text": EDITED}]))
    prompt = page.locator("[data-testid=permission][data-state=pending]")
    prompt.wait_for(timeout=WAIT)
    title = text_of(prompt.locator(".title"))
    assert title == (
        f"Write outside the workspace: {outside / 'target.txt'} "
        f"(reached through the link {work / 'door.txt'})"
    )
    own = text_of(prompt.locator("[data-testid=asked-by-sidekicks]"))
    assert "no “always allow” rule answers" in own
    assert prompt.locator("[data-kind=allow_always]").count() == 0
    shoot(page, shots, "outside-write-through-link")
    prompt.locator("[data-option=allow]").click()
    page.wait_for_selector(f"{MESSAGE}[data-role=agent][data-done=true]", timeout=WAIT)
    assert (outside / "target.txt").read_text(encoding="utf-8") == EDITED
    page.locator(f"{MESSAGE}[data-role=agent]").last.locator("[data-testid=answer-changes]").click()
    change = page.locator("[data-testid=changes-panel][open] [data-testid=change]")
    change.wait_for()
    assert change.get_attribute("data-path") == str(outside / "target.txt")
    link = text_of(change.locator("[data-testid=change-through-link]"))
    assert link == f"Reached through the link {work / 'door.txt'}"
