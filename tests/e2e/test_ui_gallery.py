"""The agent gallery and the Preferences form in the real window (issue 27).

A registry served on 127.0.0.1 (tests/gallery_server.py) offers one binary agent: the gallery
installs it (its progress bar caught mid-download, the server holding the rest back), adds it
with a name and a folder (the native chooser answered by $SIDEKICKS_TEST_FOLDER_PATH), and the
person talks to it. The Preferences form switches the theme and the language, and the YAML
keeps its comments. Remove (asked first) takes the agent out of the file again.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.e2e.window import running_app
from tests.gallery_server import (
    AGENT_ID,
    GalleryServer,
    agent_archive,
    binary_entry,
    registry_document,
    sha256_of,
)

pytestmark = pytest.mark.e2e

WAIT = 20_000  # ms
CONFIG = "agents:\n  - name: demo\n    builtin: demo\n"
COMMENTED = """\
# my own notes
theme: system     # I change it from the app
limits:
  maxRunningAgents: 4   # enough
agents:
  - name: demo    # the built-in one
    builtin: demo
"""


def test_an_agent_from_the_gallery_is_installed_added_with_its_folder_and_answers(
    tmp_path: Path, shots: Path
) -> None:
    config = tmp_path / "gallery.yaml"
    config.write_text(CONFIG, encoding="utf-8")
    project = tmp_path / "project"
    project.mkdir()
    with GalleryServer() as server:
        # A zip stores its files uncompressed: long enough to be caught mid-way.
        archive = agent_archive("zip", padding=400_000)
        server.serve("/agent.zip", archive)
        held = server.gate("/agent.zip", after=100_000)
        entry = binary_entry(AGENT_ID, server.url("/agent.zip"), sha256_of(archive))
        server.serve("/registry.json", registry_document([entry]))
        env = {
            "SIDEKICKS_REGISTRY_URL": server.url("/registry.json"),
            "SIDEKICKS_TEST_FOLDER_PATH": str(project),
            "XDG_CONFIG_HOME": str(tmp_path / "home-config"),
        }
        with running_app(["--config", str(config)], tmp_path / "app.log", env) as (page, _p):
            page.get_by_test_id("add-agent").click()
            dialog = page.get_by_test_id("gallery-dialog")
            expect(dialog).to_be_visible()
            expect(page.get_by_test_id("gallery-search")).to_be_focused()
            card = dialog.locator(f"[data-testid=gallery-entry][data-id={AGENT_ID}]")
            expect(card).to_contain_text("Fake Agent")
            expect(card).to_contain_text("1.0.0")
            expect(card.get_by_test_id("gallery-add")).to_be_disabled()  # install it first

            # Cancel while the server holds the rest back: the install ends at once, said so.
            card.get_by_test_id("gallery-install").click()
            bar = card.get_by_test_id("install-progress")
            expect(bar).to_contain_text("Downloading")
            card.get_by_test_id("gallery-cancel-install").click()
            expect(card).to_contain_text("The install was cancelled.")
            expect(bar).to_have_count(0)

            card.get_by_test_id("gallery-install").click()
            expect(bar).to_be_visible()
            expect(bar).to_contain_text("Downloading")
            expect(card.get_by_test_id("gallery-cancel-install")).to_be_visible()
            dialog.screenshot(path=str(shots / "gallery-installing.png"))
            held.set()
            expect(card.get_by_test_id("gallery-entry-installed")).to_contain_text(
                "1.0.0", timeout=WAIT
            )
            expect(bar).to_have_count(0)

            card.get_by_test_id("gallery-add").click()
            name = card.get_by_test_id("gallery-name")
            expect(name).to_have_value("fake-agent")  # prefilled, editable
            name.fill("echo")
            expect(card.get_by_test_id("gallery-folder")).to_contain_text("home folder")
            card.get_by_test_id("gallery-choose-folder").click()
            expect(card.get_by_test_id("gallery-folder")).to_contain_text(str(project))
            card.get_by_test_id("gallery-add-confirm").click()
            expect(card.get_by_test_id("gallery-added")).to_be_visible(timeout=WAIT)
            expect(card.get_by_test_id("gallery-entry-added")).to_contain_text("@echo")
            dialog.screenshot(path=str(shots / "gallery-added.png"))
            text = config.read_text(encoding="utf-8")
            assert "  - name: echo\n" in text and f"    cwd: {project}\n" in text

            card.get_by_test_id("gallery-talk").click()
            expect(dialog).to_be_hidden()
            page.wait_for_selector("[data-testid=conversation][data-loaded=true]", timeout=WAIT)
            box = page.get_by_test_id("composer-input")
            box.fill("hello from the gallery")
            box.press("Enter")
            expect(page.get_by_test_id("conversation")).to_contain_text(
                "echo: hello from the gallery", timeout=WAIT
            )

            # Remove, asked first, takes it out of the file again.
            page.get_by_test_id("nav-agents").click()
            page.locator("article[data-agent=echo] [data-testid=agent-remove]").click()
            page.locator("[data-testid=dialog] [data-choice=remove]").click()
            expect(page.locator("article[data-agent=echo]")).to_have_count(0, timeout=WAIT)
            assert config.read_text(encoding="utf-8") == CONFIG


def test_the_preferences_form_switches_theme_and_language_and_keeps_the_comments(
    tmp_path: Path, shots: Path
) -> None:
    config = tmp_path / "prefs.yaml"
    config.write_text(COMMENTED, encoding="utf-8")
    with running_app(["--config", str(config)], tmp_path / "app.log") as (page, _proc):
        page.get_by_test_id("nav-settings").click()
        form = page.get_by_test_id("preferences-form")
        theme = form.get_by_test_id("preferences-theme")
        expect(theme).to_have_value("system")
        theme.select_option("dark")
        expect(page.locator("html")).to_have_attribute("data-theme", "dark", timeout=WAIT)
        form.get_by_test_id("preferences-language").select_option("fr")
        page.wait_for_function("() => document.documentElement.lang === 'fr'", timeout=WAIT)
        idle = form.get_by_test_id("preferences-idle")
        idle.fill("soon")
        idle.press("Enter")
        expect(form.get_by_test_id("preferences-problems")).to_be_visible(timeout=WAIT)
        idle.fill("90s")
        idle.press("Enter")
        expect(form.get_by_test_id("preferences-problems")).to_have_count(0, timeout=WAIT)
        page.wait_for_function(
            "() => document.querySelector('[data-testid=config-editor] .cm-content')"
            ".textContent.includes('stopIdleAgentsAfter: 90s')",
            timeout=WAIT,
        )
        page.get_by_test_id("settings-panel").screenshot(path=str(shots / "preferences-form.png"))
        assert config.read_text(encoding="utf-8") == (
            "# my own notes\ntheme: dark       # I change it from the app\nlanguage: fr\n"
            "limits:\n  maxRunningAgents: 4   # enough\n  stopIdleAgentsAfter: 90s\n"
            "agents:\n  - name: demo    # the built-in one\n    builtin: demo\n"
        )
        # An outside edit with a problem: the form waits for the file to be fixed.
        config.write_text("theme: purple\n" + CONFIG, encoding="utf-8")
        expect(form.get_by_test_id("preferences-blocked")).to_be_visible(timeout=WAIT)
        expect(theme).to_be_disabled()
