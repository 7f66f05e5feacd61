"""An agent's commands as real processes: output and exit, environment and folder, errors the
agent reads, and kill / release / close ending the whole process tree — a grandchild that
ignores SIGTERM included, and children that left the group with setsid."""

from __future__ import annotations

import asyncio
import os
import shlex
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from app.acp.workspace import TerminalRequest, WorkspaceError
from app.models.conversation import TerminalView
from app.workspace import commands
from app.workspace import terminals as terminals_module
from app.workspace.terminals import Terminals, command_line
from tests.running import running
from tests.setsid_children import DAEMONIZES, SETSID, escaped_pids

# Ending a command's whole tree: a POSIX process group gets SIGTERM, then SIGKILL; on Windows
# its group CTRL_BREAK_EVENT, then its Job Object is terminated (an exit code, no signal).
GROUPS = "SIGTERM to the command's process group, seen as its exit signal (Windows: its job)"

# Starts a grandchild that ignores SIGTERM, says both pids, then waits (ignoring nothing).
STUBBORN = """
import subprocess, sys, time
child = subprocess.Popen([sys.executable, "-c", "import signal, time; "
    "signal.signal(signal.SIGTERM, signal.SIG_IGN); print('armed', flush=True); time.sleep(60)"])
print(f"pids {child.pid}", flush=True)
time.sleep(60)
"""


class RecordingFeed:
    """What the page would be told."""

    def __init__(self) -> None:
        self.started_views: list[TerminalView] = []
        self.data: list[str] = []
        self.exited_views: list[TerminalView] = []

    async def starting(self, terminal_id: str) -> None:
        pass

    def started(self, terminal_id: str, view: TerminalView) -> None:
        self.started_views.append(view)

    def output(self, terminal_id: str, data: str) -> None:
        self.data.append(data)

    def exited(self, terminal_id: str, view: TerminalView) -> None:
        self.exited_views.append(view)


def run(
    scenario: Callable[[Terminals, RecordingFeed], Awaitable[None]], cwd: Path
) -> RecordingFeed:
    feed = RecordingFeed()

    async def main() -> None:
        # The commands are Python: UTF-8 output on every system (Windows pipes: the ANSI code page).
        env = dict(os.environ, AGENT_VAR="agent", PYTHONIOENCODING="utf-8")
        terminals = Terminals(cwd, env, feed)
        try:
            async with asyncio.timeout(20):
                await scenario(terminals, feed)
        finally:
            await terminals.close()

    asyncio.run(main())
    return feed


def python(script: str, **fields: object) -> TerminalRequest:
    return TerminalRequest(command=sys.executable, args=("-c", script), **fields)  # type: ignore[arg-type]


async def until(condition: Callable[[], object], timeout: float = 10.0) -> None:
    async with asyncio.timeout(timeout):
        while not condition():
            await asyncio.sleep(0.01)


def test_a_command_s_output_and_errors_are_one_text_and_its_exit_code_is_returned(
    tmp_path: Path,
) -> None:
    async def scenario(terminals: Terminals, feed: RecordingFeed) -> None:
        script = "import sys; print('out', flush=True); print('err', file=sys.stderr); sys.exit(3)"
        tid = await terminals.create(python(script))
        ended = await terminals.wait(tid)
        assert (ended.exit_code, ended.signal) == (3, None)
        result = await terminals.output(tid)
        assert result.output.split() == ["out", "err"]
        assert not result.truncated
        assert result.exit == ended

    feed = run(scenario, tmp_path)
    # (shown quoted as a shell would read it: a Windows path holds backslashes)
    assert feed.started_views[0].command.startswith(shlex.join([sys.executable, "-c"]) + " ")
    assert feed.started_views[0].running
    assert feed.exited_views[0].exit_code == 3
    assert "".join(feed.data).split() == ["out", "err"]


def test_a_command_gets_the_agent_s_environment_the_request_s_variables_and_its_folder(
    tmp_path: Path,
) -> None:
    other = tmp_path / "other"
    other.mkdir()
    show = "import os; print(os.environ['AGENT_VAR'], os.environ.get('EXTRA'), os.getcwd())"

    async def scenario(terminals: Terminals, feed: RecordingFeed) -> None:
        first = await terminals.create(python(show))
        await terminals.wait(first)
        assert (await terminals.output(first)).output.split() == ["agent", "None", str(tmp_path)]
        second = await terminals.create(python(show, env=(("EXTRA", "x"),), cwd=str(other)))
        await terminals.wait(second)
        assert (await terminals.output(second)).output.split() == ["agent", "x", str(other)]

    run(scenario, tmp_path)


def test_a_command_reading_its_input_finds_it_closed(tmp_path: Path) -> None:
    async def scenario(terminals: Terminals, feed: RecordingFeed) -> None:
        tid = await terminals.create(python("import sys; print(repr(sys.stdin.read()))"))
        assert (await terminals.wait(tid)).exit_code == 0
        assert (await terminals.output(tid)).output.strip() == "''"

    run(scenario, tmp_path)


def test_bad_requests_are_errors_the_agent_reads(tmp_path: Path) -> None:
    async def scenario(terminals: Terminals, feed: RecordingFeed) -> None:
        cases = [
            (TerminalRequest(command="true", cwd="relative/dir"), "invalid", "absolute"),
            (TerminalRequest(command="true", cwd=str(tmp_path / "gone")), "not_found", "gone"),
            (TerminalRequest(command="no-such-program-xyz"), "not_found", "no-such-program"),
        ]
        for request, kind, words in cases:
            with pytest.raises(WorkspaceError) as caught:
                await terminals.create(request)
            assert caught.value.kind == kind
            assert words in str(caught.value)
        for call in (terminals.output, terminals.wait, terminals.kill, terminals.release):
            with pytest.raises(WorkspaceError) as unknown:
                await call("term-unknown")
            assert unknown.value.kind == "not_found"

    run(scenario, tmp_path)


def test_the_output_limit_keeps_the_tail(tmp_path: Path) -> None:
    async def scenario(terminals: Terminals, feed: RecordingFeed) -> None:
        script = "print('é' * 1000 + 'END', end='')"
        tid = await terminals.create(python(script, output_byte_limit=11))
        await terminals.wait(tid)
        result = await terminals.output(tid)
        assert result.output == "ééééEND"
        assert result.truncated

    run(scenario, tmp_path)


def quicker_kill(monkeypatch: pytest.MonkeyPatch) -> None:
    """SIGKILL 0.3 s after SIGTERM instead of the app's 2 s (KILL_GRACE): what ignores SIGTERM
    is killed either way. The `kill` case of the stubborn grandchild keeps the app's 2 s."""
    monkeypatch.setattr(commands, "KILL_GRACE", 0.3)


def stubborn_pids(feed: RecordingFeed) -> list[int]:
    text = "".join(feed.data)
    if "armed" not in text or "pids" not in text:
        return []
    return [int(text.split("pids ")[1].split()[0])]


@pytest.mark.posix_only(GROUPS)
@pytest.mark.parametrize("how", ["kill", "release", "close"])
def test_a_grandchild_that_ignores_sigterm_is_gone_after_each_way_of_ending(
    tmp_path: Path, how: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    if how != "kill":
        quicker_kill(monkeypatch)
    seen: dict[str, object] = {}

    async def scenario(terminals: Terminals, feed: RecordingFeed) -> None:
        tid = await terminals.create(python(STUBBORN))
        await until(lambda: stubborn_pids(feed))
        command = terminals._terminals[tid].command
        seen["pids"] = [command.pid, *stubborn_pids(feed)]
        if how == "kill":
            await terminals.kill(tid)
            seen["exit"] = (await terminals.output(tid)).exit
        elif how == "release":
            await terminals.release(tid)
            with pytest.raises(WorkspaceError):
                await terminals.output(tid)
        else:
            await terminals.close()
            with pytest.raises(WorkspaceError):
                await terminals.create(TerminalRequest(command="true"))
        # (a killed process may stay a zombie a moment: its new parent reaps it)
        await until(lambda: not any(running(pid) for pid in seen["pids"]))  # type: ignore[attr-defined]

    feed = run(scenario, tmp_path)
    assert feed.exited_views and feed.exited_views[0].signal == "SIGTERM"
    if how == "kill":
        assert seen["exit"] is not None


@pytest.mark.linux_only("the tree's mark is read in /proc (macOS: the group alone)")
@pytest.mark.parametrize("how", ["kill", "release", "close", "exited"])
def test_children_that_left_the_group_with_setsid_are_gone_after_each_way_of_ending(
    tmp_path: Path, how: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    quicker_kill(monkeypatch)
    seen: dict[str, list[int]] = {}

    async def scenario(terminals: Terminals, feed: RecordingFeed) -> None:
        script = SETSID if how != "exited" else DAEMONIZES
        tid = await terminals.create(python(script))
        await until(lambda: escaped_pids("".join(feed.data)))
        pids = seen["pids"] = escaped_pids("".join(feed.data))
        assert pids[0] == terminals._terminals[tid].command.pid
        if how == "kill":
            await terminals.kill(tid)
        elif how == "release":
            await terminals.release(tid)
        elif how == "close":
            await terminals.close()
        else:  # the command ended by itself, its children still there: a kill still ends them
            await terminals.wait(tid)
            assert running(pids[1]) and running(pids[2])
            await terminals.kill(tid)
        await until(lambda: not any(running(pid) for pid in pids))

    run(scenario, tmp_path)
    assert len(seen["pids"]) == 3


def test_a_command_that_leaves_a_background_child_ends_and_release_ends_the_child(
    tmp_path: Path,
) -> None:
    script = (
        "import subprocess, sys; p = subprocess.Popen([sys.executable, '-c', "
        "'import time; time.sleep(60)']); print(p.pid, flush=True)"
    )

    async def scenario(terminals: Terminals, feed: RecordingFeed) -> None:
        tid = await terminals.create(python(script))
        assert (await terminals.wait(tid)).exit_code == 0  # the pipe is still open: not waited
        child = int((await terminals.output(tid)).output.strip())
        assert running(child)
        await terminals.release(tid)
        await until(lambda: not running(child))  # reaped by its new parent

    run(scenario, tmp_path)


def test_past_the_terminal_cap_the_oldest_ended_is_forgotten_and_running_ones_refuse(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(terminals_module, "MAX_TERMINALS", 2)

    async def scenario(terminals: Terminals, feed: RecordingFeed) -> None:
        ended = await terminals.create(python("pass"))
        await terminals.wait(ended)
        sleeping = await terminals.create(python("import time; time.sleep(60)"))
        third = await terminals.create(python("import time; time.sleep(60)"))  # ended goes
        assert terminals.ids() == [sleeping, third]
        with pytest.raises(WorkspaceError) as caught:
            await terminals.create(python("pass"))
        assert caught.value.kind == "refused" and "at most 2" in str(caught.value)

    run(scenario, tmp_path)


@pytest.mark.linux_only("the tree's mark is read in /proc (macOS: the group alone)")
def test_a_command_forgotten_past_the_cap_takes_what_it_left_running_with_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(terminals_module, "MAX_TERMINALS", 1)
    quicker_kill(monkeypatch)

    async def scenario(terminals: Terminals, feed: RecordingFeed) -> None:
        first = await terminals.create(python(DAEMONIZES))  # it ends, its children stay
        await until(lambda: escaped_pids("".join(feed.data)))
        pids = escaped_pids("".join(feed.data))
        await terminals.wait(first)
        assert running(pids[1]) and running(pids[2])
        second = await terminals.create(python("pass"))  # the first is forgotten
        assert terminals.ids() == [second]
        await until(lambda: not any(running(pid) for pid in pids))

    run(scenario, tmp_path)


@pytest.mark.posix_only("the command line is /bin/sh's syntax (Windows runs it in cmd.exe)")
def test_a_whole_command_line_without_args_runs_in_the_shell_and_args_are_never_reinterpreted(
    tmp_path: Path,
) -> None:
    program = tmp_path / "my tool"  # a program whose path holds a space runs as itself
    program.write_text("#!/bin/sh\necho tool ran\n", encoding="utf-8")
    program.chmod(0o755)

    async def scenario(terminals: Terminals, feed: RecordingFeed) -> None:
        line = await terminals.create(TerminalRequest(command="echo one && echo two | tr o 0"))
        await terminals.wait(line)
        assert (await terminals.output(line)).output == "one\ntw0\n"
        assert feed.started_views[0].command == "echo one && echo two | tr o 0"
        literal = await terminals.create(TerminalRequest(command="echo", args=("$HOME", "&&")))
        await terminals.wait(literal)
        assert (await terminals.output(literal)).output == "$HOME &&\n"
        assert feed.started_views[1].command == "echo '$HOME' '&&'"
        spaced = await terminals.create(TerminalRequest(command=str(program)))
        await terminals.wait(spaced)
        assert (await terminals.output(spaced)).output == "tool ran\n"

    run(scenario, tmp_path)


def test_a_command_line_goes_to_cmd_exe_on_windows_and_a_program_with_args_runs_as_is(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(sys, "platform", "win32")
    env = {"COMSPEC": r"C:\Windows\system32\cmd.exe"}
    assert command_line("npm test && dir", (), env) == [
        r"C:\Windows\system32\cmd.exe",
        "/d",
        "/s",
        "/c",
        "npm test && dir",
    ]
    assert command_line("npm test", (), {})[:4] == ["cmd.exe", "/d", "/s", "/c"]
    assert command_line("npm", ("test", "&&"), env) == ["npm", "test", "&&"]


@pytest.mark.windows_only("cmd.exe runs the command line")
def test_a_whole_command_line_runs_in_cmd_exe(tmp_path: Path) -> None:
    async def scenario(terminals: Terminals, feed: RecordingFeed) -> None:
        line = await terminals.create(TerminalRequest(command="echo one && echo two"))
        assert (await terminals.wait(line)).exit_code == 0
        assert (await terminals.output(line)).output.split() == ["one", "two"]

    run(scenario, tmp_path)
