"""Attachments in the real window (issue 15): a file from the chooser (its test hook: a native
dialog cannot be driven offscreen), an image pasted, an image dropped, a dropped file without a
path refused with why, chips removable before sending, then the sent message's chips and
thumbnail, and the blocks the agent received."""

from __future__ import annotations

import base64
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page

from tests.agents import agent_yaml
from tests.e2e.window import running_app
from tests.integration.channels.attachments_setup import png_bytes

pytestmark = pytest.mark.e2e

CONVERSATION = "[data-testid=conversation][data-loaded=true]"
COMPOSER = "[data-testid=composer]"
WAIT = 30_000


@pytest.fixture
def app(tmp_path: Path) -> Iterator[tuple[Page, Path]]:
    log = tmp_path / "rich.jsonl"
    chosen = tmp_path / "chosen.json"
    config = tmp_path / "attachments.yaml"
    config.write_text(
        "agents:\n" + agent_yaml("rich", "prompt-rich", env={"FAKE_LOG": str(log)}),
        encoding="utf-8",
    )
    env = {"SIDEKICKS_TEST_CHOSEN_FILES": str(chosen)}
    with running_app(["--config", str(config)], tmp_path / "app.log", env) as (page, _proc):
        page.set_viewport_size({"width": 1280, "height": 860})
        yield page, tmp_path


def give_files(page: Page, event: str, selector: str, files: list[dict[str, Any]]) -> None:
    """Dispatches a paste or a drop carrying `files` ({name, type, base64}) on `selector`."""
    page.evaluate(
        """([event, selector, files]) => {
            const transfer = new DataTransfer();
            for (const f of files) {
                const bytes = Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0));
                transfer.items.add(new File([bytes], f.name, { type: f.type }));
            }
            const target = document.querySelector(selector);
            const init = { bubbles: true, cancelable: true };
            if (event === "paste") {
                const paste = { ...init, clipboardData: transfer };
                target.dispatchEvent(new ClipboardEvent("paste", paste));
            } else {
                const drag = { ...init, dataTransfer: transfer };
                target.dispatchEvent(new DragEvent("dragover", drag));
                target.dispatchEvent(new DragEvent("drop", drag));
            }
        }""",
        [event, selector, files],
    )


def chips(page: Page, scope: str) -> list[dict[str, str]]:
    return page.eval_on_selector_all(
        f"{scope} [data-testid=attachment-chip]",
        "els => els.map(e => ({kind: e.dataset.kind, name: e.dataset.name, text: e.innerText}))",
    )


def test_files_and_images_attached_in_the_window_reach_the_agent_and_show_on_the_message(
    app: tuple[Page, Path], shots: Path
) -> None:
    page, folder = app
    notes = folder / "notes.md"
    notes.write_text("# Notes\nfrom the window\n", encoding="utf-8")
    (folder / "chosen.json").write_text(json.dumps([str(notes)]), encoding="utf-8")
    png = {
        "name": "image.png",
        "type": "image/png",
        "base64": base64.b64encode(png_bytes()).decode(),
    }

    page.locator("[data-testid=agent-item]", has_text="rich").click()
    page.wait_for_selector(CONVERSATION)

    page.click("[data-testid=attach]")  # the chooser (its test hook) gives notes.md
    page.wait_for_selector(f"{COMPOSER} [data-testid=attachment-chip][data-name='notes.md']")
    give_files(page, "paste", "[data-testid=composer-input]", [png])
    page.wait_for_selector(f"{COMPOSER} [data-testid=attachment-chip][data-kind=image]")
    give_files(page, "drop", COMPOSER, [{**png, "name": "dropped.png"}])
    page.wait_for_selector(f"{COMPOSER} [data-testid=attachment-chip][data-name='dropped.png']")
    assert [c["name"] for c in chips(page, COMPOSER)] == [
        "notes.md",
        "pasted image.png",
        "dropped.png",
    ]
    assert "24 B" in chips(page, COMPOSER)[0]["text"]
    page.wait_for_selector(f"{COMPOSER} [data-testid=attachment-thumbnail]")

    # A file dropped without a path (the window gives bytes, not locations) is refused with why.
    pdf = {"name": "paper.pdf", "type": "application/pdf", "base64": "JVBERi0="}
    give_files(page, "drop", COMPOSER, [pdf])
    refusal = page.wait_for_selector("[data-testid=attach-error]").inner_text()
    assert "paper.pdf" in refusal and "paperclip" in refusal

    # Dropped anywhere else, a file is refused by the page's guard: nothing attached, no navigation.
    prevented = page.evaluate(
        """([name, data]) => {
            const transfer = new DataTransfer();
            transfer.items.add(new File([atob(data)], name, { type: "image/png" }));
            const init = { bubbles: true, cancelable: true, dataTransfer: transfer };
            const drop = new DragEvent("drop", init);
            document.querySelector("#conversation-title").dispatchEvent(drop);
            return drop.defaultPrevented;
        }""",
        ["elsewhere.png", png["base64"]],
    )
    assert prevented
    assert "elsewhere.png" not in [c["name"] for c in chips(page, COMPOSER)]

    # Taken back before sending.
    page.locator(
        f"{COMPOSER} [data-testid=attachment-chip][data-name='dropped.png'] "
        "[data-testid=attachment-remove]"
    ).click()
    page.wait_for_selector(
        f"{COMPOSER} [data-testid=attachment-chip][data-name='dropped.png']", state="detached"
    )

    page.screenshot(path=str(shots / "attachments-composer.png"))
    box = page.locator("[data-testid=composer-input]")
    box.fill("what do you see?")
    box.press("Enter")
    page.wait_for_selector(f"{COMPOSER} [data-testid=attachments]", state="detached")
    user = f"{CONVERSATION} [data-testid=message][data-role=user]"
    page.wait_for_selector(f"{user} [data-testid=attachment-thumbnail]", timeout=WAIT)
    assert [(c["kind"], c["name"]) for c in chips(page, user)] == [
        ("file", "notes.md"),
        ("image", "pasted image.png"),
    ]
    src = page.get_attribute(f"{user} [data-testid=attachment-thumbnail]", "src") or ""
    assert src.startswith("data:image/png;base64,")
    page.wait_for_selector(
        f"{CONVERSATION} [data-testid=message][data-role=agent][data-done=true]", timeout=WAIT
    )

    page.screenshot(path=str(shots / "attachments-message.png"))
    log = folder / "rich.jsonl"
    prompts = [
        json.loads(line)["params"]["prompt"]
        for line in log.read_text().splitlines()
        if '"session/prompt"' in line
    ]
    assert [b["type"] for b in prompts[-1]] == ["text", "resource", "image"]
    assert prompts[-1][1]["resource"]["text"] == "# Notes\nfrom the window\n"

    # Still there after a reload: the thumbnail's bytes come from the data folder.
    page.reload()
    page.wait_for_selector("[data-ready=true]")
    page.locator("[data-testid=direct-item]", has_text="rich").click()
    page.wait_for_selector(f"{user} [data-testid=attachment-thumbnail]", timeout=WAIT)
