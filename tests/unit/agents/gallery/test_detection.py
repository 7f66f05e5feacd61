"""Programs on PATH: found by name, their `--version` read, a silent or slow one given up on."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

from app.agents.gallery import detection
from app.agents.gallery.detection import look_on_path


def program(folder: Path, name: str, python: str) -> None:
    """`name` on PATH running `python` code (a .bat on Windows)."""
    script = folder / f"{name}.py"
    script.write_text(python, encoding="utf-8")
    if sys.platform == "win32":
        (folder / f"{name}.bat").write_text(f'@"{sys.executable}" "{script}" %*\r\n')
    else:
        launcher = folder / name
        launcher.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{script}" "$@"\n')
        launcher.chmod(0o755)


def test_programs_and_runners_are_found_with_their_version(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    program(tmp_path, "gemini", "print()\nprint('0.27.3')\n")
    program(tmp_path, "npx", "print('10.9.2 and a very long tail ' + 'x' * 200)\n")
    program(tmp_path, "goose", "import time\ntime.sleep(30)\n")  # never answers in time
    program(tmp_path, "opencode", "import sys\nsys.exit(1)\n")  # says nothing
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setattr(detection, "VERSION_TIMEOUT", 0.5)
    found = asyncio.run(look_on_path())
    assert sorted(found) == ["gemini", "goose", "npx", "opencode"]
    assert found["gemini"].version == "0.27.3"
    assert found["npx"].version.startswith("10.9.2") and len(found["npx"].version) == 80
    assert found["goose"].version == ""
    assert found["opencode"].version == ""
    assert Path(found["gemini"].path).parent == tmp_path
