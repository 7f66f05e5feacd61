"""The commented-out agents of the first configuration start through the launcher that works on
the running system: agents.sh on Linux and macOS; on Windows the Python launcher, by this Python
from source or as `Sidekicks.exe --launch-agent` from the packaged app. Paths with spaces and
backslashes are written quoted and read back exactly."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from app.config.defaults import agent_launcher, default_config_text
from app.config.validate import check_text
from app.paths import resource_path

NAMES = ["claude", "codex", "gemini", "opencode", "goose"]
PYTHON = r"C:\Program Files\Python311\python.exe"
FROZEN = r"C:\Program Files\Sidekicks\Sidekicks.exe"


def uncommented_commands(text: str, tmp_path: Path) -> list[list[str]]:
    result = check_text(re.sub(r"(?m)^  # (-|  )", r"  \1", text), tmp_path)
    assert result.valid, result.problems
    return [agent.command or [] for agent in result.config.agents if not agent.builtin]


@pytest.mark.parametrize("platform", ["linux", "darwin"])
def test_on_linux_and_macos_the_agents_start_through_agents_sh(
    platform: str, tmp_path: Path
) -> None:
    script = str(resource_path("scripts", "agents.sh"))
    assert agent_launcher(platform) == [script]
    commands = uncommented_commands(default_config_text(platform), tmp_path)
    assert commands == [[script, name] for name in NAMES]


def test_on_windows_from_source_python_runs_the_launchers_file(tmp_path: Path) -> None:
    launcher = str(resource_path("app", "agents", "launcher.py"))
    assert Path(launcher).is_file()
    text = default_config_text("win32", frozen=False, executable=PYTHON)
    assert '"C:\\\\Program Files\\\\Python311\\\\python.exe"' in text  # quoted, escaped
    commands = uncommented_commands(text, tmp_path)
    assert commands == [[PYTHON, launcher, name] for name in NAMES]


def test_on_windows_the_packaged_app_launches_agents_itself(tmp_path: Path) -> None:
    text = default_config_text("win32", frozen=True, executable=FROZEN)
    commands = uncommented_commands(text, tmp_path)
    assert commands == [[FROZEN, "--launch-agent", name] for name in NAMES]


def test_the_command_written_for_windows_from_source_runs_the_launcher_here() -> None:
    # The same command line, with this Python: the launcher answers (usage: no such agent).
    command = agent_launcher("win32", frozen=False, executable=sys.executable)
    result = subprocess.run([*command, "nobody"], capture_output=True, text=True, timeout=30)
    assert result.returncode == 2
    assert "unknown agent 'nobody'" in result.stderr
