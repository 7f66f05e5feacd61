"""The idle window holds only what it shows (issue 29, memory): the settings editor's script
(CodeMirror) and the terminal's (xterm) are not loaded, nor is pygit2's library mapped into the
app's process, until they are used; then the settings editor loads on first use. The scripts
are ASCII (held as one byte a character). Neither the idle page nor a first conversation makes
an Intl date format (ICU's date data: 5 MB): the times shown are written by hand
(ui/src/conversation/clock.ts), a tooltip's long date is made when the pointer comes. The
window's helper processes share one malloc arena (app/core/arenas.py); the agents do not
inherit it. Once its warm-up is done, the idle page gives back the garbage its start-up left
(ui/src/lib/engineMemory.ts).

bench/window.py measures what this saves (the idle tree's PSS beside a bare pywebview window)."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page

from bench.proc_tree import descendants
from tests.e2e.window import WARMED_UP, api, running_app, wait_until_ready
from tests.waiting import wait_for

pytestmark = pytest.mark.e2e

WAIT = 20_000
DIST = Path(__file__).resolve().parents[2] / "ui" / "dist" / "assets"  # what the window serves
SCRIPTS = "() => performance.getEntriesByType('resource').map((e) => e.name.split('/').pop())"


def environment(pid: int) -> dict[str, str]:
    raw = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    pairs = (entry.decode(errors="replace").partition("=") for entry in raw if entry)
    return {name: value for name, _, value in pairs}


def command_line(pid: int) -> str:
    return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")


def mapped(pid: int, fragment: str) -> bool:
    """Whether a file whose path holds `fragment` is mapped into the process."""
    return fragment in Path(f"/proc/{pid}/maps").read_text()


def test_the_idle_window_loads_settings_and_git_on_first_use(
    e2e_config: Path, tmp_path: Path
) -> None:
    with running_app(["--config", str(e2e_config)], tmp_path / "app.log") as (page, proc):
        page.wait_for_selector("[data-testid=sidebar]", timeout=WAIT)
        loaded = page.evaluate(SCRIPTS)
        assert any(name.startswith("index-") for name in loaded), loaded  # the walk sees scripts
        assert not [n for n in loaded if n.startswith(("SettingsPanel-", "xterm-"))], loaded
        for name in [n for n in loaded if n.endswith(".js")]:
            # A script with any character beyond Latin-1 is held as UTF-16: twice its size.
            script = (DIST / name).read_bytes()
            assert script.isascii(), f"{name} is not ASCII (ui/vite.config.ts: charset)"
        assert mapped(proc.pid, "site-packages/PyQt6")  # the walk reads the app's own maps
        assert not mapped(proc.pid, "pygit2"), "pygit2 is loaded by an idle window"

        open_settings(page)
        assert [n for n in page.evaluate(SCRIPTS) if n.startswith("SettingsPanel-")]


def open_settings(page: Page) -> None:
    page.keyboard.press("Control+,")
    page.wait_for_selector("[data-testid=config-editor] .cm-content", timeout=WAIT)


# Counts the date formats the page makes, from before its own scripts run.
COUNT_FORMATS = """(() => {
  const Real = Intl.DateTimeFormat;
  window.__dateFormats = 0;
  Intl.DateTimeFormat = class extends Real {
    constructor(...args) { super(...args); window.__dateFormats += 1; }
  };
})()"""
INTL_CLOCK = """(iso) => new (Object.getPrototypeOf(Intl.DateTimeFormat))('en',
  { hour: '2-digit', minute: '2-digit' }).format(new Date(iso)).replace(/\\s/gu, ' ')"""


def test_the_idle_window_and_a_first_conversation_make_no_date_format(
    e2e_config: Path, tmp_path: Path
) -> None:
    log = tmp_path / "app.log"
    with running_app(["--config", str(e2e_config)], log) as (page, _proc):
        page.add_init_script(COUNT_FORMATS)
        page.reload()  # the page again, counted from its start
        wait_until_ready(page, log)
        page.wait_for_function(WARMED_UP, timeout=WAIT, polling=100)  # its idle work done too
        direct = api(page, "ChannelService", "Direct", "demo")
        api(page, "ChannelService", "Send", direct["id"], "/echo **hello**")
        page.click("[data-testid=nav-agents]")
        page.locator("[data-testid=direct-item]", has_text="demo").click()
        answer = page.locator("[data-role=agent][data-done=true]")
        answer.locator(".markdown strong").wait_for(timeout=WAIT)
        assert page.evaluate("window.__dateFormats") == 0

        # The time shown is the one Intl would write; the tooltip, its long date, on hover.
        time = answer.locator("header time")
        created = str(time.get_attribute("datetime"))
        assert time.inner_text() == page.evaluate(INTL_CLOCK, created)
        assert time.get_attribute("title") is None
        time.hover()
        wait_for(lambda: time.get_attribute("title"), timeout=WAIT / 1000)
        assert created[:4] in str(time.get_attribute("title"))  # the year, in words' company
        assert page.evaluate("window.__dateFormats") == 1


RELEASED = "() => document.documentElement.dataset.memoryReleased === 'true'"


def test_the_idle_page_gives_back_the_memory_its_start_up_left(
    e2e_config: Path, tmp_path: Path
) -> None:
    """Once the warm-up is done, the page asks its engine for one memory-reducing collection
    (ui/src/lib/engineMemory.ts): what is left is what the page still uses. Without it, a
    collection forced then gave back a third of the JavaScript heap."""
    with running_app(["--config", str(e2e_config)], tmp_path / "app.log") as (page, _proc):
        page.wait_for_function(WARMED_UP, timeout=WAIT, polling=100)
        page.wait_for_function(RELEASED, timeout=WAIT, polling=100)
        engine = page.context.new_cdp_session(page)
        held = engine.send("Runtime.getHeapUsage")["usedSize"]
        engine.send("HeapProfiler.collectGarbage")
        live = engine.send("Runtime.getHeapUsage")["usedSize"]
        assert live > 0.9 * held, f"{held - live} bytes of garbage left in a {held}-byte heap"


def test_the_windows_helpers_get_one_malloc_arena_and_the_agents_do_not(
    e2e_config: Path, tmp_path: Path
) -> None:
    with running_app(["--config", str(e2e_config)], tmp_path / "app.log") as (page, proc):
        page.wait_for_selector("[data-testid=sidebar]", timeout=WAIT)
        helpers = [p for p in descendants(proc.pid) if "QtWebEngineProcess" in command_line(p)]
        assert len(helpers) >= 2, [command_line(p) for p in descendants(proc.pid)]  # zygotes…
        for pid in helpers:
            assert environment(pid).get("MALLOC_ARENA_MAX") == "1", command_line(pid)
        assert "MALLOC_ARENA_MAX" not in environment(proc.pid)  # the person's, not ours

        api(page, "AgentService", "Start", "demo")
        agents = wait_for(
            lambda: [p for p in descendants(proc.pid) if "--agent demo" in command_line(p)],
            timeout=WAIT / 1000,
        )
        for pid in agents:
            env = environment(pid)
            assert "MALLOC_ARENA_MAX" not in env and "SIDEKICKS_SET_MALLOC_ARENA_MAX" not in env
            # The engine's switch (app/bridge/engine_memory.py) is the window's, not theirs.
            assert "--expose-gc" not in env.get("QTWEBENGINE_CHROMIUM_FLAGS", ""), env
            assert "SIDEKICKS_QTWEBENGINE_FLAGS_BEFORE" not in env
