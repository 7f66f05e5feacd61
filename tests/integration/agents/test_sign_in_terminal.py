"""Sign-in in a terminal (#14, `terminal` methods): the agent's login program runs on a real
pseudo-terminal, the person types in it, and once it exits the agent signs in — against a fake
that signs in as claude-agent-acp does (tests/fakes/claude_like.py)."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from app import Sidekicks
from app.core.errors import UserError
from tests.agents import write_config
from tests.integration.agents.test_sign_in import FAST, App
from tests.processes import MARKER, alive, marked_processes
from tests.setsid_children import escaped
from tests.waiting import wait_for

CLAUDE_LIKE = str(Path(__file__).resolve().parents[2] / "fakes" / "claude_like.py")


@pytest.fixture
def claude(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[App]:
    monkeypatch.setenv("FAKE_CREDENTIALS", str(tmp_path / "credentials"))
    monkeypatch.setenv("SIDEKICKS_SECRETS_DIR", str(tmp_path / "secrets"))
    command = json.dumps([sys.executable, CLAUDE_LIKE])
    config = write_config(tmp_path / "agents.yaml", f"  - name: claude\n    command: {command}\n")
    sk = Sidekicks(config=config, tuning=FAST).start()
    try:
        yield App(sk)
    finally:
        sk.close()


def output(app: App, terminal: str) -> str:
    return "".join(p["data"] for p in app.log.named("signin:output") if p["terminal"] == terminal)


def wait_output(app: App, terminal: str, text: str) -> None:
    app.log.wait("signin:output", lambda _: text in output(app, terminal), timeout=10)


def login_processes() -> list[int]:
    mine = marked_processes(os.environ[MARKER])
    return [pid for pid in mine if b"--login" in Path(f"/proc/{pid}/cmdline").read_bytes()]


def test_signing_in_in_a_terminal_lets_the_agent_answer(claude: App, tmp_path: Path) -> None:
    assert claude.send("claude", "hi")["code"] == "agent-unavailable"
    info = claude.info("claude")
    assert info.needs_sign_in is True
    method = next(m for m in info.auth_methods if m.id == "claude-ai-login")
    assert method.type == "terminal" and method.command == [sys.executable, CLAUDE_LIKE, "--login"]
    opened = claude.sk.api.SignInService.SignInTerminal("claude", "claude-ai-login", 100, 30)
    assert opened.agent == "claude" and opened.command == method.command
    wait_output(claude, opened.terminal, "Paste your code: ")
    assert "size 100x30" in output(claude, opened.terminal)  # a real terminal, of that size
    claude.sk.api.SignInService.TerminalInput(opened.terminal, "code-123\r")
    exited = claude.log.wait("signin:exited", timeout=10)
    assert exited == {"terminal": opened.terminal, "agent": "claude", "code": 0}
    assert (tmp_path / "credentials").read_text() == "code-123"
    assert "Signed in ✓" in output(claude, opened.terminal)
    assert claude.info("claude").needs_sign_in is False
    answer = claude.send("claude", "are you there?")
    assert answer["role"] == "agent" and not answer["error"]


@pytest.mark.linux_only("finds the login program in /proc by its command line")
def test_a_terminal_the_person_closes_is_killed_without_a_restart(claude: App) -> None:
    claude.sk.api.AgentService.Start("claude")
    opened = claude.sk.api.SignInService.SignInTerminal("claude", "console-login", 80, 24)
    wait_output(claude, opened.terminal, "Paste your code: ")
    assert len(login_processes()) == 1
    since = claude.log.mark()
    claude.sk.api.SignInService.TerminalClose(opened.terminal)
    exited = claude.log.wait("signin:exited", since=since)
    assert exited["code"] is None  # ended by a signal
    assert login_processes() == []
    assert not [p for p in claude.log.named("agent:state", since) if p["state"] == "stopped"]
    with pytest.raises(UserError, match=r"there is no sign-in terminal"):
        claude.sk.api.SignInService.TerminalInput(opened.terminal, "late\r")


@pytest.mark.linux_only("finds the login program in /proc by its command line")
def test_closing_the_app_kills_its_sign_in_terminals(claude: App) -> None:
    opened = claude.sk.api.SignInService.SignInTerminal("claude", "claude-ai-login", 80, 24)
    wait_output(claude, opened.terminal, "Paste your code: ")
    claude.sk.close()
    assert login_processes() == []


@pytest.mark.linux_only("the tree's mark is read in /proc (macOS: the group alone)")
@pytest.mark.parametrize("how", ["close", "app-close"])
def test_helpers_the_login_program_started_with_setsid_end_with_its_terminal(
    claude: App, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    pidfile = tmp_path / "helpers"
    monkeypatch.setenv("FAKE_LOGIN_HELPERS", str(pidfile))
    opened = claude.sk.api.SignInService.SignInTerminal("claude", "claude-ai-login", 80, 24)
    wait_output(claude, opened.terminal, "Paste your code: ")
    helpers = [int(pid) for pid in pidfile.read_text().split()]
    wait_for(lambda: escaped(helpers), 10, "the helpers to leave the terminal's session")
    if how == "close":
        since = claude.log.mark()
        claude.sk.api.SignInService.TerminalClose(opened.terminal)
        claude.log.wait("signin:exited", since=since)  # said once the whole tree is gone
    else:
        claude.sk.close()
    assert not [pid for pid in helpers if alive(pid)]


def test_unknown_terminals_and_methods_that_are_not_terminals_are_refused(claude: App) -> None:
    with pytest.raises(UserError, match=r"there is no sign-in terminal `nope`"):
        claude.sk.api.SignInService.TerminalResize("nope", 80, 24)
    with pytest.raises(UserError, match=r"`claude` has no sign-in method `magic`"):
        claude.sk.api.SignInService.SignInTerminal("claude", "magic", 80, 24)
    with pytest.raises(UserError, match=r"size must be 1 to"):
        claude.sk.api.SignInService.SignInTerminal("claude", "claude-ai-login", 0, 24)
