"""app/agents/launcher.py, agents.sh in Python: short names, `run COMMAND…`, the helper
(AGENTS_SH_HELPER) started first and stopped after the agent, the agent's exit code, and the
stop sequence passed on to the agent and the helper — from source, as `python -m app
--launch-agent` (what the packaged app runs), and under Sidekicks."""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from app import Sidekicks
from app.agents import launcher as launcher_module
from app.agents.launcher import AGENTS, agent_command
from app.agents.supervisor import Tuning
from tests.agents import fake_command, write_config
from tests.integration.app_process import ROOT
from tests.running import running
from tests.waiting import wait_for

LAUNCHER = str(ROOT / "app" / "agents" / "launcher.py")
PID_WRITER = "import os, sys, time; open(sys.argv[1], 'w').write(str(os.getpid())); time.sleep(600)"


def launch(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, LAUNCHER, *args]
    return subprocess.run(
        command, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=30, env=env
    )


def helper_writing_its_pid(pidfile: Path) -> str:
    """A helper command line for the platform's shell (sh -c; cmd.exe /c on Windows)."""
    command = [sys.executable, "-c", PID_WRITER, str(pidfile)]
    if sys.platform == "win32":
        return subprocess.list2cmdline(command)
    return shlex.join(command)  # no `exec`: bash runs a single command in its own process


def launched_agent(*behaviours: str) -> str:
    command = [sys.executable, LAUNCHER, "run", *fake_command(*behaviours)]
    return f"  - name: a\n    command: {json.dumps(command)}\n"


def test_the_short_names_are_agents_sh_ones() -> None:
    script = (ROOT / "scripts" / "agents.sh").read_text()
    for name, command in AGENTS.items():
        assert f"  {name + ')':<9} cmd=({' '.join(command)}) ;;" in script
    assert agent_command(["claude", "--debug"])[-1] == "--debug"
    assert agent_command(["run", "my-agent", "--acp"]) == ["my-agent", "--acp"]


def test_on_windows_the_std_handles_are_handed_to_the_agent_by_name(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Simulated: Popen given no std argument starts a Windows child inheriting no handle.
    real_fstat = os.fstat

    def fstat(fd: int) -> os.stat_result:
        if fd == 0:
            raise OSError(9, "Bad file descriptor")  # a windowed app started without stdin
        return real_fstat(fd)

    monkeypatch.setattr(launcher_module, "WINDOWS", True)
    monkeypatch.setattr(os, "fstat", fstat)
    assert launcher_module.std_handles() == {"stdout": 1, "stderr": 2}
    monkeypatch.setattr(launcher_module, "WINDOWS", False)
    assert launcher_module.std_handles() == {}, "POSIX: inherited as they are"


def test_an_unknown_name_is_refused_with_the_list_of_names() -> None:
    result = launch("nobody")
    assert result.returncode == 2
    assert "unknown agent 'nobody'" in result.stderr
    assert "claude|codex|gemini|opencode|goose" in result.stderr
    assert launch().returncode == launch("run").returncode == 2


def test_a_missing_program_is_reported_on_stderr() -> None:
    result = launch("run", "no-such-agent-binary")
    assert result.returncode == 127
    assert "'no-such-agent-binary' was not found on PATH" in result.stderr


def test_the_program_is_found_on_path_as_the_system_names_it(tmp_path: Path) -> None:
    # `npx` is `npx.cmd` on Windows: the launcher resolves names the way the system's shell does.
    name = "fake-npx"
    if sys.platform == "win32":
        (tmp_path / f"{name}.cmd").write_text("@exit /b 7\r\n")
    else:
        program = tmp_path / name
        program.write_text("#!/bin/sh\nexit 7\n")
        program.chmod(0o755)
    path = f"{tmp_path}{os.pathsep}{os.environ['PATH']}"
    assert launch("run", name, env={**os.environ, "PATH": path}).returncode == 7


def test_the_agents_exit_code_is_the_launchers_also_from_the_packaged_apps_flag() -> None:
    assert launch("run", sys.executable, "-c", "raise SystemExit(5)").returncode == 5
    frozen_like = subprocess.run(
        [sys.executable, "-m", "app", "--launch-agent", "run", sys.executable, "-c", "exit(6)"],
        cwd=ROOT, stdin=subprocess.DEVNULL, capture_output=True, timeout=30,
    )  # fmt: skip
    assert frozen_like.returncode == 6


def test_the_agent_speaks_acp_through_the_launcher(tmp_path: Path) -> None:
    config = write_config(tmp_path / "c.yaml", launched_agent())
    with Sidekicks(config=config, tuning=Tuning(stdin_grace=2, term_grace=2)) as sk:
        assert sk.api.AgentService.Start("a").state == "ready"


def test_closing_stdin_ends_the_agent_and_the_launcher_stops_its_helper(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pidfile = tmp_path / "helper.pid"
    monkeypatch.setenv("AGENTS_SH_HELPER", helper_writing_its_pid(pidfile))
    config = write_config(tmp_path / "c.yaml", launched_agent())
    with Sidekicks(config=config, tuning=Tuning(stdin_grace=10, term_grace=3)) as sk:
        sk.api.AgentService.Start("a")
        helper = int(wait_for(lambda: pidfile.exists() and pidfile.read_text().strip()))
        assert running(helper)
        sk.api.AgentService.Stop("a")
        wait_for(lambda: not running(helper), what="the helper to end")
        logs = "\n".join(sk.api.AgentService.Logs("a"))
        assert "launcher: starting helper (" in logs
        assert "launcher: stopping helper (" in logs


def test_when_the_agent_ends_on_stdin_the_launcher_stops_the_helper_before_exiting(
    tmp_path: Path,
) -> None:
    pidfile = tmp_path / "helper.pid"
    reads_stdin = "import sys; sys.stdin.read(); raise SystemExit(4)"
    launcher = subprocess.Popen(
        [sys.executable, LAUNCHER, "run", sys.executable, "-c", reads_stdin],
        env={**os.environ, "AGENTS_SH_HELPER": helper_writing_its_pid(pidfile)},
        stdin=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        helper = int(wait_for(lambda: pidfile.exists() and pidfile.read_text()))
        assert launcher.stdin is not None
        launcher.stdin.close()  # what Sidekicks does first
        assert launcher.wait(20) == 4, "the agent's exit code"
        assert not running(helper), "stopped by the launcher itself, before it exited"
    finally:
        launcher.kill()
        launcher.wait(10)
    assert launcher.stderr is not None
    stderr = launcher.stderr.read()
    assert "launcher: stopping helper (" in stderr


@pytest.mark.posix_only("SIGTERM to the launcher's process group, as Sidekicks stops agents")
def test_on_sigterm_the_launcher_stops_a_stubborn_agent_and_its_helper_itself(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pidfile = tmp_path / "helper.pid"
    monkeypatch.setenv("AGENTS_SH_HELPER", helper_writing_its_pid(pidfile))
    config = write_config(tmp_path / "c.yaml", launched_agent("stubborn"))
    # A short stdin grace, and a long TERM grace so that the launcher has time to clean up.
    with Sidekicks(config=config, tuning=Tuning(stdin_grace=0.5, term_grace=8)) as sk:
        sk.api.AgentService.Start("a")
        helper = int(wait_for(lambda: pidfile.exists() and pidfile.read_text().strip()))
        sk.api.AgentService.Stop("a")
        assert not running(helper)
        assert "launcher: stopping helper (" in "\n".join(sk.api.AgentService.Logs("a"))


@pytest.mark.posix_only("SIGTERM; the launcher's exit code is 128 + the signal's number")
def test_sigterm_to_the_launcher_alone_ends_agent_and_helper_and_exits_143(
    tmp_path: Path,
) -> None:
    helper_pidfile, agent_pidfile = tmp_path / "helper.pid", tmp_path / "agent.pid"
    launcher = subprocess.Popen(
        [sys.executable, LAUNCHER, "run", sys.executable, "-c", PID_WRITER, str(agent_pidfile)],
        env={**os.environ, "AGENTS_SH_HELPER": helper_writing_its_pid(helper_pidfile)},
        stdin=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        helper = int(wait_for(lambda: helper_pidfile.exists() and helper_pidfile.read_text()))
        agent = int(wait_for(lambda: agent_pidfile.exists() and agent_pidfile.read_text()))
        launcher.send_signal(signal.SIGTERM)  # the launcher only: it must pass it on
        assert launcher.wait(10) == 143
    finally:
        launcher.kill()
        _, stderr = launcher.communicate(timeout=10)
    wait_for(lambda: not running(agent) and not running(helper), what="agent and helper to end")
    assert "launcher: stopping helper (" in stderr


@pytest.mark.windows_only("CTRL_BREAK_EVENT and Job Objects: the launcher's Windows stop")
def test_on_windows_stopping_a_stubborn_launched_agent_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pidfile = tmp_path / "helper.pid"
    monkeypatch.setenv("AGENTS_SH_HELPER", helper_writing_its_pid(pidfile))
    config = write_config(tmp_path / "c.yaml", launched_agent("stubborn"))
    with Sidekicks(config=config, tuning=Tuning(stdin_grace=0.5, term_grace=4)) as sk:
        sk.api.AgentService.Start("a")
        helper = int(wait_for(lambda: pidfile.exists() and pidfile.read_text().strip()))
        runtime = sk._supervisor.runtime("a")
        assert runtime.conn is not None and runtime.conn.process is not None
        launcher = runtime.conn.process.pid
        sk.api.AgentService.Stop("a")
        wait_for(lambda: not running(helper) and not running(launcher), what="all to end")
