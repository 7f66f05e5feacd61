"""No agent outlives the app: when the app is killed (SIGKILL), the OS ends its agents
(PDEATHSIG), and the next start on the same config folder ends what they started; a crashed
agent's children are ended at once. Processes are identified by pid and start time, so a
recycled pid is never taken for one of ours."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from app import Sidekicks
from app.agents.supervisor import Tuning
from app.core.run_records import start_time, sweep_previous_runs
from app.paths import run_dir
from tests.agents import agent_yaml, write_config
from tests.integration.app_process import ROOT, AppProcess
from tests.waiting import EventLog, wait_for

pytestmark = pytest.mark.linux_only(
    "PDEATHSIG and the run records read /proc; Windows: tests/integration/acp/test_process_tree.py"
)

# A headless app in a process of its own: starts agent `a`, says so, then runs until killed.
APP = """
import sys, threading
from app import Sidekicks
sk = Sidekicks(config=sys.argv[1]).start()
sk.api.AgentService.Start("a")
conn = sk._supervisor.runtime("a").conn
print("agent", conn.process.pid, flush=True)
threading.Event().wait()
"""

Identity = tuple[int, int | None]  # pid, start time


def still_running(process: Identity) -> bool:
    """The same process (not a recycled pid) is still alive."""
    pid, started = process
    return started is not None and start_time(pid) == started


@contextlib.contextmanager
def killed_if_left(processes: list[Identity]) -> Iterator[None]:
    """Whatever the assertions say, none of these processes survives the test."""
    try:
        yield
    finally:
        for pid, started in processes:
            if still_running((pid, started)):
                os.kill(pid, signal.SIGKILL)


def read_pids(pidfile: Path) -> list[int]:
    text = wait_for(lambda: pidfile.exists() and pidfile.read_text(), what="the children's pids")
    return [int(pid) for pid in text.split()]


def test_a_killed_app_takes_its_agent_and_the_next_start_ends_the_agents_children(
    tmp_path: Path,
) -> None:
    pidfile = tmp_path / "pids"
    agents = agent_yaml("a", "stubborn", "grandchildren", env={"FAKE_PIDFILE": str(pidfile)})
    config = write_config(tmp_path / "agents.yaml", agents)
    proc = subprocess.Popen(
        [sys.executable, "-c", APP, str(config)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    app = AppProcess(proc)
    processes: list[Identity] = []
    with killed_if_left(processes):
        try:
            agent_pid = int(app.wait_for_line(lambda line: line.startswith("agent ")).split()[1])
            processes.append((agent_pid, start_time(agent_pid)))
            processes += [(pid, start_time(pid)) for pid in read_pids(pidfile)]
            agent, children = processes[0], processes[1:]
            assert all(still_running(p) for p in processes)
            assert len(children) == 2
            records = list(run_dir().glob("agents-*.json"))
            assert [r.name for r in records] == [f"agents-{proc.pid}.json"]
        finally:
            proc.kill()
            app.wait_exit()
        # The agent ignores stdin EOF and SIGTERM: only the OS's signal at the app's death ends it.
        wait_for(lambda: not still_running(agent), timeout=10, what="the agent to die")
        # Its children ignore SIGTERM too and are not the app's children: they are still here…
        assert all(still_running(child) for child in children)
        # … until the app starts again on this config folder.
        with Sidekicks(config=config):
            wait_for(
                lambda: not any(still_running(child) for child in children),
                timeout=10, what="the next start to end the agent's children",
            )  # fmt: skip
            wait_for(lambda: not list(run_dir().glob("agents-*.json")), what="the record to go")


def test_the_record_of_a_running_agent_is_removed_when_it_stops(tmp_path: Path) -> None:
    config = write_config(tmp_path / "agents.yaml", agent_yaml("a"))
    with Sidekicks(config=config, tuning=Tuning(stdin_grace=1, term_grace=1)) as sk:
        sk.api.AgentService.Start("a")
        conn = sk._supervisor.runtime("a").conn
        assert conn is not None and conn.process is not None
        record = json.loads((run_dir() / f"agents-{os.getpid()}.json").read_text())
        assert record["app"] == {"pid": os.getpid(), "start": start_time(os.getpid())}
        [agent] = record["agents"]
        assert agent["pid"] == agent["pgid"] == conn.process.pid
        assert agent["start"] == start_time(conn.process.pid)
        assert agent["command"][-1].endswith("fake_agent.py")
        sk.api.AgentService.Stop("a")
        assert not list(run_dir().glob("agents-*.json"))


def test_a_recorded_group_whose_processes_are_not_ours_is_left_alone(tmp_path: Path) -> None:
    # A process of the same group id and a later start, but without the dead run's mark: what a
    # recycled group id would look like. It must survive the sweep; the stale record goes.
    stranger = subprocess.Popen(
        ["sleep", "60"], start_new_session=True, env={"PATH": os.environ["PATH"]}
    )
    identity = (stranger.pid, start_time(stranger.pid))
    try:
        folder = tmp_path / "run"
        folder.mkdir()
        dead_app = {"pid": 999_999_999, "start": 1}
        agent = {"pid": stranger.pid, "pgid": stranger.pid, "start": 0, "command": ["x"]}
        record = folder / "agents-999999999.json"
        record.write_text(json.dumps({"app": dead_app, "agents": [agent]}))
        assert sweep_previous_runs(folder, grace=0.5) == []
        assert still_running(identity)
        assert not record.exists()
    finally:
        stranger.kill()
        stranger.wait(10)


def test_a_crashed_agents_children_are_ended_at_once(tmp_path: Path) -> None:
    pidfile = tmp_path / "pids"
    agents = agent_yaml("a", "grandchildren", "exit-mid-turn", env={"FAKE_PIDFILE": str(pidfile)})
    config = write_config(tmp_path / "agents.yaml", agents)
    with Sidekicks(config=config, tuning=Tuning(stdin_grace=1, term_grace=1)) as sk:
        log = EventLog()
        sk.events.subscribe(log)
        sk.api.AgentService.Start("a")
        children = [(pid, start_time(pid)) for pid in read_pids(pidfile)]
        with killed_if_left(children):
            channel = sk.api.ChannelService.Direct("a").id
            sk.api.ChannelService.Send(channel, "die")
            log.wait("agent:state", lambda p: p["state"] == "error", timeout=10)
            # Not at the app's close: the app may run for days after one agent crashed.
            wait_for(
                lambda: not any(still_running(child) for child in children),
                timeout=10, what="the crashed agent's children to end",
            )  # fmt: skip
