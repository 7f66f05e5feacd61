"""Keyboard safety and focus in the real window (#16 items 1, 8, 11): a permission prompt never
takes the keyboard — keystrokes typed in the composer go to the composer, a held Enter never
answers it — and it answers only a deliberate Alt+A / Alt+R, a click or a button the person
focused; in English and French."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page

from tests.agents import agent_yaml
from tests.e2e.window import back_home, module_app, open_conversation, save_config, text_of

pytestmark = pytest.mark.e2e

CONVERSATION = "[data-testid=conversation][data-loaded=true]"
MESSAGE = f"{CONVERSATION} [data-testid=message]"
BOX = "[data-testid=composer-input]"
PENDING = "[data-testid=permission][data-state=pending]"
WAIT = 30_000  # ms: agents start, answer and stream within this
KEYS_HINT = {
    "en": "Alt+A allows once, Alt+R rejects; or Tab to the buttons",
    "fr": "Alt+A autorise une fois, Alt+R refuse ; ou Tab jusqu’aux boutons",
}


# Each test talks to agents of its own in the module's one window: the permission prompt's
# agent per language, the commands' and the focus test's (maxRunningAgents leaves them all
# running, so that none is stopped to make room for another).
ASKERS = {"en": "asker", "fr": "demandeur"}


def config_text(language: str) -> str:
    return (
        f"language: {language}\nlimits:\n  maxRunningAgents: 8\nagents:\n"
        + "".join(agent_yaml(name, "permission-twice") for name in ASKERS.values())
        + agent_yaml("alpha", "commands")
        + agent_yaml("prompter", "permission-twice")
        + agent_yaml("slowpoke", "slow")
    )


@pytest.fixture(scope="module")
def keyboard_window(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Page, Path]]:
    folder = tmp_path_factory.mktemp("keyboard")
    config = folder / "keyboard.yaml"
    config.write_text(config_text("en"), encoding="utf-8")
    with module_app(folder, ["--config", str(config)]) as (page, _proc):
        yield page, config


def window_in(keyboard_window: tuple[Page, Path], language: str) -> Page:
    """The module's window in `language` (saved through the app, so it applies), reloaded."""
    page, config = keyboard_window
    save_config(page, config_text(language))
    return back_home(page, config.with_name("app.log"), size=(1280, 860))


def open_direct(page: Page, agent: str) -> None:
    open_conversation(page, "[data-testid=agent-item]", agent)
    page.wait_for_function(f"() => document.activeElement?.matches('{BOX}')", timeout=WAIT)


def focused(page: Page) -> str:
    return page.evaluate(
        "() => { const e = document.activeElement;"
        " return e?.dataset.testid ?? e?.dataset.option ?? e?.tagName ?? ''; }"
    )


def user_texts(page: Page) -> list[str]:
    return page.eval_on_selector_all(
        f"{MESSAGE}[data-role=user]", "els => els.map(e => e.textContent)"
    )


def outcomes(page: Page) -> list[str | None]:
    return [
        o.get_attribute("data-kind") for o in page.locator("[data-testid=permission-outcome]").all()
    ]


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_permission_prompt_never_takes_the_keyboard(
    keyboard_window: tuple[Page, Path], language: str
) -> None:
    page = window_in(keyboard_window, language)
    open_direct(page, ASKERS[language])
    page.keyboard.type("may I?")
    page.keyboard.press("Enter")
    first = page.locator(PENDING)
    first.wait_for(timeout=WAIT)
    first_id = first.get_attribute("data-request")

    # The prompt appeared: the focus stayed in the composer, and what the person goes on
    # typing lands there; Enter sends it (queued behind the answer), the prompt still waits.
    assert focused(page) == "composer-input"
    page.keyboard.type("hello")
    assert page.locator(BOX).input_value() == "hello"
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => document.querySelector('{BOX}').value === ''")
    page.wait_for_function(
        "() => [...document.querySelectorAll("
        f"'{MESSAGE}[data-role=user]')].some(e => e.textContent.includes('hello'))"
    )
    assert page.locator(PENDING).count() == 1
    assert first.get_attribute("data-request") == first_id
    assert outcomes(page) == []
    assert focused(page) == "composer-input"
    # Screen readers hear of it without the focus moving; the keys are said in the prompt.
    assert first.locator(".ask").get_attribute("aria-live") == "polite"
    assert text_of(first.locator("[data-testid=permission-keys]")) == (KEYS_HINT[language])

    # An Enter held from the composer, then the focus put on Allow: its repeats and its
    # release answer nothing (the outcome below is Alt+R's Reject, not Allow).
    page.keyboard.down("Enter")
    first.locator("[data-option=allow]").focus()
    page.keyboard.down("Enter")  # auto-repeats of the held key
    page.keyboard.down("Enter")
    page.keyboard.up("Enter")

    # Alt+R, from the composer, is a deliberate answer: Reject (once); the focus stays.
    page.locator(BOX).focus()
    page.keyboard.press("Alt+r")
    second = page.locator(f"{PENDING}:not([data-request='{first_id}'])")
    second.wait_for(timeout=WAIT)
    assert outcomes(page) == ["reject_once"]
    assert focused(page) == "composer-input"
    assert page.locator(BOX).input_value() == ""

    # A button the person moved the focus to answers a fresh Enter.
    second.locator("[data-option=allow]").focus()
    page.keyboard.press("Enter")
    page.wait_for_function(
        "() => document.querySelectorAll('[data-testid=permission-outcome]').length === 2",
        timeout=WAIT,
    )
    assert outcomes(page) == ["reject_once", "allow_once"]
    assert any("hello" in text for text in user_texts(page))


def type_with_completion(page: Page, text: str, shown: str) -> None:
    """Types into the empty composer and waits for the completion list to offer `shown`."""
    box = page.locator(BOX)
    box.fill("")
    box.focus()
    page.keyboard.type(text)
    page.wait_for_selector(f"[data-testid=completion] [data-value='{shown}']", timeout=WAIT)


def sent_on_enter(page: Page, text: str) -> None:
    """Enter sends: the composer empties and the message shows as the person's."""
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => document.querySelector('{BOX}').value === ''")
    page.wait_for_function(
        "(t) => [...document.querySelectorAll("
        f"'{MESSAGE}[data-role=user]')].some(e => e.textContent.trim().endsWith(t))",
        arg=text,
        timeout=WAIT,
    )


def test_enter_on_a_complete_command_or_mention_sends_and_on_a_prefix_accepts(
    keyboard_window: tuple[Page, Path],
) -> None:
    page = window_in(keyboard_window, "en")
    open_direct(page, "alpha")
    # A prefix: Enter accepts the completion, nothing is sent.
    type_with_completion(page, "/he", "/hello")
    page.keyboard.press("Enter")
    assert page.locator(BOX).input_value() == "/hello "
    assert user_texts(page) == []
    # The command typed in full, the list still open: Enter sends it.
    type_with_completion(page, "/hello", "/hello")
    sent_on_enter(page, "/hello")

    # In a channel: `@agent` and `/agent:command` alike.
    page.click("[data-testid=new-channel]")
    page.fill("[data-testid=channel-name]", "keys")
    page.click("[data-testid=channel-save]")
    page.wait_for_function(
        "() => document.querySelector('#conversation-title')?.textContent.trim() === 'keys'"
    )
    page.wait_for_selector(CONVERSATION)
    type_with_completion(page, "@al", "@alpha")
    page.keyboard.press("Enter")
    assert page.locator(BOX).input_value() == "@alpha "
    type_with_completion(page, "@alpha", "@alpha")
    sent_on_enter(page, "@alpha")
    type_with_completion(page, "/alpha:hello", "/alpha:hello")
    sent_on_enter(page, "/alpha:hello")


def answers_stopped(page: Page) -> int:
    return page.locator(f"{MESSAGE}[data-role=agent][data-stop=cancelled]").count()


def wait_streaming(page: Page) -> None:
    """Waits until an answer streams (stopping it then leaves a cancelled answer)."""
    page.wait_for_function(
        f"() => [...document.querySelectorAll('{MESSAGE}[data-role=agent]')]"
        ".some(e => e.dataset.done !== 'true' && e.textContent.includes('tick'))",
        timeout=WAIT,
    )


def wait_stopped(page: Page, count: int) -> None:
    page.wait_for_function(
        f"() => document.querySelectorAll('{MESSAGE}[data-role=agent][data-stop=cancelled]')"
        f".length === {count}",
        timeout=WAIT,
    )
    page.wait_for_selector("[data-testid=turn]", state="detached", timeout=WAIT)


def test_focus_returns_to_the_composer_and_escape_stops_an_answer(
    keyboard_window: tuple[Page, Path],
) -> None:
    page = window_in(keyboard_window, "en")
    # Reject, then Allow, clicked: each prompt goes away and the focus is back in the box.
    open_direct(page, "prompter")
    page.keyboard.type("may I?")
    page.keyboard.press("Enter")
    page.locator(f"{PENDING} [data-option=reject]").click(timeout=WAIT)
    page.wait_for_function(
        "() => document.querySelectorAll('[data-testid=permission-outcome]').length === 1",
        timeout=WAIT,
    )
    page.wait_for_function(f"() => document.activeElement?.matches('{BOX}')")
    page.locator(f"{PENDING} [data-option=allow]").click(timeout=WAIT)
    page.wait_for_selector(PENDING, state="detached", timeout=WAIT)
    page.wait_for_function(f"() => document.activeElement?.matches('{BOX}')")

    # Stop, clicked: the focus is back in the box.
    open_direct(page, "slowpoke")
    page.keyboard.type("go")
    page.keyboard.press("Enter")
    wait_streaming(page)
    page.locator("[data-testid=stop]").click()
    wait_stopped(page, 1)
    assert focused(page) == "composer-input"

    # Escape with a dialog open closes the dialog only; then Escape stops the answer.
    page.keyboard.type("again")
    page.keyboard.press("Enter")
    wait_streaming(page)
    page.click("[data-testid=new-channel]")
    page.wait_for_selector("[data-testid=channel-dialog][open]")
    page.keyboard.press("Escape")
    page.wait_for_selector("[data-testid=channel-dialog][open]", state="detached")
    assert page.locator("[data-testid=turn]").count() == 1
    assert answers_stopped(page) == 1
    # Escape while a draft is in the box is not for the answer; in the empty box it stops.
    page.locator(BOX).focus()
    page.keyboard.type("draft")
    page.keyboard.press("Escape")
    assert page.locator("[data-testid=stop]").is_enabled()  # not stopping
    page.locator(BOX).fill("")
    assert answers_stopped(page) == 1
    page.keyboard.press("Escape")
    wait_stopped(page, 2)

    # Up in the empty box recalls the last message, Down empties it again.
    page.keyboard.press("ArrowUp")
    assert page.locator(BOX).input_value() == "again"
    page.keyboard.press("ArrowDown")
    assert page.locator(BOX).input_value() == ""
    # In a box with text (several lines), Up and Down move the caret as always.
    page.keyboard.type("one")
    page.keyboard.press("Shift+Enter")
    page.keyboard.type("two")
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowDown")
    assert page.locator(BOX).input_value() == "one\ntwo"
