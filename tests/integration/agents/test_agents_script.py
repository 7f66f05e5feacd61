"""scripts/agents.sh: starts an agent with the user's environment and cleans up its helpers."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from app import Sidekicks
from app.agents.supervisor import Tuning
from app.paths import resource_path
from tests.agents import fake_command, write_config
from tests.running import running
from tests.waiting import wait_for

pytestmark = pytest.mark.posix_only(
    "agents.sh is a bash script; on Windows the launcher replaces it (test_agent_launcher.py)"
)

SCRIPT = str(resource_path("scripts", "agents.sh"))


def script_agent(*behaviours: str) -> str:
    command = [SCRIPT, "run", *fake_command(*behaviours)]
    return f"  - name: a\n    command: {json.dumps(command)}\n"


def test_an_unknown_name_is_refused_with_the_list_of_names() -> None:
    result = subprocess.run([SCRIPT, "nobody"], capture_output=True, text=True, timeout=10)
    assert result.returncode == 2
    assert "unknown agent 'nobody'" in result.stderr
    assert "claude|codex|gemini|opencode|goose" in result.stderr


def test_a_missing_program_is_reported_on_stderr() -> None:
    result = subprocess.run(
        [SCRIPT, "run", "no-such-agent-binary"], capture_output=True, text=True, timeout=10
    )
    assert result.returncode == 127
    assert "'no-such-agent-binary' was not found on PATH" in result.stderr


def test_the_agent_speaks_acp_through_the_script(tmp_path: Path) -> None:
    config = write_config(tmp_path / "c.yaml", script_agent())
    with Sidekicks(config=config, tuning=Tuning(stdin_grace=2, term_grace=2)) as sk:
        assert sk.api.AgentService.Start("a").state == "ready"


def test_closing_stdin_ends_the_agent_and_the_script_stops_its_helper(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pidfile = tmp_path / "helper.pid"
    monkeypatch.setenv("AGENTS_SH_HELPER", f"echo $$ > {pidfile}; exec sleep 600")
    config = write_config(tmp_path / "c.yaml", script_agent())
    with Sidekicks(config=config, tuning=Tuning(stdin_grace=5, term_grace=3)) as sk:
        sk.api.AgentService.Start("a")
        helper = int(wait_for(lambda: pidfile.exists() and pidfile.read_text().strip()))
        assert running(helper)
        sk.api.AgentService.Stop("a")
        assert not running(helper)
        assert "agents.sh: stopping helper (echo" in "\n".join(sk.api.AgentService.Logs("a"))


def test_on_sigterm_the_script_stops_a_stubborn_agent_and_its_helper_itself(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pidfile = tmp_path / "helper.pid"
    monkeypatch.setenv("AGENTS_SH_HELPER", f"echo $$ > {pidfile}; exec sleep 600")
    config = write_config(tmp_path / "c.yaml", script_agent("stubborn"))
    # A short stdin grace, and a long TERM grace so that the script has time to clean up itself.
    with Sidekicks(config=config, tuning=Tuning(stdin_grace=0.5, term_grace=8)) as sk:
        sk.api.AgentService.Start("a")
        helper = int(wait_for(lambda: pidfile.exists() and pidfile.read_text().strip()))
        sk.api.AgentService.Stop("a")
        assert not running(helper)
        assert "agents.sh: stopping helper (echo" in "\n".join(sk.api.AgentService.Logs("a"))
