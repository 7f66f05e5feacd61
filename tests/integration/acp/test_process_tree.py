"""Real agent processes stopped with their whole tree, on every system (a process group on
POSIX, a Job Object on Windows): nothing the agent started outlives the stop — on Linux not even
children that left its group and session with `setsid` (they carry the tree's mark). The
Windows-only tests run on the Windows CI runner: the job counts the tree, and a killed app takes
its agents with it (the job's handle closes)."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

import pytest

from app.acp.process import AgentProcess
from tests.integration.app_process import ROOT
from tests.running import running
from tests.setsid_children import escaped
from tests.waiting import wait_for

TREE_AGENT = str(Path(__file__).resolve().parents[2] / "fakes" / "tree_agent.py")


def read_pids(pidfile: Path) -> tuple[int, int]:
    agent, grandchild = read_all_pids(pidfile)
    return agent, grandchild


def read_all_pids(pidfile: Path) -> list[int]:
    text = wait_for(lambda: pidfile.exists() and pidfile.read_text(), timeout=20, what="pids")
    assert isinstance(text, str)
    return [int(pid) for pid in text.split()]


async def spawn(pidfile: Path, *flags: str) -> AgentProcess:
    command = [sys.executable, TREE_AGENT, str(pidfile), *flags]
    return await AgentProcess.spawn(command, {}, pidfile.parent, lambda line: None)


def ended(*pids: int) -> None:
    """The kill is sent by the time stop() returns; the kernel takes a moment to carry it out."""
    wait_for(lambda: not any(running(pid) for pid in pids), timeout=5, what="the tree to end")


def test_stopping_a_stubborn_agent_ends_it_and_its_grandchild(tmp_path: Path) -> None:
    pidfile = tmp_path / "pids"

    async def scenario() -> tuple[int, int]:
        agent = await spawn(pidfile, "stubborn")
        pids = await asyncio.to_thread(read_pids, pidfile)
        assert agent.tree.alive()
        await agent.stop(stdin_grace=0.2, term_grace=0.5)
        return pids

    agent, grandchild = asyncio.run(scenario())
    ended(agent, grandchild)


def test_what_an_agent_leaves_behind_when_it_ends_on_stdin_is_ended_by_the_stop(
    tmp_path: Path,
) -> None:
    pidfile = tmp_path / "pids"

    async def scenario() -> tuple[int, int]:
        agent = await spawn(pidfile)
        pid, grandchild = await asyncio.to_thread(read_pids, pidfile)
        await agent.stop(stdin_grace=10, term_grace=0.5)
        assert agent.returncode == 0, "it ended by itself, on stdin's end"
        return pid, grandchild

    agent, grandchild = asyncio.run(scenario())
    ended(agent, grandchild)


@pytest.mark.linux_only("the tree's mark is read in /proc (macOS: the group alone)")
@pytest.mark.parametrize("stubborn", [True, False], ids=["stubborn", "ends-on-stdin"])
def test_stopping_an_agent_ends_the_children_that_left_its_group_with_setsid(
    tmp_path: Path, stubborn: bool
) -> None:
    pidfile = tmp_path / "pids"

    async def scenario() -> list[int]:
        agent = await spawn(pidfile, *(["stubborn"] if stubborn else []), "setsid")
        pids = await asyncio.to_thread(read_all_pids, pidfile)
        await asyncio.to_thread(wait_for, lambda: escaped(pids[1:]), 10, "the children to leave")
        await agent.stop(stdin_grace=0.2 if stubborn else 10, term_grace=0.5)
        return pids

    pids = asyncio.run(scenario())
    assert len(pids) == 3
    ended(*pids)


@pytest.mark.windows_only("Job Objects: the agent's job counts its processes")
def test_the_agents_job_counts_the_agent_and_its_grandchild(tmp_path: Path) -> None:
    from app.core.process_tree_windows import JobTree

    pidfile = tmp_path / "pids"

    async def scenario() -> int:
        agent = await spawn(pidfile)
        _, grandchild = await asyncio.to_thread(read_pids, pidfile)
        assert isinstance(agent.tree, JobTree) and agent.tree.job is not None
        job = agent.tree.job
        # At least 2: a venv's python.exe is a launcher that runs the real interpreter as its
        # child (4 processes then), all in the job.
        assert (job.active_processes() or 0) >= 2
        agent.proc.stdin.close()  # type: ignore[union-attr]
        assert await agent.wait_exit(10)
        assert (job.active_processes() or 0) >= 1, "the grandchild is still in the job"
        assert running(grandchild) and agent.tree.alive()
        await agent.stop(stdin_grace=0.2, term_grace=0.5)
        assert job.handle == 0, "the job's handle is closed once stopped"
        return grandchild

    ended(asyncio.run(scenario()))


# An app-like parent: spawns the agent as Sidekicks does, then waits to be killed.
PARENT = """
import asyncio, sys
from pathlib import Path
from app.acp.process import AgentProcess

async def main():
    command = [sys.executable, sys.argv[1], sys.argv[2], "stubborn"]
    await AgentProcess.spawn(command, {}, Path(sys.argv[2]).parent, lambda line: None)
    print("spawned", flush=True)
    await asyncio.sleep(600)

asyncio.run(main())
"""


@pytest.mark.windows_only("kill-on-close Job Objects end a killed app's agents at once")
def test_a_killed_app_takes_its_stubborn_agent_and_grandchild_with_it(tmp_path: Path) -> None:
    pidfile = tmp_path / "pids"
    parent = subprocess.Popen(
        [sys.executable, "-c", PARENT, TREE_AGENT, str(pidfile)], cwd=ROOT, stdin=subprocess.DEVNULL
    )
    try:
        agent, grandchild = read_pids(pidfile)
        assert running(agent) and running(grandchild)
    finally:
        # TerminateProcess: no cleanup of any kind runs in the parent. (In a venv, python.exe
        # is a launcher whose own kill-on-close job ends the real interpreter with it.)
        parent.kill()
        parent.wait(10)
    wait_for(lambda: not running(agent), timeout=10, what="the agent to end with the app")
    wait_for(lambda: not running(grandchild), timeout=10, what="the grandchild to end too")
