"""The run records where /proc does not exist (Windows, macOS): nothing is written, nothing is
swept, and the run mark still identifies the app; on Linux a record lives as long as its agent."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from app.core import run_records
from app.paths import run_dir


@pytest.fixture
def elsewhere(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(run_records, "SUPPORTED", False)


@pytest.mark.usefixtures("elsewhere")
def test_without_proc_no_record_is_written_and_nothing_is_swept() -> None:
    records = run_records.RunRecords()
    records.add(4242, ["agent"])
    assert not run_dir().exists()
    records.remove(4242)  # an agent that was never recorded stops quietly
    run_dir().mkdir(parents=True)
    (run_dir() / "agents-1.json").write_text("{}")
    assert run_records.sweep_in_background() is None
    assert (run_dir() / "agents-1.json").exists(), "left alone: it cannot be checked here"


@pytest.mark.usefixtures("elsewhere")
def test_without_proc_the_run_mark_is_the_apps_pid() -> None:
    assert run_records.run_mark() == f"{os.getpid()}:0"


@pytest.mark.linux_only("process start times come from /proc")
def test_on_linux_a_record_lives_as_long_as_its_agent(tmp_path: Path) -> None:
    records = run_records.RunRecords()
    agent = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        records.add(agent.pid, ["agent"])
        path = run_dir() / f"agents-{os.getpid()}.json"
        assert f'"pgid": {agent.pid}' in path.read_text()
        records.remove(agent.pid)
        assert not path.exists()
    finally:
        agent.kill()
        agent.wait(10)
