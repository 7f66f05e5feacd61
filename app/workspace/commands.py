"""One command an agent runs (ACP `terminal/create`): its process, its output, its end.

- Its own process group (a new session on POSIX; on Windows a console process group and a
  kill-on-close Job Object of its own, app/core/process_tree.py), so a kill reaches whatever it
  started, even after the command itself ended. stdin is closed (/dev/null: nobody types into
  it); stdout and stderr go into one pipe, read by the loop, in the order the command wrote them.
- It dies with the app: PDEATHSIG on Linux (app/core/lifeline.py, as agents), its job's handle
  on Windows, and its group is recorded in the run records so that the next start stops what
  a killed app left (app/core/run_records.py; the run mark is in its environment).
- Exit: polled (waiting for the process would also wait for the pipe's end, which a background
  child can hold open for ever); the output read within DRAIN_GRACE after it is the command's
  last. What it left running in its group is ended by `kill` (release, Stop, …).
- Kill: SIGTERM to the group, KILL_GRACE (2 s), then SIGKILL to the group: a child that ignores
  SIGTERM still dies (Windows: CTRL_BREAK_EVENT, then the job is terminated). Returns once the
  command and its group are gone.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from app.acp.workspace import TerminalExit, TerminalOutput
from app.core import lifeline, process_tree
from app.core.process_tree import ProcessTree
from app.core.run_records import RUN_MARK, records, run_mark
from app.workspace.output_tail import OutputTail

READ_BYTES = 256 * 1024
POLL_SECONDS = 0.05
DRAIN_GRACE = 0.5
KILL_GRACE = 2.0


class Command:
    def __init__(
        self,
        proc: asyncio.subprocess.Process,
        limit: int | None,
        on_output: Callable[[bytes], None],
        on_exit: Callable[[TerminalExit], None],
        tree: ProcessTree,
    ) -> None:
        self.pid = proc.pid
        self._proc = proc
        self._tree = tree
        self.tail = OutputTail(limit)
        self.exit: TerminalExit | None = None
        self._on_output, self._on_exit = on_output, on_exit
        loop = asyncio.get_running_loop()
        self._ended: asyncio.Future[TerminalExit] = loop.create_future()
        self._reading = loop.create_task(self._read())
        self._watching = loop.create_task(self._watch())

    @classmethod
    async def start(
        cls,
        argv: list[str],
        env: dict[str, str],
        cwd: Path,
        limit: int | None,
        on_output: Callable[[bytes], None],
        on_exit: Callable[[TerminalExit], None],
    ) -> Command:
        """Raises OSError when the program cannot be started (not found, not executable)."""
        kwargs: dict[str, Any] = dict(process_tree.spawn_options())
        if sys.platform != "win32":
            kwargs["preexec_fn"] = lifeline.preexec()
        proc = await asyncio.create_subprocess_exec(
            *argv,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            env={**env, RUN_MARK: run_mark()},
            cwd=str(cwd),
            **kwargs,
        )
        records.add(proc.pid, argv)
        return cls(proc, limit, on_output, on_exit, _tree_of(proc))

    # ---- output and exit ---------------------------------------------------------------------

    async def _read(self) -> None:
        stream = self._proc.stdout
        assert stream is not None
        while chunk := await stream.read(READ_BYTES):
            self.tail.feed(chunk)
            self._on_output(chunk)

    async def _watch(self) -> None:
        while self._proc.returncode is None:
            await asyncio.sleep(POLL_SECONDS)
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(asyncio.shield(self._reading), DRAIN_GRACE)
        code = self._proc.returncode
        ended = (
            TerminalExit(signal=_signal_name(-code)) if code < 0 else TerminalExit(exit_code=code)
        )
        self.exit = ended
        if not self._tree.alive():
            records.remove(self.pid)
            self._tree.close()  # nothing left in it (a Windows job handle is let go now)
        self._ended.set_result(ended)
        self._on_exit(ended)

    def output(self) -> TerminalOutput:
        return TerminalOutput(
            output=self.tail.text(final=self.exit is not None),
            truncated=self.tail.truncated,
            exit=self.exit,
        )

    async def wait(self) -> TerminalExit:
        return await asyncio.shield(self._ended)

    # ---- end ---------------------------------------------------------------------------------

    async def kill(self) -> TerminalExit:
        """Ends the command and everything in its group; how the command ended."""
        if self.exit is None or self._tree.alive():
            self._tree.signal_soft()
            await self._group_gone(KILL_GRACE)
            if self.exit is None or self._tree.alive():
                self._tree.kill()
                await self._group_gone(None)
        ended = await self.wait()
        self._reading.cancel()  # a child outside the group may hold the pipe: stop reading it
        records.remove(self.pid)
        self._tree.close()
        return ended

    async def _group_gone(self, timeout: float | None) -> None:
        loop = asyncio.get_running_loop()
        deadline = None if timeout is None else loop.time() + timeout
        while self.exit is None or self._tree.alive():
            if deadline is not None and loop.time() >= deadline:
                return
            await asyncio.sleep(POLL_SECONDS)


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"SIG{number}"


if sys.platform == "win32":

    def _tree_of(proc: asyncio.subprocess.Process) -> ProcessTree:
        """The agents' JobTree: counts and ends what the command left, even once it ended."""
        return process_tree.adopt(proc.pid, lambda: proc.returncode is not None)

else:
    from app.core.process_group import group_alive
    from app.core.process_tree_posix import ProcessGroup

    def _tree_of(proc: asyncio.subprocess.Process) -> ProcessTree:
        return _Group(proc.pid)

    class _Group(ProcessGroup):
        """The agents' process group, its members counted without zombies: a command's
        background child that ended but was not reaped yet must not keep it `alive`."""

        def alive(self) -> bool:
            if not group_alive(self.pid):
                return False
            if not sys.platform.startswith("linux"):
                return True
            return any(_live_member(entry, self.pid) for entry in os.scandir("/proc"))

    def _live_member(entry: os.DirEntry[str], pgid: int) -> bool:
        if not entry.name.isdigit():
            return False
        try:
            with open(f"/proc/{entry.name}/stat", "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()
        except (OSError, IndexError):
            return False
        return fields[0] != b"Z" and int(fields[2]) == pgid
