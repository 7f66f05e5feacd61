"""Programs on PATH: found by name, their `--version` read, a silent or slow one given up on."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from app.agents.gallery import detection
from app.agents.gallery.detection import look_on_path
from tests.gallery_server import path_program


def test_programs_and_runners_are_found_with_their_version(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path_program(tmp_path, "gemini", "print()\nprint('0.27.3')\n")
    path_program(tmp_path, "npx", "print('10.9.2 and a very long tail ' + 'x' * 200)\n")
    path_program(tmp_path, "goose", "import time\ntime.sleep(30)\n")  # never answers in time
    path_program(tmp_path, "opencode", "import sys\nsys.exit(1)\n")  # says nothing
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setattr(detection, "VERSION_TIMEOUT", 0.5)
    found = asyncio.run(look_on_path())
    assert sorted(found) == ["gemini", "goose", "npx", "opencode"]
    assert found["gemini"].version == "0.27.3"
    assert found["npx"].version.startswith("10.9.2") and len(found["npx"].version) == 80
    assert found["goose"].version == ""
    assert found["opencode"].version == ""
    assert Path(found["gemini"].path).parent == tmp_path
