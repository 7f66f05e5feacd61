"""An agent whose program is not found says so in the list before anyone starts it."""

from __future__ import annotations

import json
from pathlib import Path

from app import Sidekicks
from tests.agents import agent_yaml, install_program, write_config

MISSING = "sidekicks-no-such-agent-program"


def missing_yaml(name: str, program: str, **extra: object) -> str:
    lines = [f"  - name: {name}", f"    command: {json.dumps([program, '--acp'])}"]
    lines += [f"    {key}: {json.dumps(value)}" for key, value in extra.items()]
    return "\n".join(lines) + "\n"


def test_a_program_not_on_path_is_said_before_a_start_and_a_found_one_is_not(
    tmp_path: Path,
) -> None:
    config = write_config(
        tmp_path / "agents.yaml", agent_yaml("ok") + missing_yaml("gone", MISSING)
    )
    with Sidekicks(config=config) as sk:
        found, gone = sk.api.AgentService.List()
        assert found.command_missing == ""
        assert gone.command_missing == (
            f"`{MISSING}` was not found on PATH: the agent will not start"
        )


def test_a_program_installed_later_clears_the_warning_at_the_next_list(tmp_path: Path) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    yaml = missing_yaml("late", "late-agent", env={"PATH": str(bin_dir)})
    config = write_config(tmp_path / "agents.yaml", yaml)
    with Sidekicks(config=config) as sk:
        assert sk.api.AgentService.List()[0].command_missing != ""
        install_program(bin_dir, "late-agent")
        assert sk.api.AgentService.List()[0].command_missing == ""


def test_a_relative_program_is_looked_up_in_the_agent_folder(tmp_path: Path) -> None:
    folder = tmp_path / "agent-home"
    folder.mkdir()
    yaml = missing_yaml("homebrew", "./run-agent", cwd="agent-home")
    config = write_config(tmp_path / "agents.yaml", yaml)
    with Sidekicks(config=config) as sk:
        assert "`./run-agent`" in sk.api.AgentService.List()[0].command_missing
        program = folder / "run-agent"
        program.write_text("#!/bin/sh\nexit 0\n", encoding="utf-8")
        program.chmod(0o755)
        assert sk.api.AgentService.List()[0].command_missing == ""
