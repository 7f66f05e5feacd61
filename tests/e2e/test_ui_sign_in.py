"""Signing in to agents from the real window (#14): the methods on the agent's card and in the
conversation, an `agent` method's button, an `env_var` method's key form and sign-out, a
`terminal` method in the in-window terminal (xterm.js), and "Send again" afterwards. Issue 27:
the badge says "sign-in needed" rather than "ready", methods are named in sentences, a
terminal's hard-wrapped address is a link with Copy and its code has a field, and an `agent`
method whose agent prints an address and asks for a code (gemini) shows both."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.window import running_app

pytestmark = pytest.mark.e2e

FAKES = Path(__file__).resolve().parents[1] / "fakes"
CONVERSATION = "[data-testid=conversation][data-loaded=true]"
MESSAGE = f"{CONVERSATION} [data-testid=message]"
WAIT = 20_000  # ms: an agent start is a real process and an ACP handshake


def secrets_env(tmp_path: Path) -> dict[str, str]:
    """Saved keys go to a file of the test, never to the person's keychain."""
    return {"SIDEKICKS_SECRETS_DIR": str(tmp_path / "secrets")}


def fake_agent(name: str, script: str, *args: str) -> str:
    command = [sys.executable, str(FAKES / script), *args]
    return f"  - name: {name}\n    command: {json.dumps(command)}\n"


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Page]:
    config = tmp_path / "sign-in.yaml"
    config.write_text("agents:\n" + fake_agent("codex", "auth_agent.py"), encoding="utf-8")
    log = tmp_path / "app.log"
    with running_app(["--config", str(config)], log, secrets_env(tmp_path)) as (page, _proc):
        page.set_viewport_size({"width": 1280, "height": 860})
        yield page


def open_direct(page: Page, agent: str) -> None:
    page.locator("[data-testid=agent-item]", has_text=agent).click()
    page.wait_for_selector(CONVERSATION)


def send(page: Page, text: str) -> None:
    box = page.locator("[data-testid=composer-input]")
    box.fill(text)
    box.press("Enter")
    expect(box).to_have_value("")


def agent_card(page: Page, agent: str) -> str:
    return f"article[data-agent={agent}]"


def test_an_agent_method_signs_in_from_the_card_and_the_message_is_sent_again(
    app: Page, shots: Path
) -> None:
    page = app
    open_direct(page, "codex")
    send(page, "hello there")

    # The send failed for want of a sign-in: the conversation says so and lists the methods.
    notice = page.get_by_test_id("signin-notice")
    expect(notice).to_contain_text("codex needs you to sign in before it can answer.", timeout=WAIT)
    chatgpt = notice.locator("[data-testid=signin-method][data-method=chatgpt]")
    expect(chatgpt).to_contain_text("Login with ChatGPT")
    expect(chatgpt).to_contain_text("requires a paid ChatGPT subscription")
    expect(notice.locator("[data-testid=signin-method][data-type=env_var]")).to_have_count(2)
    page.screenshot(path=str(shots / "sign-in-notice.png"))

    # The card has it too, prominently, with its badge.
    page.get_by_test_id("nav-agents").click()
    card = page.locator(agent_card(page, "codex"))
    expect(card.get_by_test_id("agent-state")).to_have_text("sign-in needed")  # never "ready"
    expect(card.get_by_test_id("agent-signin")).to_have_attribute("data-needed", "true")
    page.screenshot(path=str(shots / "sign-in-card.png"))
    card.locator("[data-method=chatgpt] [data-testid=signin-button]").click()
    expect(card.get_by_test_id("agent-state")).to_have_text("ready", timeout=WAIT)
    expect(card.get_by_test_id("agent-signin")).to_have_attribute("data-needed", "false")
    expect(card.get_by_test_id("signin-error")).to_have_count(0)

    # Back in the conversation: signed in, and the failed message goes again.
    page.locator("[data-testid=direct-item]", has_text="codex").click()
    page.wait_for_selector(CONVERSATION)
    expect(page.get_by_test_id("signin-notice-recovered")).to_contain_text(
        "Signed in to codex with “Login with ChatGPT”."
    )
    page.screenshot(path=str(shots / "sign-in-send-again.png"))
    page.get_by_test_id("signin-send-again").click()
    expect(page.locator(f"{MESSAGE}[data-role=agent]").last).to_contain_text(
        "echo: hello there", timeout=WAIT
    )
    expect(page.get_by_test_id("signin-notice")).to_have_count(0)


def test_a_key_form_signs_in_keeps_the_key_out_of_the_page_and_signs_out(
    tmp_path: Path, shots: Path
) -> None:
    secret = "sk-e2e-0123456789"
    config = tmp_path / "sign-in.yaml"
    config.write_text("agents:\n" + fake_agent("codex", "auth_agent.py"), encoding="utf-8")
    log = tmp_path / "app.log"
    with running_app(["--config", str(config)], log, secrets_env(tmp_path)) as (page, _proc):
        page.set_viewport_size({"width": 1280, "height": 860})
        open_direct(page, "codex")
        send(page, "hello with a key")
        notice = page.get_by_test_id("signin-notice")
        method = notice.locator("[data-testid=signin-method][data-method=openai-api-key]")
        method.get_by_test_id("signin-key-toggle").click(timeout=WAIT)
        field = method.get_by_test_id("key-input")
        expect(field).to_be_focused()
        expect(field).to_have_attribute("type", "password")
        # A refused key: the agent's sentence, without the key in it.
        field.fill("rejected-key-42")
        method.get_by_test_id("key-save").click()
        expect(field).to_have_value("")  # emptied as soon as it is sent
        error = notice.get_by_test_id("signin-error")
        expect(error).to_contain_text("invalid api key", timeout=WAIT)
        expect(error).not_to_contain_text("rejected-key-42")

        field.fill(secret)
        method.get_by_test_id("key-toggle").click()
        expect(field).to_have_attribute("type", "text")
        expect(method).to_contain_text("never in the configuration file")
        page.screenshot(path=str(shots / "sign-in-key-form.png"))
        method.get_by_test_id("key-save").click()

        expect(page.get_by_test_id("signin-notice-recovered")).to_be_visible(timeout=WAIT)
        page.get_by_test_id("signin-send-again").click()
        expect(page.locator(f"{MESSAGE}[data-role=agent]").last).to_contain_text(
            "echo: hello with a key", timeout=WAIT
        )
        # The key is nowhere in the page once sent.
        assert secret not in page.content()

        page.get_by_test_id("nav-agents").click()
        card = page.locator(agent_card(page, "codex"))
        saved = card.get_by_test_id("signin-saved")
        expect(saved).to_contain_text("Signed in to codex with your OPENAI_API_KEY key")
        saved.get_by_test_id("signin-sign-out").click()
        page.locator("[data-testid=dialog] [data-choice=sign-out]").click()
        expect(card.get_by_test_id("signin-saved")).to_have_count(0, timeout=WAIT)
    assert secret not in config.read_text(encoding="utf-8")
    assert secret not in (tmp_path / "app.log").read_text(encoding="utf-8", errors="replace")


LOGIN_URL = (
    "https://claude.example.test/oauth/authorize?code=true&client_id=9d1c250a-e61b-44d9-88ed"
    "&response_type=code&redirect_uri=https%3A%2F%2Fconsole.example.test%2Foauth%2Fcode%2Fcallback"
    "&scope=org%3Acreate_api_key+user%3Aprofile&code_challenge=Xj3kq-abc_DEF&state=4f1c2b"
)


def test_a_terminal_method_signs_in_in_the_window_terminal(tmp_path: Path, shots: Path) -> None:
    config = tmp_path / "sign-in.yaml"
    config.write_text("agents:\n" + fake_agent("claude", "claude_like.py"), encoding="utf-8")
    env = {
        **secrets_env(tmp_path),
        "FAKE_CREDENTIALS": str(tmp_path / "credentials"),
        "FAKE_LOGIN_URL": LOGIN_URL,  # printed hard-wrapped at the terminal's width
    }
    with running_app(["--config", str(config)], tmp_path / "app.log", env) as (page, _proc):
        page.set_viewport_size({"width": 1280, "height": 860})
        open_direct(page, "claude")
        send(page, "hello after a login")
        notice = page.get_by_test_id("signin-notice")
        method = notice.locator("[data-testid=signin-method][data-type=terminal]").first
        expect(method.get_by_test_id("signin-command")).not_to_be_empty(timeout=WAIT)
        expect(method.get_by_test_id("signin-command")).not_to_be_visible()  # behind Details
        dialog = page.locator("[data-testid=signin-terminal][open]")
        screen = dialog.get_by_test_id("signin-terminal-screen")
        rows = screen.locator(".xterm-rows")

        # Escape leaves the terminal (the keyboard is never trapped in it): the command ends.
        method.get_by_test_id("signin-terminal-open").click()
        expect(rows).to_contain_text("Paste your code:", timeout=WAIT)
        page.keyboard.press("Escape")
        expect(page.locator("[data-testid=signin-terminal]")).to_have_count(0)
        assert not (tmp_path / "credentials").exists()

        method.get_by_test_id("signin-terminal-open").click()
        expect(dialog).to_have_attribute("data-phase", "running", timeout=WAIT)
        expect(rows).to_contain_text("Paste your code:", timeout=WAIT)
        # The command runs on a terminal of the dialog's size (fitted, never 0×0).
        expect(rows).to_contain_text(re.compile(r"size [1-9]\d*x[1-9]\d*"))
        # The method in words, the adapter's command line behind Details.
        expect(dialog.locator("h2")).to_have_text("Sign in to claude with “Claude Subscription”")
        expect(dialog.get_by_test_id("signin-terminal-command")).not_to_be_visible()
        # The address, wrapped over several lines on the screen, is one link with Copy and Open.
        link = dialog.get_by_test_id("signin-prompt-link")
        expect(link).to_have_attribute("href", LOGIN_URL, timeout=WAIT)
        expect(dialog.get_by_test_id("signin-prompt-open")).to_have_attribute("href", LOGIN_URL)
        dialog.get_by_test_id("signin-prompt-copy").click()
        expect(dialog.get_by_test_id("signin-prompt-copy")).to_have_text("Copied")
        # The code it asks for has a field: typed into the terminal with Enter.
        dialog.get_by_test_id("signin-prompt-code").fill("code-1234")
        dialog.get_by_test_id("signin-prompt-send").click()
        expect(dialog).to_have_attribute("data-phase", "exited", timeout=WAIT)
        expect(dialog).to_have_attribute("data-code", "0")
        expect(rows).to_contain_text("Signed in")
        assert (tmp_path / "credentials").read_text(encoding="utf-8") == "code-1234"
        page.screenshot(path=str(shots / "sign-in-terminal.png"))
        dialog.get_by_test_id("signin-terminal-done").click()
        expect(page.locator("[data-testid=signin-terminal]")).to_have_count(0)

        page.get_by_test_id("signin-send-again").click(timeout=WAIT)
        expect(page.locator(f"{MESSAGE}[data-role=agent]").last).to_contain_text(
            "hello after a login", timeout=WAIT
        )


def test_an_agent_method_that_prints_an_address_and_asks_a_code_signs_in_there(
    tmp_path: Path, shots: Path
) -> None:
    url = "https://accounts.example.test/o/oauth2/v2/auth?state=e2e&client_id=c1&scope=a%20b"
    config = tmp_path / "sign-in.yaml"
    config.write_text("agents:\n" + fake_agent("gemini", "gemini_like.py"), encoding="utf-8")
    env = {**secrets_env(tmp_path), "FAKE_AUTH_URL": url, "FAKE_AUTH_CODE": "4/e2e-code"}
    with running_app(["--config", str(config)], tmp_path / "app.log", env) as (page, _proc):
        page.set_viewport_size({"width": 1280, "height": 860})
        open_direct(page, "gemini")
        send(page, "hello gemini")
        notice = page.get_by_test_id("signin-notice")
        method = notice.locator("[data-testid=signin-method][data-method=oauth-personal]")
        progress = notice.get_by_test_id("signin-progress")
        # Cancel gives the sign-in up (the agent, stuck reading a code, restarts): no error.
        method.get_by_test_id("signin-button").click(timeout=WAIT)
        expect(notice.get_by_test_id("signin-prompt-code")).to_be_visible(timeout=WAIT)
        progress.get_by_test_id("signin-cancel").click()
        expect(progress).to_have_count(0, timeout=WAIT)
        expect(notice.get_by_test_id("signin-error")).to_have_count(0)

        method.get_by_test_id("signin-button").click()
        expect(progress).to_contain_text("Signing in to gemini with “Log in with Google”…")
        expect(progress.get_by_test_id("signin-cancel")).to_be_visible()
        link = notice.get_by_test_id("signin-prompt-link")
        expect(link).to_have_attribute("href", url, timeout=WAIT)
        expect(link).to_have_text(url)
        expect(notice.get_by_test_id("signin-prompt-copy")).to_be_visible()
        code = notice.get_by_test_id("signin-prompt-code")
        page.screenshot(path=str(shots / "sign-in-code.png"))
        code.fill("4/e2e-code")
        code.press("Enter")
        recovered = page.get_by_test_id("signin-notice-recovered")
        expect(recovered).to_contain_text(
            "Signed in to gemini with “Log in with Google”.", timeout=WAIT
        )
        expect(notice.get_by_test_id("signin-error")).to_have_count(0)
        # A message sent: the banner has done its job and leaves.
        send(page, "now?")
        expect(page.locator(f"{MESSAGE}[data-role=agent]").last).to_contain_text(
            "echo: now?", timeout=WAIT
        )
        expect(page.get_by_test_id("signin-notice")).to_have_count(0)


def test_an_agent_failing_before_any_sign_in_offers_its_methods_with_its_error(
    tmp_path: Path, shots: Path
) -> None:
    config = tmp_path / "sign-in.yaml"
    config.write_text(
        "agents:\n" + fake_agent("claude", "claude_like.py", "--exits"), encoding="utf-8"
    )
    env = {**secrets_env(tmp_path), "FAKE_CREDENTIALS": str(tmp_path / "credentials")}
    with running_app(["--config", str(config)], tmp_path / "app.log", env) as (page, _proc):
        open_direct(page, "claude")
        send(page, "hello")
        maybe = page.get_by_test_id("signin-notice-maybe")
        expect(maybe).to_contain_text("This may need you to sign in", timeout=WAIT)
        expect(maybe).to_contain_text("Claude Code process exited with code 1")
        methods = page.get_by_test_id("signin-notice").get_by_test_id("signin-terminal-open")
        expect(methods).to_have_count(2)
        header = page.get_by_test_id("conversation-header")
        expect(header.get_by_test_id("agent-state").first).to_have_text("sign-in needed")
        page.screenshot(path=str(shots / "sign-in-maybe.png"))
