"""Spawning and stopping agent processes (not the SDK's spawn_agent_process: see DESIGN §4 ACP).

- The full user environment plus the agent's `env` (the SDK's spawn trims it: keys, LANG lost).
- Its own process tree (process_tree.py): a process group whose processes all carry the tree's
  mark on POSIX (on Linux a child that left the group with `setsid` is still the agent's), a
  process group and a Job Object of its own on Windows, so that stopping it also stops whatever
  it launched, and whatever those launched.
- stdout and stderr read in chunks, never `readline` (app/acp/lines.py splits stdout's lines
  and drops one past 64 MiB as it streams; StderrTail drains stderr continuously).
- Exit is detected by polling, not `process.wait()`, which on 3.11+ also waits for the pipes to
  close — a grandchild holding stdout open would hang it.
- Stop: close stdin → 5 s → the tree's soft signal (SIGTERM to the tree; CTRL_BREAK_EVENT to
  the group on Windows) → 3 s → the tree killed (SIGKILL to the tree; TerminateJobObject); and
  the tree is also ended when the agent itself exits first (process_tree.end: soft, 3 s, kill
  until none is left), so no grandchild outlives its agent.
- Nor the app, when it is killed: the agent gets SIGKILL from the OS when the app dies
  (lifeline.py; on Windows the job's handle closes and the job ends), and it is recorded until
  it stops, for the next start to end what carries the run's mark (run_records.py, Linux).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import sys
from collections import deque
from collections.abc import Callable
from pathlib import Path

from app.acp.stderr import StderrTail
from app.core import lifeline, process_tree
from app.core.folders import folder_missing_text
from app.core.process_tree import ProcessTree, TreeMark
from app.core.run_records import records
from app.i18n import N_
from app.i18n.text import Text, lazy
from app.paths import child_environment

# The pipes' readers pause reading past twice this much unread data. Lines are split by our
# readers, not by asyncio (no `readline`), so this bounds what waits in memory, not line length.
PIPE_LIMIT = 1024 * 1024
POLL_SECONDS = 0.05


class SpawnError(Exception):
    """The process could not be launched at all (its message is for a person; a Text is said
    in the language current when it is read)."""

    def __init__(self, reason: str | Text) -> None:
        super().__init__(reason)
        self.reason = reason

    def __str__(self) -> str:
        return str(self.reason)


def program_path(
    command: list[str], env: dict[str, str], platform: str = sys.platform
) -> list[str]:
    """The command with its program found on the agent's PATH the way a Windows shell finds it
    (PATHEXT: `npx` is `npx.cmd`), which CreateProcess does not do. POSIX's exec searches PATH
    itself: the command is left as it is there, and whatever cannot be found is left for the
    spawn to report."""
    if platform != "win32":
        return command
    found = shutil.which(command[0], path=env.get("PATH", os.defpath))
    return [found, *command[1:]] if found else command


class AgentProcess:
    def __init__(
        self, proc: asyncio.subprocess.Process, stderr: StderrTail, tree: ProcessTree
    ) -> None:
        self.proc = proc
        self.stderr = stderr
        self.pid = proc.pid
        self.tree = tree
        self._drain_task: asyncio.Task[None] | None = None

    @classmethod
    async def spawn(
        cls,
        command: list[str],
        env: dict[str, str],
        cwd: Path,
        on_stderr_line: Callable[[str], None],
        log_ring: deque[str] | None = None,
    ) -> AgentProcess:
        if not cwd.is_dir():
            raise SpawnError(folder_missing_text(str(cwd)))
        mark = TreeMark()
        full_env = mark.environment({**child_environment(), **env})
        program = f"`{command[0]}`"
        kwargs = process_tree.spawn_options()
        if sys.platform != "win32":
            kwargs["preexec_fn"] = lifeline.preexec()
        try:
            proc = await asyncio.create_subprocess_exec(
                *program_path(command, full_env),
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
                env=full_env,
                cwd=str(cwd),
                limit=PIPE_LIMIT,
                **kwargs,  # type: ignore[arg-type]
            )
        except FileNotFoundError:
            raise SpawnError(
                lazy(N_("{program} was not found: check the agent's `command`"), program=program)
            ) from None
        except PermissionError:
            raise SpawnError(
                lazy(N_("{program} cannot be run (permission denied)"), program=program)
            ) from None
        except OSError as err:
            raise SpawnError(
                lazy(
                    N_("{program} could not be started: {error}"),
                    program=program,
                    error=err.strerror or err,
                )
            ) from None
        tree = process_tree.adopt(proc.pid, lambda: proc.returncode is not None, mark)
        records.add(proc.pid, command)
        agent = cls(proc, StderrTail(on_stderr_line, log_ring), tree)
        assert proc.stderr is not None
        agent._drain_task = asyncio.get_running_loop().create_task(agent.stderr.drain(proc.stderr))
        return agent

    @property
    def returncode(self) -> int | None:
        return self.proc.returncode

    def exited(self) -> bool:
        return self.proc.returncode is not None

    async def wait_exit(self, timeout: float | None = None) -> bool:
        """Polls until the process has exited; False if `timeout` passed first."""
        loop = asyncio.get_running_loop()
        deadline = None if timeout is None else loop.time() + timeout
        while not self.exited():
            if deadline is not None and loop.time() >= deadline:
                return False
            await asyncio.sleep(POLL_SECONDS)
        return True

    async def stderr_done(self, timeout: float = 1.0) -> None:
        """Gives the stderr drain a moment to read what the process wrote last."""
        if self._drain_task is not None:
            with contextlib.suppress(asyncio.TimeoutError, asyncio.CancelledError):
                await asyncio.wait_for(asyncio.shield(self._drain_task), timeout)

    async def stop(self, stdin_grace: float = 5.0, term_grace: float = 3.0) -> None:
        """The SPEC's stop sequence, ending with no process of its tree alive."""
        if self.proc.stdin is not None and not self.proc.stdin.is_closing():
            with contextlib.suppress(Exception):
                self.proc.stdin.close()
        if not await self.wait_exit(stdin_grace):
            self.tree.signal_soft()
            if not await self.wait_exit(term_grace):
                self.tree.kill()
                await self.wait_exit(5.0)
        await self._end_leftovers(term_grace)
        self.tree.close()
        records.remove(self.pid)
        if self._drain_task is not None:
            self._drain_task.cancel()
        # Close the pipes now, on this loop: left to the garbage collector, the transport would
        # close them later, possibly after the loop itself is closed.
        transport = getattr(self.proc, "_transport", None)
        if transport is not None:
            transport.close()

    async def _end_leftovers(self, term_grace: float) -> None:
        """The agent is gone; its children may not be. Same courtesy: soft, wait, kill (until
        none is left)."""
        await process_tree.end(self.tree, term_grace)
