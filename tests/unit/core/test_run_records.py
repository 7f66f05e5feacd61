"""The run records where /proc does not exist (Windows, macOS): nothing is written, nothing is
swept, and the run mark still identifies the app; on Linux a record lives as long as its agent,
and the sweep of a dead run ends whatever carries its mark — children that left their group
with `setsid` included — and nothing that does not."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from app.core import leftovers, process_table, run_records
from app.paths import run_dir
from tests.setsid_children import LEFT, escaped
from tests.waiting import wait_for


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
    leftovers.sweep(run_dir())
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


@pytest.mark.linux_only("the sweep reads /proc")
def test_the_sweep_ends_what_carries_a_dead_run_s_mark_wherever_it_went_and_nothing_else(
    tmp_path: Path,
) -> None:
    # A killed app's leftovers: `setsid sleep` and a child that called os.setsid() and ignores
    # SIGTERM — in no recorded group, but carrying the dead run's mark.
    dead = {"pid": 999_999_999, "start": run_records.start_time(os.getpid())}
    marked = {**os.environ, run_records.RUN_MARK: f"{dead['pid']}:{dead['start']}"}
    sleeper = subprocess.Popen(["setsid", "sleep", "600"], env=marked)
    child = subprocess.Popen([sys.executable, "-c", LEFT], env=marked, stdout=subprocess.PIPE)
    # Not the run's: one without the mark, and one carrying another dead run's mark though it
    # started before that run did (what a copied mark on an older process would look like).
    stranger = subprocess.Popen(["setsid", "sleep", "600"])
    later = {"pid": 999_999_998, "start": process_table.ticks_now() + 100_000}
    copied = {**os.environ, run_records.RUN_MARK: f"{later['pid']}:{later['start']}"}
    early = subprocess.Popen(["setsid", "sleep", "600"], env=copied)
    started = [sleeper, child, stranger, early]
    try:
        assert child.stdout is not None and child.stdout.readline().strip() == b"armed"
        wait_for(lambda: escaped([sleeper.pid, child.pid, stranger.pid, early.pid]), 10)
        folder = tmp_path / "run"
        folder.mkdir()
        gone_group = {"pid": dead["pid"], "pgid": dead["pid"], "start": dead["start"]}
        runs = {
            "agents-999999999.json": {"app": dead, "agents": [{**gone_group, "command": ["x"]}]},
            "agents-999999998.json": {"app": later, "agents": []},
        }
        for name, data in runs.items():
            (folder / name).write_text(json.dumps(data))
        assert run_records.sweep_previous_runs(folder, grace=0.5) == sorted(
            [sleeper.pid, child.pid]
        )
        assert sleeper.wait(10) == -signal.SIGTERM
        assert child.wait(10) == -signal.SIGKILL  # it ignored SIGTERM
        assert stranger.poll() is None and early.poll() is None
        assert not list(folder.iterdir())
    finally:
        for proc in started:
            proc.kill()
            proc.wait(10)
