"""Export from the window (issue 17): the header's Export menu saves Markdown, HTML or JSON
through the save dialog (its test hook: $SIDEKICKS_TEST_SAVE_PATH, a folder the offered name goes
into, since a native dialog cannot be driven offscreen), says where, and writes the whole
conversation; an agent's raw HTML comes out escaped."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page

from tests.agents import agent_yaml
from tests.e2e.window import back_home, module_app, open_conversation, running_app

pytestmark = pytest.mark.e2e

CONVERSATION = "[data-testid=conversation][data-loaded=true]"
WAIT = 30_000


@pytest.fixture(scope="module")
def one_window(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Page, Path]]:
    """One window for the tests that export (each its own conversation, its own file name)."""
    folder = tmp_path_factory.mktemp("export")
    exports = folder / "exports"
    exports.mkdir()
    config = folder / "export.yaml"
    config.write_text("agents:\n" + agent_yaml("alpha"), encoding="utf-8")
    env = {"SIDEKICKS_TEST_SAVE_PATH": str(exports)}
    with module_app(folder, ["--config", str(config)], env) as (page, _proc):
        yield page, folder


@pytest.fixture
def app(one_window: tuple[Page, Path]) -> tuple[Page, Path]:
    page, folder = one_window
    return back_home(page, folder / "app.log", (1280, 860)), folder / "exports"


def export_as(page: Page, format: str) -> Path:
    """Picks `format` in the Export menu; the path the window says it saved to."""
    page.click("[data-testid=export-button]")
    page.click(f"[data-testid=export-menu] [data-format={format}]")
    saved = page.wait_for_selector("[data-testid=export-saved]", timeout=WAIT)
    path = page.get_attribute("[data-testid=export-path]", "title")
    assert path is not None and saved.is_visible()
    return Path(path)


def test_the_export_menu_saves_the_conversation_in_each_format(
    app: tuple[Page, Path], shots: Path
) -> None:
    page, exports = app
    open_conversation(page, "[data-testid=agent-item]", "alpha")
    box = page.locator("[data-testid=composer-input]")
    box.fill('look: <img src=x onerror="alert(1)"> **bold**')
    box.press("Enter")
    page.wait_for_selector(
        f"{CONVERSATION} [data-testid=message][data-role=agent][data-done=true]", timeout=WAIT
    )

    page.click("[data-testid=export-button]")
    menu = page.wait_for_selector("[data-testid=export-menu]")
    assert [i.inner_text() for i in menu.query_selector_all("[role=menuitem]")] == [
        "Markdown (.md)",
        "Web page (.html)",
        "JSON (.json)",
    ]
    page.keyboard.press("Escape")  # closes the menu, leaves the conversation as it was
    page.wait_for_selector("[data-testid=export-menu]", state="detached")

    markdown = export_as(page, "markdown")
    page.screenshot(path=str(shots / "export-saved.png"))
    assert markdown.parent == exports
    assert re.fullmatch(r"alpha-\d{4}-\d\d-\d\d\.md", markdown.name)
    text = markdown.read_text(encoding="utf-8")
    assert text.startswith("# Conversation with @alpha\n")
    assert 'look: <img src=x onerror="alert(1)"> **bold**' in text  # Markdown keeps the text
    assert "echo: look:" in text

    page_file = export_as(page, "html")
    html = page_file.read_text(encoding="utf-8")
    assert "<script" not in html and "<img" not in html
    assert "&lt;img src=x onerror=&quot;alert(1)&quot;&gt; <strong>bold</strong>" in html

    data = json.loads(export_as(page, "json").read_text(encoding="utf-8"))
    assert data["format"] == "sidekicks-conversation"
    assert [m["role"] for m in data["messages"]] == ["user", "agent"]


def test_an_export_that_cannot_be_written_says_why(tmp_path: Path) -> None:
    config = tmp_path / "export.yaml"
    config.write_text("agents:\n" + agent_yaml("alpha"), encoding="utf-8")
    env = {"SIDEKICKS_TEST_SAVE_PATH": str(tmp_path / "gone" / "out.md")}  # no such folder
    with running_app(["--config", str(config)], tmp_path / "app.log", env) as (page, _proc):
        page.locator("[data-testid=agent-item]", has_text="alpha").click()
        page.wait_for_selector(CONVERSATION)
        page.click("[data-testid=export-button]")
        page.click("[data-testid=export-menu] [data-format=markdown]")
        error = page.wait_for_selector("[data-testid=export-error]", timeout=WAIT).inner_text()
        assert "could not save the export to" in error.lower()
        assert "gone/out.md" in error and "No such file" in error
        assert page.locator("[data-testid=export-saved]").count() == 0
        page.click("[data-testid=export-error] .dismiss")
        page.wait_for_selector("[data-testid=export-error]", state="detached")


def test_a_channel_named_with_markup_and_unsafe_characters_exports_under_a_safe_name(
    app: tuple[Page, Path],
) -> None:
    """Issue 29: the channel "Code Review: v2/3?" is saved as a file every system takes, and
    the Markdown title reads "#Code Review: v2/3?", without a stray backslash."""
    page, exports = app
    page.get_by_test_id("new-channel").click()
    page.fill("[data-testid=channel-name]", "Code Review: v2/3?")
    page.click("[data-testid=channel-save]")
    page.wait_for_selector("[data-testid=channel-dialog][open]", state="detached")
    page.wait_for_selector(CONVERSATION)

    markdown = export_as(page, "markdown")
    assert markdown.parent == exports
    assert re.fullmatch(r"Code-Review-v2-3-\d{4}-\d\d-\d\d\.md", markdown.name)
    assert markdown.read_text(encoding="utf-8").startswith("# #Code Review: v2/3?\n")
