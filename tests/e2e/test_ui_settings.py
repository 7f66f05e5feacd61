"""Settings in the real window: the configuration in CodeMirror, checked while typing, saved
only when valid (Ctrl+S or Save), external changes, the unsaved-changes guard, recent files,
schema completion, and theme and language applied live from a save."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.agents import agent_yaml
from tests.e2e.editor import focus_editor, replace_editor_text
from tests.e2e.window import api, back_home, module_app, save_config

pytestmark = pytest.mark.e2e

WAIT = 20_000

VALID = "theme: light\nlanguage: en\nagents:\n  - name: demo\n    builtin: demo\n"
START = VALID + agent_yaml("alpha")


@pytest.fixture(scope="module")
def settings_window(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Page, Path]]:
    """One window for the module, and its file; `window` gives each test both as the app opened
    them."""
    folder = tmp_path_factory.mktemp("settings")
    config = folder / "settings.yaml"
    config.write_text(START, encoding="utf-8")
    with module_app(folder, ["--config", str(config)]) as (page, _proc):
        yield page, config


@pytest.fixture
def e2e_config(settings_window: tuple[Page, Path]) -> Path:
    return settings_window[1]


@pytest.fixture
def window(settings_window: tuple[Page, Path]) -> Page:
    """The module's window on its own file again (a test may have opened another), that file
    as it started (saved through the app, so its theme and language apply), the page reloaded:
    what it showed and its unsaved edits gone."""
    page, config = settings_window
    if api(page, "ConfigService", "Current")["path"] != str(config):
        api(page, "ConfigService", "Open", str(config))
    save_config(page, START)
    return back_home(page, config.with_name("app.log"))  # module_app's log, beside the file


def open_settings(page: Page) -> None:
    page.keyboard.press("Control+,")
    page.wait_for_selector("[data-testid=config-editor] .cm-content", timeout=WAIT)
    expect(page.get_by_test_id("settings-panel")).to_have_attribute("data-dirty", "false")


def editor_text(page: Page) -> str:
    """The editor's text, line by line as shown (an empty line shows as a <br>)."""
    lines = page.locator("[data-testid=config-editor] .cm-line").all_inner_texts()
    return "\n".join(line.rstrip("\n") for line in lines)


def test_a_broken_config_is_marked_at_its_line_and_not_saved_then_a_fix_saves(
    window: Page, e2e_config: Path, shots: Path
) -> None:
    window.set_viewport_size({"width": 1200, "height": 780})
    open_settings(window)
    on_disk = e2e_config.read_text(encoding="utf-8")
    assert editor_text(window) == on_disk
    expect(window.get_by_test_id("problems")).to_contain_text("No problems")

    broken = VALID.replace("theme: light", "theme: blue").replace(
        "    builtin: demo", "    builtin: demo\n    colour: red"
    )
    replace_editor_text(window, broken)
    problem = window.locator("[data-testid=problem][data-line='1']")
    expect(problem).to_contain_text("theme must be one of", timeout=WAIT)
    expect(problem.locator("code").first).to_have_text("theme")  # backticks shown as code
    expect(problem).to_have_attribute("data-warning", "false")
    warning = window.locator("[data-testid=problem][data-line='6']")
    expect(warning).to_contain_text("Unknown key colour")
    expect(warning.locator("code")).to_have_text("colour")
    expect(warning).to_have_attribute("data-warning", "true")
    # The markers: the offending value underlined on its line, and a marker in the gutter.
    lines = window.locator("[data-testid=config-editor] .cm-content > .cm-line")
    expect(lines.nth(0).locator(".cm-lintRange-error")).to_have_text("blue")
    expect(lines.nth(5).locator(".cm-lintRange-warning")).to_have_text("colour")
    expect(window.locator(".cm-gutter-lint .cm-lint-marker-error")).to_have_count(1)
    expect(window.locator(".cm-gutter-lint .cm-lint-marker-warning")).to_have_count(1)
    expect(window.get_by_test_id("unsaved")).to_be_visible()

    # Save looks disabled and says why (issue 29); Ctrl+S is refused; the file is untouched.
    save = window.get_by_test_id("save-button")
    expect(save).to_be_disabled()
    expect(save).to_have_attribute("title", re.compile("while the file has problems"))
    assert float(save.evaluate("(e) => getComputedStyle(e).opacity")) < 1
    focus_editor(window)
    window.keyboard.press("Control+s")
    expect(window.get_by_test_id("save-outcome")).to_have_attribute("data-outcome", "refused")
    expect(window.get_by_test_id("save-outcome")).to_contain_text("Not saved")
    assert e2e_config.read_text(encoding="utf-8") == on_disk
    window.screenshot(path=str(shots / "settings-problem.png"))

    # A click on the problem puts the cursor on it.
    problem.click()
    expect(lines.nth(0)).to_have_class("cm-line cm-activeLine")

    # Fixed, and saved with Ctrl+S from the editor (a warning does not prevent saving).
    replace_editor_text(window, VALID.replace("theme: light", "theme: dark"))
    expect(window.get_by_test_id("problems")).to_contain_text("No problems", timeout=WAIT)
    window.keyboard.press("Control+s")
    expect(window.get_by_test_id("save-outcome")).to_have_attribute("data-outcome", "saved")
    assert e2e_config.read_text(encoding="utf-8") == VALID.replace("theme: light", "theme: dark")
    expect(window.get_by_test_id("settings-panel")).to_have_attribute("data-dirty", "false")
    # theme: dark applies live, from the saved file.
    expect(window.locator("html")).to_have_attribute("data-theme", "dark", timeout=WAIT)
    window.screenshot(path=str(shots / "settings-dark.png"))


COUNT_READS = """() => {
  const service = window.pywebview.api.ConfigService;
  const read = service.Content.bind(service);
  window.__contentReads = 0;
  service.Content = (...args) => { window.__contentReads += 1; return read(...args); };
}"""


def test_opening_the_settings_reads_the_file_once(window: Page) -> None:
    """A second read, come back after the person had started typing, put the file's text back
    over theirs (a whole run failed so: its typing was gone). It came from the panel's start
    re-running when its first read ended, before the editor was even shown."""
    window.evaluate(COUNT_READS)
    open_settings(window)
    expect(window.get_by_test_id("problems")).to_contain_text("No problems")
    assert window.evaluate("window.__contentReads") == 1


def test_language_saved_from_the_editor_switches_the_labels_live(
    window: Page, e2e_config: Path, shots: Path
) -> None:
    window.set_viewport_size({"width": 1200, "height": 780})
    open_settings(window)
    light = window.evaluate("getComputedStyle(document.body).backgroundColor")
    replace_editor_text(window, VALID.replace("language: en", "language: fr"))
    window.get_by_test_id("save-button").click()
    expect(window.get_by_test_id("nav-settings")).to_contain_text("Paramètres", timeout=WAIT)
    expect(window.get_by_test_id("save-button")).to_have_text("Enregistrer")
    expect(window.get_by_test_id("problems")).to_contain_text("Aucun problème")
    window.screenshot(path=str(shots / "settings-fr.png"))

    window.get_by_test_id("nav-agents").click()
    expect(window.locator("article[data-agent=demo]").get_by_test_id("agent-state")).to_have_text(
        "arrêté"
    )
    # And back in English, with a dark theme, from outside the app.
    e2e_config.write_text(VALID.replace("theme: light", "theme: dark"), encoding="utf-8")
    expect(window.get_by_test_id("nav-settings")).to_contain_text("Settings", timeout=WAIT)
    expect(window.locator("html")).to_have_attribute("data-theme", "dark")
    assert window.evaluate("getComputedStyle(document.body).backgroundColor") != light


def test_external_changes_reload_a_clean_buffer_and_are_offered_to_a_dirty_one(
    window: Page, e2e_config: Path, shots: Path
) -> None:
    window.set_viewport_size({"width": 1200, "height": 780})
    open_settings(window)
    outside = VALID + "# edited elsewhere\n"
    e2e_config.write_text(outside, encoding="utf-8")
    expect(window.locator("[data-testid=config-editor] .cm-content")).to_contain_text(
        "# edited elsewhere", timeout=WAIT
    )
    expect(window.get_by_test_id("settings-panel")).to_have_attribute("data-dirty", "false")
    expect(window.get_by_test_id("disk-changed")).to_have_count(0)

    # Edits here, then another change on disk: asked, not overwritten.
    focus_editor(window)
    window.keyboard.press("Control+End")
    window.keyboard.insert_text("# mine\n")
    expect(window.get_by_test_id("settings-panel")).to_have_attribute("data-dirty", "true")
    e2e_config.write_text(outside + "# again\n", encoding="utf-8")
    banner = window.get_by_test_id("disk-changed")
    expect(banner).to_contain_text("The file changed on disk. Reload?", timeout=WAIT)
    assert "# mine" in editor_text(window)
    window.screenshot(path=str(shots / "settings-disk-changed.png"))
    banner.get_by_test_id("reload-from-disk").click()
    expect(banner).to_have_count(0)
    assert editor_text(window) == outside + "# again\n"
    assert "# mine" not in editor_text(window)
    expect(window.get_by_test_id("settings-panel")).to_have_attribute("data-dirty", "false")


def test_leaving_with_unsaved_changes_asks_first(window: Page, e2e_config: Path) -> None:
    open_settings(window)
    on_disk = e2e_config.read_text(encoding="utf-8")
    focus_editor(window)
    window.keyboard.press("Control+End")
    window.keyboard.insert_text("# unsaved\n")

    window.get_by_test_id("nav-agents").click()
    dialog = window.get_by_test_id("dialog")
    expect(dialog).to_contain_text("Save your changes?")
    window.keyboard.press("Escape")  # cancel: stay, edits kept
    expect(dialog).to_be_hidden()
    expect(window.get_by_test_id("settings-panel")).to_have_attribute("data-dirty", "true")

    window.get_by_test_id("nav-agents").click()
    dialog.locator("[data-choice=discard]").click()
    expect(window.get_by_test_id("agents-panel")).to_be_visible()
    assert e2e_config.read_text(encoding="utf-8") == on_disk

    # Ctrl+, again: the file as it is on disk, and "Save" in the dialog saves then leaves.
    open_settings(window)
    assert "# unsaved" not in editor_text(window)
    focus_editor(window)
    window.keyboard.press("Control+End")
    window.keyboard.insert_text("# kept\n")
    window.get_by_test_id("nav-agents").click()
    dialog.locator("[data-choice=save]").click()
    expect(window.get_by_test_id("agents-panel")).to_be_visible()
    assert e2e_config.read_text(encoding="utf-8").endswith("# kept\n")


def test_recent_files_open_another_configuration(
    window: Page, e2e_config: Path, tmp_path: Path, shots: Path
) -> None:
    window.set_viewport_size({"width": 1200, "height": 780})
    other = tmp_path / "other.yaml"
    other.write_text("# the other one\nagents:\n" + agent_yaml("beta"), encoding="utf-8")
    third = tmp_path / "third.yaml"
    third.write_text("agents:\n" + agent_yaml("gamma"), encoding="utf-8")
    open_settings(window)

    # Open… shows a native dialog: opening from the page (as Choose does) must show the file.
    api(window, "ConfigService", "Open", str(other))
    expect(window.locator("[data-testid=config-editor] .cm-content")).to_contain_text(
        "# the other one", timeout=WAIT
    )
    expect(window.get_by_test_id("settings-file")).to_contain_text(str(other))
    expect(window.get_by_test_id("settings-source")).to_have_text("opened from the app")
    expect(window.get_by_test_id("agent-item")).to_contain_text(["beta"])
    api(window, "ConfigService", "Open", str(third))
    expect(window.get_by_test_id("settings-file")).to_contain_text(str(third), timeout=WAIT)

    window.get_by_test_id("recent-button").click()
    items = window.get_by_test_id("recent-item")
    expect(items).to_have_count(3)  # with the file the app started on
    paths = [str(third), str(other), str(e2e_config)]
    assert items.evaluate_all("els => els.map(e => e.dataset.path)") == paths
    expect(items.first).to_be_focused()
    window.screenshot(path=str(shots / "settings-recent.png"))
    window.keyboard.press("ArrowDown")
    expect(items.nth(1)).to_be_focused()
    window.keyboard.press("Enter")
    expect(window.get_by_test_id("settings-file")).to_contain_text(str(other), timeout=WAIT)
    expect(window.locator("[data-testid=config-editor] .cm-content")).to_contain_text(
        "# the other one"
    )
    expect(window.get_by_test_id("status-path")).to_contain_text(str(other))


def test_keys_are_completed_from_the_schema_under_the_csp(window: Page, shots: Path) -> None:
    # CodeMirror (loaded with the settings) injects its styles: nothing the CSP refuses.
    window.add_init_script(
        """window.__csp = [];
        document.addEventListener('securitypolicyviolation',
            (e) => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));"""
    )
    window.reload()
    window.wait_for_selector("[data-ready=true]", timeout=WAIT)
    window.set_viewport_size({"width": 1200, "height": 780})
    open_settings(window)
    focus_editor(window)
    window.keyboard.press("Control+End")
    window.keyboard.insert_text("    ")
    # The keys reached the editor (under load, the lazily loaded editor may take its focus late).
    window.wait_for_function(
        """() => [...document.querySelectorAll('[data-testid=config-editor] .cm-line')]
             .at(-1)?.textContent === '    '""",
        timeout=WAIT,
    )
    window.keyboard.press("Control+Space")  # inside an agent: the agent keys not written yet
    options = window.locator(".cm-tooltip-autocomplete li")
    expect(options.first).to_be_visible(timeout=WAIT)
    labels = options.locator(".cm-completionLabel").all_inner_texts()
    assert "description" in labels and "cwd" in labels
    assert "name" not in labels  # already there
    expect(window.locator(".cm-completionInfo")).to_be_visible()
    window.screenshot(path=str(shots / "settings-completion.png"))
    window.keyboard.press("Escape")

    window.keyboard.press("Control+a")
    window.keyboard.insert_text("theme: d")
    window.keyboard.press("Control+Space")
    expect(window.locator(".cm-tooltip-autocomplete li")).to_have_text(["dark"])
    # A click: CodeMirror ignores Enter for 75 ms after the list opens (against slips).
    window.locator(".cm-tooltip-autocomplete li").click()
    assert editor_text(window) == "theme: dark"

    # Hovering a key explains it.
    window.locator(".cm-line").first.get_by_text("theme").hover()
    expect(window.locator(".cm-schema-help")).to_contain_text("theme: system | light | dark")
    assert window.evaluate("window.__csp") == []


def test_a_yaml_syntax_error_is_said_in_plain_words_at_its_line(window: Page, shots: Path) -> None:
    """Issue 29: ruamel's "expected <block end>, but found '-'" is a sentence about the line, its
    `-` shown as code, with the parser's words kept faint beside it and in the editor's tooltip."""
    window.set_viewport_size({"width": 1200, "height": 780})
    open_settings(window)
    replace_editor_text(window, "theme: light\n- name: demo\n")

    problem = window.locator("[data-testid=problem][data-line='2']")
    expect(problem).to_contain_text(
        "This line starts a list item (-) where a key was expected: check its indentation "
        "against the lines above.",
        timeout=WAIT,
    )
    expect(problem).to_have_attribute("data-column", "1")
    expect(problem.locator(".message code")).to_have_text(["-"])
    expect(problem.get_by_test_id("problem-detail")).to_have_text(
        "expected <block end>, but found '-' (while parsing a block mapping)"
    )
    assert "<block end>" not in problem.locator(".message").inner_text().split("\n")[0]
    window.screenshot(path=str(shots / "settings-yaml-sentence.png"))

    # The editor's own marker says the same sentence, its code as code.
    window.locator("[data-testid=config-editor] .cm-lintRange-error").first.hover()
    tooltip = window.locator(".cm-tooltip-lint .cm-diagnostic-error")
    expect(tooltip).to_contain_text("This line starts a list item", timeout=WAIT)
    expect(tooltip.locator("code")).to_have_text(["-"])
    expect(tooltip.locator(".problem-detail")).to_contain_text("expected <block end>")
