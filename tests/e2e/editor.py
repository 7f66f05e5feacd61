"""The settings' configuration editor (CodeMirror), typed into as a person would."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

EDITOR = "[data-testid=config-editor]"
WAIT = 30_000


def focus_editor(page: Page) -> None:
    """Clicks the editor's last line and waits until the editor has the focus.

    Keys pressed before then go elsewhere: the editor's script is loaded on first use, and under
    load its focus came after the next key (Control+A then selected the page, and the text
    typed over it went nowhere). The last line, as CodeMirror places a click's cursor in an
    update of its own, which may come after the next key: on the last line (empty, as a
    file's ends with a new line) that cursor is where Control+End would put it."""
    page.locator(f"{EDITOR} .cm-line").last.click()
    expect(page.locator(f"{EDITOR} .cm-editor")).to_have_class(
        re.compile(r"\bcm-focused\b"), timeout=WAIT
    )


def replace_editor_text(page: Page, text: str) -> None:
    """Selects everything in the editor and types `text` over it (as a paste would)."""
    focus_editor(page)
    page.keyboard.press("Control+a")
    page.keyboard.insert_text(text)
