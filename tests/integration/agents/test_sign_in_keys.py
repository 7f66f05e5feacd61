"""Sign-in with keys (#14, `env_var` methods): saved outside the YAML, given to the agent at each
start, remembered across launches, forgotten on sign-out or when the agent refuses them —
against a fake that answers like codex-acp (tests/fakes/auth_agent.py). The store is pointed at
a test folder (SIDEKICKS_SECRETS_DIR), so the real keychain is never touched."""

from __future__ import annotations

import json
import logging
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from app import Sidekicks
from app.core.errors import UserError
from app.paths import data_dir
from tests.agents import write_config
from tests.integration.agents.test_sign_in import AUTH_AGENT, FAST, App, received

KEY = "sk-test-RECOGNISABLE-5f0c1e"


@pytest.fixture
def secrets(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "secrets"
    monkeypatch.setenv("SIDEKICKS_SECRETS_DIR", str(folder))
    monkeypatch.setenv("FAKE_LOG", str(tmp_path / "received.jsonl"))
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("CODEX_API_KEY", raising=False)
    return folder


def codex_config(tmp_path: Path, env: dict[str, str] | None = None) -> Path:
    command = json.dumps([sys.executable, AUTH_AGENT])
    extra = f"    env: {json.dumps(env)}\n" if env else ""
    return write_config(
        tmp_path / "agents.yaml", f"  - name: codex\n    command: {command}\n{extra}"
    )


@pytest.fixture
def codex(tmp_path: Path, secrets: Path) -> Iterator[App]:
    sk = Sidekicks(config=codex_config(tmp_path), tuning=FAST).start()
    try:
        yield App(sk)
    finally:
        sk.close()


def answer_text(message: dict[str, object]) -> str:
    parts = message.get("parts") or []
    assert isinstance(parts, list)
    return "".join(p["text"] for p in parts if p["kind"] == "text")


def test_signing_in_with_a_key_gives_it_to_the_agent_and_lets_it_answer(
    codex: App, tmp_path: Path
) -> None:
    info = codex.sk.api.SignInService.SignIn("codex", "openai-api-key", {"OPENAI_API_KEY": KEY})
    assert info.needs_sign_in is False and info.state == "ready"
    assert [(m.id, m.saved) for m in info.auth_methods] == [
        ("chatgpt", False), ("codex-api-key", False), ("openai-api-key", True),
    ]  # fmt: skip
    assert answer_text(codex.send("codex", "hi")) == "echo: hi [key OPENAI_API_KEY sk-test]"
    assert {"methodId": "openai-api-key"} in [
        m["params"] for m in received(tmp_path, "authenticate")
    ]


def test_a_key_is_remembered_across_launches_and_written_nowhere_else(
    tmp_path: Path, secrets: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    config = codex_config(tmp_path)
    logged: list[str] = []
    with Sidekicks(config=config, tuning=FAST) as sk:
        sk.api.SignInService.SignIn("codex", "openai-api-key", {"OPENAI_API_KEY": KEY})
        logged += sk.api.AgentService.Logs("codex")
    with Sidekicks(config=config, tuning=FAST) as sk:
        app = App(sk)
        assert app.info("codex").state == "stopped"
        assert answer_text(app.send("codex", "again")) == "echo: again [key OPENAI_API_KEY sk-test]"
        assert next(m for m in app.info("codex").auth_methods if m.id == "openai-api-key").saved
        logged += sk.api.AgentService.Logs("codex")
        logged += [str(p) for n, p in app.log.events]  # every event, agent:log lines included
    assert KEY in (secrets / "secrets.json").read_text(
        encoding="utf-8"
    )  # kept, in the owner-only file here
    assert KEY not in config.read_text(encoding="utf-8")
    history_files = [p for p in data_dir(config).rglob("*") if p.is_file()]
    assert history_files and not [p for p in history_files if KEY.encode() in p.read_bytes()]
    assert logged and not [line for line in logged if KEY in line]
    assert not [r for r in caplog.records if KEY in r.getMessage()]


def test_a_key_the_agent_refuses_is_forgotten_and_its_explanation_is_the_error(
    codex: App, secrets: Path
) -> None:
    refused = "rejected-" + KEY
    with pytest.raises(UserError, match=r"signing in to `codex` failed: invalid api key") as err:
        codex.sk.api.SignInService.SignIn("codex", "openai-api-key", {"OPENAI_API_KEY": refused})
    assert refused not in str(err.value) and KEY not in str(err.value)
    info = codex.info("codex")
    assert not any(m.saved for m in info.auth_methods)
    assert refused not in (secrets / "secrets.json").read_text(encoding="utf-8")
    assert codex.send("codex", "hi")["code"] == "agent-unavailable"  # not signed in


def test_signing_out_forgets_the_key_and_restarts_the_agent_without_it(
    codex: App, secrets: Path
) -> None:
    codex.sk.api.SignInService.SignIn("codex", "openai-api-key", {"OPENAI_API_KEY": KEY})
    info = codex.sk.api.SignInService.SignOut("codex")
    assert info.state == "ready" and not any(m.saved for m in info.auth_methods)
    assert KEY not in (secrets / "secrets.json").read_text(encoding="utf-8")
    assert codex.send("codex", "hi")["code"] == "agent-unavailable"  # its environment lost it


def test_a_key_in_the_yaml_env_signs_in_when_the_agent_asks_for_it(
    tmp_path: Path, secrets: Path
) -> None:
    config = codex_config(tmp_path, {"OPENAI_API_KEY": "sk-yaml-123"})
    with Sidekicks(config=config, tuning=FAST) as sk:
        app = App(sk)
        assert answer_text(app.send("codex", "hi")) == "echo: hi [key OPENAI_API_KEY sk-yaml]"
        assert app.info("codex").needs_sign_in is False


def test_a_saved_key_wins_over_the_yaml_env(tmp_path: Path, secrets: Path) -> None:
    config = codex_config(tmp_path, {"OPENAI_API_KEY": "sk-yaml-123"})
    with Sidekicks(config=config, tuning=FAST) as sk:
        app = App(sk)
        sk.api.SignInService.SignIn("codex", "openai-api-key", {"OPENAI_API_KEY": "sk-SAVED-4"})
        assert answer_text(app.send("codex", "hi")) == "echo: hi [key OPENAI_API_KEY sk-SAVE]"


def test_a_saved_key_refused_at_a_later_start_says_so_in_the_log_without_the_key(
    tmp_path: Path, secrets: Path
) -> None:
    from app.agents.credentials.store import Credentials

    revoked = "rejected-" + KEY
    Credentials(secrets, use_keychain=False).save(
        "codex", "openai-api-key", {"OPENAI_API_KEY": revoked}
    )
    with Sidekicks(config=codex_config(tmp_path), tuning=FAST) as sk:
        info = sk.api.AgentService.Start("codex")
        assert info.state == "ready" and info.needs_sign_in is True
        logs = sk.api.AgentService.Logs("codex")
    failed = [line for line in logs if "signing in with the saved values failed" in line]
    assert failed == ["signing in with the saved values failed: invalid api key: ••••"]
    assert not [line for line in logs if KEY in line]
