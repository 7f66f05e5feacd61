"""The commands one agent runs in one channel (ACP `terminal/*`), by terminal id.

`create` starts a command (commands.py) with the agent's environment plus the request's `env`,
in the request's `cwd` (absolute) or the agent's; `output`, `wait`, `kill` and `release` act on
it by id. `release` kills a command still running, and whatever it left running in its process
tree (children that left its group with `setsid` included: app/core/process_tree.py), and
forgets its id: later calls on it are `not_found`, as for an id never given. `close` kills them
all (Stop, the channel deleted, the app closing, the agent's process ended); a command forgotten
past the cap is killed the same way.

What the page sees goes through a `TerminalFeed` (the channels' terminal hub): a command's start,
its live output (live_output.py: coalesced and bounded) and its end with the final view.
"""

from __future__ import annotations

import asyncio
import os
import shlex
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from app.acp.workspace import TerminalExit, TerminalOutput, TerminalRequest, WorkspaceError
from app.core.ids import new_id
from app.i18n import _
from app.models.conversation import TerminalView
from app.workspace.commands import Command
from app.workspace.live_output import LiveOutput

VIEW_BYTES = 64 * 1024  # the output a tool call keeps in history: the tail
MAX_TERMINALS = 64  # terminals one agent holds in a channel (past it, the oldest ended goes)


class TerminalFeed(Protocol):
    async def starting(self, terminal_id: str) -> None:
        """The command is about to start (its folder's checkpoint is taken before it)."""

    def started(self, terminal_id: str, view: TerminalView) -> None: ...

    def output(self, terminal_id: str, data: str) -> None: ...

    def exited(self, terminal_id: str, view: TerminalView) -> None:
        """The command ended: `view` has its final output (tail) and exit code or signal."""


class _NoFeed:
    async def starting(self, terminal_id: str) -> None:
        pass

    def started(self, terminal_id: str, view: TerminalView) -> None:
        pass

    def output(self, terminal_id: str, data: str) -> None:
        pass

    def exited(self, terminal_id: str, view: TerminalView) -> None:
        pass


@dataclass
class _Running:
    command: Command
    title: str
    live: LiveOutput


class Terminals:
    def __init__(
        self,
        cwd: Path,
        env: Mapping[str, str] | Callable[[], Mapping[str, str]],
        feed: TerminalFeed | None = None,
    ) -> None:
        """`env`: the agent's whole environment (or how to get it when a command starts)."""
        self.cwd = cwd  # where a command without its own `cwd` runs
        self._env = env
        self.feed: TerminalFeed = feed or _NoFeed()
        self._terminals: dict[str, _Running] = {}
        self._closed = False

    async def create(self, request: TerminalRequest) -> str:
        if self._closed:
            raise WorkspaceError("refused", _("this session's commands were stopped"))
        if len(self._terminals) >= MAX_TERMINALS and not await self._forget_oldest_ended():
            raise WorkspaceError(
                "refused",
                _("at most {count} commands can run at once: kill or release one first").format(
                    count=MAX_TERMINALS
                ),
            )
        cwd = self._folder(request.cwd)
        if request.output_byte_limit is not None and request.output_byte_limit < 0:
            raise WorkspaceError("invalid", _("outputByteLimit cannot be negative"))
        base = self._env() if callable(self._env) else self._env
        env = {**base, **dict(request.env)}
        argv = command_line(request.command, request.args, env)
        terminal_id = "term-" + new_id()
        live = LiveOutput(lambda data: self.feed.output(terminal_id, data))
        await self.feed.starting(terminal_id)
        try:
            command = await Command.start(
                argv,
                env,
                cwd,
                request.output_byte_limit,
                live.feed,
                lambda ended: self._exited(terminal_id),
            )
        except FileNotFoundError:
            raise WorkspaceError(
                "not_found", _("{program} was not found").format(program=f"`{request.command}`")
            ) from None
        except OSError as err:
            raise WorkspaceError(
                "failed",
                _("{program} could not be started: {error}").format(
                    program=f"`{request.command}`", error=err.strerror or err
                ),
            ) from None
        title = request.command if not request.args else shlex.join(argv)
        running = _Running(command, title, live)
        self._terminals[terminal_id] = running
        self.feed.started(terminal_id, self._view(terminal_id, running))
        return terminal_id

    async def _forget_oldest_ended(self) -> bool:
        """Makes room for a command: an agent that never releases its terminals keeps running
        commands; the oldest that ended is forgotten as if released — what it left running in
        its tree is killed. False if none ended."""
        ended = (t for t, running in self._terminals.items() if running.command.exit is not None)
        terminal_id = next(ended, None)  # oldest first
        if terminal_id is None:
            return False
        await self._terminals.pop(terminal_id).command.kill()
        return True

    def _folder(self, cwd: str | None) -> Path:
        if cwd is None:
            folder = self.cwd
        elif not Path(cwd).is_absolute():
            raise WorkspaceError(
                "invalid", _("cwd must be an absolute path, not {path}").format(path=cwd)
            )
        else:
            folder = Path(cwd)
        if not folder.is_dir():
            raise WorkspaceError(
                "not_found", _("the folder {path} does not exist").format(path=str(folder))
            )
        return folder

    def _get(self, terminal_id: str) -> _Running:
        running = self._terminals.get(terminal_id)
        if running is None:
            raise WorkspaceError(
                "not_found",
                _("no terminal {id} (released, or never created)").format(id=terminal_id),
            )
        return running

    def _exited(self, terminal_id: str) -> None:
        running = self._terminals.get(terminal_id)
        if running is not None:
            running.live.close()
            self.feed.exited(terminal_id, self._view(terminal_id, running))

    async def output(self, terminal_id: str) -> TerminalOutput:
        return self._get(terminal_id).command.output()

    async def wait(self, terminal_id: str) -> TerminalExit:
        return await self._get(terminal_id).command.wait()

    async def kill(self, terminal_id: str) -> None:
        await self._get(terminal_id).command.kill()

    async def release(self, terminal_id: str) -> None:
        running = self._get(terminal_id)
        await running.command.kill()
        self._terminals.pop(terminal_id, None)

    def view(self, terminal_id: str) -> TerminalView | None:
        """What a tool call showing this terminal holds now (None: released or unknown)."""
        running = self._terminals.get(terminal_id)
        return self._view(terminal_id, running) if running is not None else None

    def _view(self, terminal_id: str, running: _Running) -> TerminalView:
        command = running.command
        output = command.tail.text(final=command.exit is not None)
        cut = len(output.encode("utf-8")) > VIEW_BYTES
        if cut:
            output = _tail_text(output, VIEW_BYTES)
        return TerminalView(
            id=terminal_id,
            command=running.title,
            output=output,
            truncated=command.tail.truncated or cut,
            running=command.exit is None,
            exit_code=command.exit.exit_code if command.exit else None,
            signal=command.exit.signal if command.exit else None,
        )

    def ids(self) -> list[str]:
        return list(self._terminals)

    async def kill_all(self) -> None:
        """Kills every command (Stop); their ids stay valid: the agent may still read them."""
        running = list(self._terminals.values())
        await asyncio.gather(*(r.command.kill() for r in running), return_exceptions=True)

    async def close(self) -> None:
        """Kills every command and refuses new ones (the session is over)."""
        self._closed = True
        await self.kill_all()
        self._terminals.clear()


# A `command` without `args` holding any of these is a shell command line ("npm test && ls").
SHELL_SYNTAX = frozenset(" \t\n|&;<>()$`\\\"'*?[]#~={}%")


def command_line(command: str, args: tuple[str, ...], env: Mapping[str, str]) -> list[str]:
    """What to run. ACP gives a program and its `args`; but agents also send a whole shell
    command line as `command` with no args (as a person types it: pipes, `&&`, quotes), which
    Zed runs through the user's shell. So do we — then only: a program with args runs as is,
    nothing is reinterpreted."""
    if args or not SHELL_SYNTAX.intersection(command) or os.path.isfile(command):
        return [command, *args]  # a program (its path may hold spaces)
    if sys.platform == "win32":  # not run by the Linux test suite
        return [env.get("COMSPEC") or "cmd.exe", "/d", "/s", "/c", command]
    return [env.get("SHELL") or "/bin/sh", "-c", command]


def _tail_text(text: str, limit: int) -> str:
    """The end of `text`, at most `limit` bytes in UTF-8, whole characters."""
    encoded = text.encode("utf-8")[-limit:]
    return encoded.decode("utf-8", "ignore")  # only the cut character's rest is dropped
