"""Nothing on screen animates without end beside a stream (issue 29, frames), in the real window.

A CSS animation that never ends makes the compositor draw every frame; beside a stream (or a
terminal under a flood) the page then got every other frame only: the frame gaps measured by
bench/ui_render.py and bench/terminal_stream.py (their figures are the benchmarks'; these tests
hold what makes them). While the demo streams, the busy badges, the turn line and the typing
dots stand still; a running command's spinner turns by steps from a timer (lib/ui/spinners.ts),
not by a CSS animation. And a conversation at rest asks for no frames at all."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page

from tests.e2e.window import animations_of_a_spinning_probe, back_home, module_app
from tests.waiting import wait_for

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
CONVERSATION = "[data-testid=conversation][data-loaded=true]"
WAIT = 30_000
LIVE = f"{CONVERSATION} [data-role=agent][data-done=false]"

# The running animations that never end, by their name and their element's classes.
ENDLESS = """() => document.getAnimations()
  .filter((a) => a.playState === 'running' && a.effect?.getComputedTiming().iterations === Infinity)
  .map((a) => `${a.animationName ?? a.constructor.name} on ${a.effect?.target?.className}`)"""


@pytest.fixture(scope="module")
def one_window(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Page, Path]]:
    """One window: each test talks to an agent of its own (demo, worker)."""
    folder = tmp_path_factory.mktemp("frames")
    workspace = json.dumps([sys.executable, str(ROOT / "tests" / "fakes" / "workspace_agent.py")])
    (folder / "work").mkdir()
    config = folder / "frames.yaml"
    config.write_text(
        "agents:\n  - name: demo\n    builtin: demo\n"
        f"  - name: worker\n    command: {workspace}\n    cwd: work\n",
        encoding="utf-8",
    )
    with module_app(folder, ["--config", str(config)], motion=True) as (page, _proc):
        yield page, folder


@pytest.fixture
def page(one_window: tuple[Page, Path]) -> Page:
    page, folder = one_window
    return back_home(page, folder / "app.log", (1280, 820))


# How many animation frames the page's own code asks for while `frames` frames pass (counted by
# wrapping requestAnimationFrame, which the page's code calls through the global each time).
FRAMES_ASKED = """async (frames) => {
  const original = window.requestAnimationFrame;
  let asked = 0;
  window.requestAnimationFrame = (callback) => {
    asked += 1;
    return original.call(window, callback);
  };
  try {
    for (let i = 0; i < frames; i += 1) await new Promise((next) => original.call(window, next));
  } finally {
    window.requestAnimationFrame = original;
  }
  return asked;
}"""


def open_agent(page: Page, name: str) -> None:
    page.locator("[data-testid=agent-item]", has_text=name).click()
    page.wait_for_selector(CONVERSATION)


def send(page: Page, text: str) -> None:
    box = page.locator("[data-testid=composer-input]")
    box.fill(text)
    box.press("Escape")  # closes a completion opened by /, so Enter sends
    box.press("Enter")


def test_this_window_animates_as_a_person_s_does(page: Page) -> None:
    """The tests' windows ask for reduced motion (tests/e2e/window.py); this module's does not,
    or its checks would hold whatever the page animated."""
    assert not page.evaluate("matchMedia('(prefers-reduced-motion: reduce)').matches")
    assert animations_of_a_spinning_probe(page) == 1


def test_nothing_animates_without_end_while_an_answer_streams(page: Page) -> None:
    open_agent(page, "demo")
    send(page, "/bench 20000")
    # Read in the same poll that sees the answer streaming (its text growing, not done).
    endless = page.wait_for_function(
        f"""() => {{
            const live = document.querySelector('{LIVE}');
            if (!live || !live.textContent.includes('chunk')) return null;
            return ({ENDLESS})();
        }}""",
        timeout=WAIT,
    ).json_value()
    assert endless == []
    page.wait_for_selector(f"{CONVERSATION} [data-role=agent][data-done=true]", timeout=WAIT)


def test_a_running_commands_spinner_turns_by_steps_not_by_an_endless_animation(
    page: Page, one_window: tuple[Page, Path]
) -> None:
    open_agent(page, "worker")
    release = one_window[1] / "work" / "release"
    # The command prints a line, then runs until the test creates `release`.
    waits = (
        "import os, sys, time\n"
        "print('working', flush=True)\n"
        "while not os.path.exists(sys.argv[1]):\n"
        "    time.sleep(0.05)\n"
    )
    send(page, json.dumps([{"run": sys.executable, "args": ["-c", waits, str(release)]}]))
    spinner = page.locator("[data-testid=terminal][data-running=true] .spinner")
    spinner.wait_for(timeout=WAIT)
    assert spinner.evaluate("(s) => getComputedStyle(s).animationName") == "none"
    first = spinner.evaluate("(s) => s.style.transform")
    page.wait_for_function(
        "([s, first]) => s.style.transform && s.style.transform !== first",
        arg=[spinner.element_handle(), first],
        timeout=5_000,
    )
    assert page.evaluate(ENDLESS) == []
    release.write_text("", encoding="utf-8")
    page.wait_for_selector(
        f"{CONVERSATION} [data-testid=terminal][data-exit-code='0']", timeout=WAIT
    )


def test_an_open_conversation_at_rest_asks_for_no_frames(page: Page) -> None:
    """The header's fit re-observed its parts at each measure, and each observation reported a
    size, which measured again in the next frame: one frame asked for every frame, as long as
    a conversation stayed open (a tenth of a core at rest; every frame is drawn and copied)."""
    # The demo's row: under Agents, or under Direct messages once an earlier test talked to it.
    rows = page.locator("[data-testid=direct-item], [data-testid=agent-item]", has_text="demo")
    rows.first.click()
    page.wait_for_selector(CONVERSATION)
    send(page, "/echo hello")
    page.wait_for_selector(f"{CONVERSATION} [data-role=agent][data-done=true]", timeout=WAIT)
    counts: list[int] = []

    def quiet() -> bool:
        counts.append(page.evaluate(FRAMES_ASKED, 30))
        return counts[-1] == 0

    try:
        wait_for(quiet, timeout=10, what="30 frames in which the page asked for none")
    except AssertionError as error:
        raise AssertionError(f"{error}; frames asked in each 30: {counts}") from None
