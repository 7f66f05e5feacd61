"""One command an agent runs (ACP `terminal/create`): its process, its output, its end.

- Its own process tree (app/core/process_tree.py): on POSIX a new session and group whose
  processes all carry the tree's mark in their environment — on Linux a child that left the
  group with `setsid` is still the tree's; on Windows a console process group and a
  kill-on-close Job Object of its own. So a kill reaches whatever it started, even after the
  command itself ended. stdin is closed (/dev/null: nobody types into it); stdout and stderr go
  into one pipe, read by the loop, in the order the command wrote them.
- It dies with the app: PDEATHSIG on Linux (app/core/lifeline.py, as agents), its job's handle
  on Windows, and it is recorded in the run records so that the next start stops what a killed
  app left (app/core/run_records.py: whatever carries the run's mark).
- Exit: polled (waiting for the process would also wait for the pipe's end, which a background
  child can hold open for ever); the output read within DRAIN_GRACE after it is the command's
  last. What it left running in its tree is ended by `kill` (release, Stop, …).
- Kill (process_tree.end): SIGTERM to the tree, KILL_GRACE (2 s), then SIGKILL to the tree until
  none of it is left: a child that ignores SIGTERM still dies (Windows: CTRL_BREAK_EVENT, then
  the job is terminated). Returns once the command and its tree are gone.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from app.acp.workspace import TerminalExit, TerminalOutput
from app.core import lifeline, process_tree
from app.core.process_tree import ProcessTree, TreeMark
from app.core.run_records import records
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
        mark = TreeMark()
        proc = await asyncio.create_subprocess_exec(
            *argv,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            env=mark.environment(env),
            cwd=str(cwd),
            **kwargs,
        )
        records.add(proc.pid, argv)
        tree = process_tree.adopt(proc.pid, lambda: proc.returncode is not None, mark)
        return cls(proc, limit, on_output, on_exit, tree)

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
        """Ends the command and everything in its tree; how the command ended."""
        await process_tree.end(self._tree, KILL_GRACE, done=lambda: self.exit is not None)
        ended = await self.wait()
        self._reading.cancel()  # a child outside the tree may hold the pipe: stop reading it
        records.remove(self.pid)
        self._tree.close()
        return ended


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"SIG{number}"
