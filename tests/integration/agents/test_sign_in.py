"""Sign-in (#14): Sidekicks advertises terminal sign-in, keeps each agent's sign-in methods, says
when an agent needs a sign-in, and signs in with the agent's own methods — against a fake that
answers like codex-acp (tests/fakes/auth_agent.py). Keys: test_sign_in_keys.py; terminals:
test_sign_in_terminal.py."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app import Sidekicks
from app.agents.supervisor import Tuning
from app.core.errors import UserError
from app.models.agents import AgentInfo
from tests.agents import write_config
from tests.waiting import EventLog

FAST = Tuning(stdin_grace=1.0, term_grace=1.0, initialize_timeout=10.0)
AUTH_AGENT = str(Path(__file__).resolve().parents[2] / "fakes" / "auth_agent.py")


class App:
    def __init__(self, sk: Sidekicks) -> None:
        self.sk, self.log = sk, EventLog()
        sk.events.subscribe(self.log)

    def send(self, agent: str, text: str) -> dict[str, Any]:
        """Sends `text` in the agent's direct channel; the agent's answer or the system message
        that says why there is none."""
        channel = self.sk.api.ChannelService.Direct(agent).id
        since = self.log.mark()
        self.sk.api.ChannelService.Send(channel, text)
        message: dict[str, Any] = self.log.wait(
            "message:updated",
            lambda p: (
                p["message"]["role"] == "system"
                or (p["message"]["role"] == "agent" and p["message"]["done"])
            ),
            timeout=20,
            since=since,
        )["message"]
        return message

    def info(self, agent: str) -> AgentInfo:
        return next(a for a in self.sk.api.AgentService.List() if a.name == agent)


@pytest.fixture
def codex(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[App]:
    """An app with one agent, `codex`, that needs a sign-in; what it receives goes to
    tmp_path/received.jsonl."""
    monkeypatch.setenv("FAKE_LOG", str(tmp_path / "received.jsonl"))
    command = json.dumps([sys.executable, AUTH_AGENT])
    config = write_config(tmp_path / "agents.yaml", f"  - name: codex\n    command: {command}\n")
    sk = Sidekicks(config=config, tuning=FAST).start()
    try:
        yield App(sk)
    finally:
        sk.close()


def received(tmp_path: Path, method: str) -> list[dict[str, Any]]:
    lines = (tmp_path / "received.jsonl").read_text(encoding="utf-8").splitlines()
    return [m for m in map(json.loads, lines) if m.get("method") == method]


def test_initialize_tells_the_agent_we_can_sign_in_in_a_terminal(
    codex: App, tmp_path: Path
) -> None:
    codex.sk.api.AgentService.Start("codex")
    caps = received(tmp_path, "initialize")[0]["params"]["clientCapabilities"]
    assert caps["auth"] == {"terminal": True}
    assert caps["_meta"] == {"terminal-auth": True}
    # Files and terminals for tools too (issue 15: app/workspace/).
    assert caps["fs"] == {"readTextFile": True, "writeTextFile": True}
    assert caps["terminal"] is True


def test_list_shows_the_sign_in_methods_the_agent_announced(codex: App) -> None:
    assert codex.info("codex").auth_methods == []  # not known before the agent started
    codex.sk.api.AgentService.Start("codex")
    methods = [m.wire() for m in codex.info("codex").auth_methods]
    assert [(m["id"], m["type"]) for m in methods] == [
        ("chatgpt", "agent"),
        ("codex-api-key", "env_var"),
        ("openai-api-key", "env_var"),
    ]
    assert methods[2]["vars"] == [{"name": "OPENAI_API_KEY", "secret": True, "label": ""}]
    assert methods[0]["name"] == "Login with ChatGPT"
    assert "paid ChatGPT subscription" in methods[0]["description"]
    wire = codex.info("codex").wire()
    assert wire["needsSignIn"] is False and len(wire["authMethods"]) == 3


def test_an_agent_that_asks_for_authentication_is_flagged_as_needing_a_sign_in(
    codex: App,
) -> None:
    message = codex.send("codex", "hello")
    assert message["role"] == "system" and message["code"] == "agent-unavailable"
    info = codex.info("codex")
    assert info.needs_sign_in is True
    assert info.state == "ready"  # the agent runs: it only needs a sign-in (SPEC §1)


def test_signing_in_with_the_agents_own_method_lets_it_answer(codex: App) -> None:
    codex.send("codex", "hello")
    since = codex.log.mark()
    info = codex.sk.api.SignInService.SignIn("codex", "chatgpt", {})
    assert info.needs_sign_in is False
    # The agent stays ready: the change is announced with agent:state all the same.
    codex.log.wait("agent:state", lambda p: p["agent"] == "codex", since=since)
    answer = codex.send("codex", "are you there?")
    assert answer["role"] == "agent" and not answer["error"]
    assert [p["text"] for p in answer["parts"] if p["kind"] == "text"] == ["echo: are you there?"]
    assert codex.info("codex").needs_sign_in is False


def test_signing_in_starts_a_stopped_agent(codex: App, tmp_path: Path) -> None:
    assert codex.info("codex").state == "stopped"
    codex.sk.api.SignInService.SignIn("codex", "chatgpt", {})
    assert codex.info("codex").state == "ready"
    assert [m["params"] for m in received(tmp_path, "authenticate")] == [{"methodId": "chatgpt"}]


def test_a_key_method_without_its_values_is_refused_by_name(codex: App, tmp_path: Path) -> None:
    with pytest.raises(UserError, match=r"a value is needed for `OPENAI_API_KEY`"):
        codex.sk.api.SignInService.SignIn("codex", "openai-api-key", {"OPENAI_API_KEY": " "})
    with pytest.raises(UserError, match=r"`openai-api-key` does not use `PATH`"):
        codex.sk.api.SignInService.SignIn("codex", "openai-api-key", {"PATH": "/bin"})
    assert received(tmp_path, "authenticate") == []  # the agent was not asked


def test_an_unknown_sign_in_method_is_refused_clearly(codex: App) -> None:
    with pytest.raises(UserError, match=r"`codex` has no sign-in method `magic`.*`chatgpt`"):
        codex.sk.api.SignInService.SignIn("codex", "magic", {})


TRANSCRIPTS = Path(__file__).resolve().parents[2] / "fakes" / "transcripts"


def announced_methods(adapter: str) -> list[tuple[str, str, str | None]]:
    """(id, type, link) of each sign-in method in the adapter's recorded `initialize` answer."""
    from acp.schema import InitializeResponse

    from app.acp.translate import auth_methods

    for line in (TRANSCRIPTS / f"{adapter}.jsonl").read_text(encoding="utf-8").splitlines():
        message = json.loads(line[2:]) if line.startswith("< ") else {}
        if "authMethods" in message.get("result", {}):
            response = InitializeResponse.model_validate(message["result"])
            return [(m.id, m.type, m.link) for m in auth_methods(response.auth_methods)]
    raise AssertionError(f"no authMethods in {adapter}.jsonl")


def test_the_real_adapters_sign_in_methods_are_typed_as_each_one_works() -> None:
    assert announced_methods("claude") == [
        ("claude-ai-login", "terminal", None),
        ("console-login", "terminal", None),
    ]
    assert [m[:2] for m in announced_methods("codex")] == [
        ("chatgpt", "agent"), ("codex-api-key", "env_var"), ("openai-api-key", "env_var"),
    ]  # fmt: skip
    assert [m[:2] for m in announced_methods("gemini")] == [
        ("oauth-personal", "agent"), ("gemini-api-key", "env_var"), ("vertex-ai", "agent"),
        ("gateway", "agent"),
    ]  # fmt: skip
    # opencode says "terminal" only through the terminal-auth extension.
    assert announced_methods("opencode") == [("opencode-login", "terminal", None)]
