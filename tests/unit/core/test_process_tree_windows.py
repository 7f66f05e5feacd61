"""The Windows process tree, simulated here (tests/fakes/kernel32.py): the agent's own kill-on-close
job, the stop sequence CTRL_BREAK_EVENT → grace → TerminateJobObject, every handle closed and no
process left; and the ctypes structures laid out as on Windows x64."""

from __future__ import annotations

import asyncio
import ctypes
import os
import sys
from pathlib import Path
from typing import Any

import pytest

from app.acp.process import AgentProcess, program_path
from app.acp.stderr import StderrTail
from app.core import lifeline_windows, process_tree, winjob
from app.core.process_tree_windows import (
    CREATE_NEW_PROCESS_GROUP,
    CREATE_NO_WINDOW,
    CTRL_BREAK_EVENT,
    JobTree,
    creation_flags,
)
from tests.fakes.kernel32 import FakeKernel32

AGENT, CHILD, GRANDCHILD = 4100, 4200, 4300


def test_the_job_structures_have_their_windows_x64_sizes_and_offsets() -> None:
    assert ctypes.sizeof(ctypes.c_void_p) == 8, "the layout checked is the 64-bit one"
    basic = winjob.BasicLimits
    assert ctypes.sizeof(basic) == 64
    assert (basic.LimitFlags.offset, basic.MinimumWorkingSetSize.offset) == (16, 24)
    assert (basic.ActiveProcessLimit.offset, basic.Affinity.offset) == (40, 48)
    assert (basic.PriorityClass.offset, basic.SchedulingClass.offset) == (56, 60)
    assert ctypes.sizeof(winjob.IoCounters) == 48
    extended = winjob.ExtendedLimits
    assert ctypes.sizeof(extended) == 144
    assert (extended.IoInfo.offset, extended.ProcessMemoryLimit.offset) == (64, 112)
    assert extended.PeakJobMemoryUsed.offset == 136
    accounting = winjob.BasicAccounting
    assert ctypes.sizeof(accounting) == 48
    assert (accounting.TotalProcesses.offset, accounting.ActiveProcesses.offset) == (36, 40)


def test_the_real_kernel32_is_only_loaded_on_windows() -> None:
    if sys.platform == "win32":
        assert winjob.kernel32() is winjob.kernel32()
    else:
        with pytest.raises(OSError, match="Windows only"):
            winjob.kernel32()


def test_an_agent_gets_a_kill_on_close_job_of_its_own_right_after_it_starts() -> None:
    kernel = FakeKernel32()
    kernel.running.add(AGENT)
    tree = JobTree.adopt(AGENT, lambda: False, kernel, kernel.send_signal)
    assert kernel.calls == [
        ("CreateJobObjectW",),
        ("SetInformationJobObject", 9, 144, 0x2000),
        ("OpenProcess", 0x0100 | 0x0001, False, AGENT),
        ("AssignProcessToJobObject", AGENT),
        ("CloseHandle", f"process {AGENT}"),
    ]
    assert tree.alive()
    assert list(kernel.open_handles.values()) == ["job"]


def test_closing_the_job_handle_ends_the_agent_and_what_it_started() -> None:
    # What Windows does when the app dies: its handles close, the job's processes end.
    kernel = FakeKernel32()
    kernel.running.add(AGENT)
    kernel.children[AGENT] = [CHILD, GRANDCHILD]
    tree = JobTree.adopt(AGENT, lambda: False, kernel, kernel.send_signal)
    assert kernel.running == {AGENT, CHILD, GRANDCHILD}
    tree.close()
    tree.close()  # idempotent
    assert kernel.running == set()
    assert kernel.open_handles == {}


def test_a_job_refused_by_windows_falls_back_to_ending_the_agent_alone() -> None:
    kernel = FakeKernel32()
    kernel.running.add(AGENT)
    kernel.refuse.add("AssignProcessToJobObject")
    exited = False
    tree = JobTree.adopt(AGENT, lambda: exited, kernel, kernel.send_signal)
    assert tree.job is None
    assert kernel.open_handles == {}  # the job that could not be used is closed
    assert tree.alive()
    tree.kill()
    assert kernel.calls[-1] == ("os.kill", AGENT, winjob.KILLED_EXIT_CODE)
    exited = True
    assert not tree.alive()


def test_agents_show_no_console_window_when_the_app_has_none() -> None:
    kernel = FakeKernel32()
    assert creation_flags(kernel) == CREATE_NEW_PROCESS_GROUP | CREATE_NO_WINDOW
    kernel.console_window = 0x1234  # started from a console: the agents share it (CTRL_BREAK)
    assert creation_flags(kernel) == CREATE_NEW_PROCESS_GROUP


def test_on_windows_the_spawn_options_and_the_tree_are_the_job_ones(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    kernel = FakeKernel32()
    kernel.running.add(AGENT)
    mark = process_tree.TreeMark()  # in the environment there too; the job holds the tree
    monkeypatch.setattr(winjob, "_kernel32", kernel)
    monkeypatch.setattr(sys, "platform", "win32")
    options = process_tree.spawn_options()
    tree = process_tree.adopt(AGENT, lambda: False, mark)
    monkeypatch.undo()
    assert options == {"creationflags": CREATE_NEW_PROCESS_GROUP | CREATE_NO_WINDOW}
    assert isinstance(tree, JobTree) and tree.job is not None
    tree.close()


def test_the_apps_job_for_other_programs_is_made_once() -> None:
    kernel = FakeKernel32()
    kernel.running |= {AGENT, CHILD}
    try:
        assert lifeline_windows.assign_to_job(AGENT, kernel)
        assert lifeline_windows.assign_to_job(CHILD, kernel)
        assert [call[0] for call in kernel.calls].count("CreateJobObjectW") == 1
        [job] = kernel.jobs.values()
        assert job.pids == {AGENT, CHILD} and job.limits == 0x2000
    finally:
        lifeline_windows._job = None


# ---- the stop sequence, driven against the simulated kernel -------------------------------------


class FakeStdin:
    def __init__(self, on_close: Any) -> None:
        self.closed, self._on_close = False, on_close

    def is_closing(self) -> bool:
        return self.closed

    def close(self) -> None:
        self.closed = True
        self._on_close()


class FakeProc:
    """What AgentProcess uses of an asyncio process, backed by the simulated kernel."""

    def __init__(self, kernel: FakeKernel32, exits_on_eof: bool) -> None:
        self.pid = AGENT
        self.returncode: int | None = None
        self._kernel = kernel
        kernel.running.add(AGENT)
        kernel.on_exit = self._exited
        self.stdin = FakeStdin(self._eof if exits_on_eof else lambda: None)

    def _eof(self) -> None:
        self._kernel.calls.append(("stdin closed",))
        self._kernel._end({AGENT}, 0)

    def _exited(self, pid: int, code: int) -> None:
        if pid == AGENT:
            self.returncode = code


def stopped(kernel: FakeKernel32, exits_on_eof: bool = False) -> list[tuple[Any, ...]]:
    """Spawns (simulated) an agent, stops it with short graces; the calls after the spawn."""

    async def run() -> None:
        proc = FakeProc(kernel, exits_on_eof)
        tree = JobTree.adopt(AGENT, lambda: proc.returncode is not None, kernel, kernel.send_signal)
        agent = AgentProcess(proc, StderrTail(lambda line: None), tree)  # type: ignore[arg-type]
        kernel.calls.clear()
        await agent.stop(stdin_grace=0.1, term_grace=0.1)

    asyncio.run(run())
    assert kernel.open_handles == {}, "every handle is closed"
    assert kernel.running == set(), "no process is left"
    return kernel.calls


def test_a_stubborn_agent_gets_ctrl_break_then_its_job_is_terminated() -> None:
    kernel = FakeKernel32()
    kernel.children[AGENT] = [CHILD]
    kernel.on_break[AGENT] = "ignore"
    assert stopped(kernel) == [
        ("os.kill", AGENT, CTRL_BREAK_EVENT),
        ("TerminateJobObject", winjob.KILLED_EXIT_CODE),
        ("CloseHandle", "job"),
    ]


def test_an_agent_that_ends_on_ctrl_break_with_its_children_is_not_terminated() -> None:
    kernel = FakeKernel32()
    kernel.children[AGENT] = [CHILD, GRANDCHILD]
    assert stopped(kernel) == [("os.kill", AGENT, CTRL_BREAK_EVENT), ("CloseHandle", "job")]


def test_what_an_agent_leaves_when_it_ends_on_stdin_is_ended_through_its_job() -> None:
    # The agent exits when its stdin closes; its child ignores CTRL_BREAK: the job still counts
    # it, so the same courtesy follows (CTRL_BREAK, grace) and then the job is terminated.
    kernel = FakeKernel32()
    kernel.children[AGENT] = [CHILD]
    kernel.on_break[AGENT] = "ignore"
    assert stopped(kernel, exits_on_eof=True) == [
        ("stdin closed",),
        ("os.kill", AGENT, CTRL_BREAK_EVENT),
        ("TerminateJobObject", winjob.KILLED_EXIT_CODE),
        ("CloseHandle", "job"),
    ]


def test_without_a_shared_console_the_break_fails_quietly_and_the_job_ends_the_agent() -> None:
    kernel = FakeKernel32()
    kernel.children[AGENT] = [CHILD]
    kernel.no_console = True
    assert stopped(kernel) == [
        ("os.kill", AGENT, CTRL_BREAK_EVENT),
        ("TerminateJobObject", winjob.KILLED_EXIT_CODE),
        ("CloseHandle", "job"),
    ]


def test_an_agent_that_ends_on_stdin_alone_gets_no_signal_at_all() -> None:
    kernel = FakeKernel32()
    assert stopped(kernel, exits_on_eof=True) == [("stdin closed",), ("CloseHandle", "job")]


# ---- finding the program ------------------------------------------------------------------------


def test_on_windows_the_program_is_looked_up_on_the_agents_path(tmp_path: Path) -> None:
    # CreateProcess does not try PATHEXT (`npx` is `npx.cmd`): the spawn looks it up as `where`
    # would, on the PATH the agent gets. Here shutil.which follows this system's rules.
    program = tmp_path / "fake-npx"
    program.write_text("")
    program.chmod(0o755)
    env = {"PATH": str(tmp_path)}
    found = program_path(["fake-npx", "-y", "pkg"], env, platform="win32")
    assert found == [str(program), "-y", "pkg"]
    assert program_path(["fake-npx"], env, platform="linux") == ["fake-npx"], "exec searches"
    missing = ["nowhere", "x"]
    assert program_path(missing, env, platform="win32") == missing, "left for the spawn to report"


@pytest.mark.windows_only("PATHEXT: a .cmd program named without its extension")
def test_on_windows_an_agent_named_without_cmd_starts(tmp_path: Path) -> None:
    (tmp_path / "fake-agent.cmd").write_text("@exit /b 7\r\n")

    async def run() -> int | None:
        env = {"PATH": f"{tmp_path};{os.environ['PATH']}"}
        agent = await AgentProcess.spawn(["fake-agent"], env, tmp_path, lambda line: None)
        await agent.wait_exit(20)
        await agent.stop(0.1, 0.1)
        return agent.returncode

    assert asyncio.run(run()) == 7
