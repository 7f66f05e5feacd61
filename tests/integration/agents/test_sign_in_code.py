"""Sign-ins without dead ends (issue 27): an `agent` method whose agent prints a web address and
asks for a code on its stdio (gemini's "Log in with Google" without a browser: the fake
tests/fakes/gemini_like.py) through SignInService — the address and the prompt as
`signin:prompt`, the code typed, a wrong code, Cancel — and an agent that fails its first
session without saying "authentication required" (claude-agent-acp without credentials)."""

from __future__ import annotations

import json
import sys
import threading
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import pytest

from app import Sidekicks
from app.core.errors import UserError
from app.models.agents import AgentInfo
from tests.agents import write_config
from tests.integration.agents.test_sign_in import FAST, App

FAKES = Path(__file__).resolve().parents[2] / "fakes"
URL = "https://accounts.example.test/o/oauth2/auth?state=s1&client_id=c1&scope=a%20b"


@pytest.fixture
def gemini(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[App]:
    monkeypatch.setenv("FAKE_LOG", str(tmp_path / "received.jsonl"))
    monkeypatch.setenv("FAKE_AUTH_URL", URL)
    monkeypatch.setenv("FAKE_AUTH_CODE", "4/right-code")
    command = json.dumps([sys.executable, str(FAKES / "gemini_like.py")])
    config = write_config(tmp_path / "agents.yaml", f"  - name: gemini\n    command: {command}\n")
    sk = Sidekicks(config=config, tuning=FAST).start()
    try:
        yield App(sk)
    finally:
        sk.close()


@pytest.fixture
def pool() -> Iterator[ThreadPoolExecutor]:
    with ThreadPoolExecutor(1) as executor:  # SignIn waits for the code: it runs beside
        yield executor


def sign_in(app: App, pool: ThreadPoolExecutor) -> Future[AgentInfo]:
    """SignIn with "Log in with Google", running; returns once the code is asked for."""
    since = app.log.mark()
    running = pool.submit(app.sk.api.SignInService.SignIn, "gemini", "oauth-personal", {})
    prompt = app.log.wait("signin:prompt", lambda p: p["asksCode"], timeout=15, since=since)
    assert prompt == {"agent": "gemini", "terminal": "", "url": URL, "asksCode": True}
    return running


def test_the_address_and_the_code_prompt_are_shown_and_the_right_code_signs_in(
    gemini: App, pool: ThreadPoolExecutor
) -> None:
    assert gemini.send("gemini", "hi")["code"] == "agent-unavailable"
    running = sign_in(gemini, pool)
    gemini.sk.api.SignInService.SignInCode("gemini", "  4/right-code \n")
    info = running.result(timeout=10)
    assert info.needs_sign_in is False and info.state == "ready"
    answer = gemini.send("gemini", "are you there?")
    assert [p["text"] for p in answer["parts"] if p["kind"] == "text"] == ["echo: are you there?"]
    # The address came before the prompt (the prompt has no newline: it was seen unfinished).
    prompts = gemini.log.named("signin:prompt")
    assert prompts[0] == {"agent": "gemini", "terminal": "", "url": URL, "asksCode": False}


def test_a_wrong_code_fails_the_sign_in_in_words(gemini: App, pool: ThreadPoolExecutor) -> None:
    running = sign_in(gemini, pool)
    gemini.sk.api.SignInService.SignInCode("gemini", "4/wrong")
    with pytest.raises(UserError) as failure:
        running.result(timeout=10)
    assert str(failure.value) == (
        "signing in to `gemini` failed: "
        "Failed to authenticate with authorization code: invalid_grant"
    )
    # No sign-in waits any more: a code now is refused, in words.
    with pytest.raises(UserError, match="no sign-in to `gemini` is waiting for a code"):
        gemini.sk.api.SignInService.SignInCode("gemini", "4/right-code")
    # The agent still works: another try signs in.
    again = sign_in(gemini, pool)
    gemini.sk.api.SignInService.SignInCode("gemini", "4/right-code")
    assert again.result(timeout=10).needs_sign_in is False


def received(tmp_path: Path) -> list[str]:
    """What the agents' processes read on their stdin, line by line."""
    return (tmp_path / "received.jsonl").read_text(encoding="utf-8").splitlines()


def test_cancel_gives_up_the_sign_in_and_the_agent_is_usable_afterwards(
    gemini: App, pool: ThreadPoolExecutor, tmp_path: Path
) -> None:
    running = sign_in(gemini, pool)
    gemini.sk.api.SignInService.CancelSignIn("gemini")
    with pytest.raises(UserError, match="the sign-in was cancelled"):
        running.result(timeout=10)
    # The request was given up ($/cancel_request; the stuck readline took it as its code) and
    # the agent restarted: a second process said hello.
    lines = received(tmp_path)
    assert any('"$/cancel_request"' in line for line in lines)
    assert sum('"initialize"' in line for line in lines) == 2
    assert gemini.info("gemini").state == "ready"
    again = sign_in(gemini, pool)
    gemini.sk.api.SignInService.SignInCode("gemini", "4/right-code")
    assert again.result(timeout=10).needs_sign_in is False
    assert gemini.send("gemini", "still there?")["parts"][0]["text"] == "echo: still there?"


def test_a_sign_in_asked_for_as_a_cancelled_one_restarts_the_agent_signs_in_the_new_process(
    gemini: App, pool: ThreadPoolExecutor
) -> None:
    """Cancel answers the page's SignIn at once, and restarts the agent after: a person who
    signs in again right away must sign in the process that runs afterwards, not the one the
    restart replaces (a whole e2e run failed so: "signed in", then "needs you to sign in")."""
    running = sign_in(gemini, pool)
    cancelling = threading.Thread(
        target=gemini.sk.api.SignInService.CancelSignIn, args=("gemini",), daemon=True
    )
    cancelling.start()
    with pytest.raises(UserError, match="the sign-in was cancelled"):
        running.result(timeout=10)
    again = sign_in(gemini, pool)  # while the restart may still be under way
    gemini.sk.api.SignInService.SignInCode("gemini", "4/right-code")
    assert again.result(timeout=15).needs_sign_in is False
    cancelling.join(20)
    answer = gemini.send("gemini", "still there?")
    assert [p["text"] for p in answer["parts"] if p["kind"] == "text"] == ["echo: still there?"], (
        answer
    )


def test_codes_are_refused_when_none_is_asked_and_when_not_one_line(
    gemini: App, pool: ThreadPoolExecutor
) -> None:
    with pytest.raises(UserError, match="no sign-in to `gemini` is waiting for a code"):
        gemini.sk.api.SignInService.SignInCode("gemini", "4/right-code")
    gemini.sk.api.SignInService.CancelSignIn("gemini")  # nothing under way: nothing happens
    running = sign_in(gemini, pool)
    with pytest.raises(UserError, match="a code must be a single line of text"):
        gemini.sk.api.SignInService.SignInCode("gemini", "4/right\ncode")
    with pytest.raises(UserError, match="type the code first"):
        gemini.sk.api.SignInService.SignInCode("gemini", "   ")
    gemini.sk.api.SignInService.SignInCode("gemini", "4/right-code")
    assert running.result(timeout=10).needs_sign_in is False


@pytest.fixture
def claude(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[App]:
    monkeypatch.setenv("FAKE_CREDENTIALS", str(tmp_path / "credentials"))
    command = json.dumps([sys.executable, str(FAKES / "claude_like.py"), "--exits"])
    config = write_config(tmp_path / "agents.yaml", f"  - name: claude\n    command: {command}\n")
    sk = Sidekicks(config=config, tuning=FAST).start()
    try:
        yield App(sk)
    finally:
        sk.close()


def test_a_session_failing_before_any_sign_in_says_a_sign_in_may_be_needed(
    claude: App, tmp_path: Path
) -> None:
    assert claude.send("claude", "hi")["code"] == "agent-unavailable"
    info = claude.info("claude")
    assert info.needs_sign_in is True
    assert info.sign_in_hint == "Claude Code process exited with code 1"
    assert info.wire()["signInHint"] == "Claude Code process exited with code 1"
    # Once signed in (the login's credentials), the session opens and the hint is gone.
    (tmp_path / "credentials").write_text("code", encoding="utf-8")
    answer = claude.send("claude", "hello")
    assert answer["role"] == "agent" and not answer["error"]
    info = claude.info("claude")
    assert info.needs_sign_in is False and info.sign_in_hint == ""


LOGIN_URL = (
    "https://claude.example.test/oauth/authorize?code=true&client_id=9d1c250a-e61b-44d9-88ed"
    "&response_type=code&redirect_uri=https%3A%2F%2Fconsole.example.test%2Foauth%2Fcode"
    "&scope=org%3Acreate_api_key+user%3Aprofile&code_challenge=Xj3kq-abc_DEF&state=4f1c2b"
)


def test_a_sign_in_terminal_s_hard_wrapped_address_and_code_prompt_are_found(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FAKE_CREDENTIALS", str(tmp_path / "credentials"))
    monkeypatch.setenv("FAKE_LOGIN_URL", LOGIN_URL)
    command = json.dumps([sys.executable, str(FAKES / "claude_like.py")])
    config = write_config(tmp_path / "agents.yaml", f"  - name: claude\n    command: {command}\n")
    sk = Sidekicks(config=config, tuning=FAST).start()
    try:
        app = App(sk)
        sk.api.AgentService.Start("claude")
        opened = sk.api.SignInService.SignInTerminal("claude", "claude-ai-login", 60, 20)
        prompt = app.log.wait(
            "signin:prompt",
            lambda p: p["terminal"] == opened.terminal and p["asksCode"],
            timeout=10,
        )
        assert prompt == {
            "agent": "claude",
            "terminal": opened.terminal,
            "url": LOGIN_URL,  # printed over 4 lines of 60 columns
            "asksCode": True,
        }
        sk.api.SignInService.TerminalInput(opened.terminal, "code-1\r")
        app.log.wait("signin:exited", lambda p: p["terminal"] == opened.terminal, timeout=10)
    finally:
        sk.close()
