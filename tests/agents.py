"""Configurations with fake and demo agents for tests."""

from __future__ import annotations

import json
import sys
from pathlib import Path

FAKE = str(Path(__file__).resolve().parent / "fakes" / "fake_agent.py")


def fake_command(*behaviours: str) -> list[str]:
    return [sys.executable, FAKE, *behaviours]


def install_program(folder: Path, name: str) -> Path:
    """A program `name` in `folder` that a PATH lookup finds: an executable shell script, or on
    Windows a batch file (a lookup there only finds names with an extension from PATHEXT)."""
    if sys.platform == "win32":
        program = folder / f"{name}.bat"
        program.write_text("@echo off\r\nexit /b 0\r\n", encoding="utf-8")
    else:
        program = folder / name
        program.write_text("#!/bin/sh\nexit 0\n", encoding="utf-8")
        program.chmod(0o755)
    return program


def agent_yaml(name: str, *behaviours: str, **extra: object) -> str:
    lines = [f"  - name: {name}", f"    command: {json.dumps(fake_command(*behaviours))}"]
    lines += [f"    {key}: {json.dumps(value)}" for key, value in extra.items()]
    return "\n".join(lines) + "\n"


def write_config(
    path: Path, agents: str, max_running: int = 4, idle: str = "15m", extra: str = ""
) -> Path:
    path.write_text(
        f"limits:\n  maxRunningAgents: {max_running}\n  stopIdleAgentsAfter: {idle}\n"
        f"{extra}agents:\n{agents}",
        encoding="utf-8",
    )
    return path
