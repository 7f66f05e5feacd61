"""Sign-in terminals (`terminal` sign-in methods): the person signs in in a program the agent names,
run on a pseudo-terminal (app/terminals) shown in the window.

The program is the method's own command (claude and opencode name one in `_meta["terminal-auth"]`),
else the agent's YAML command with the method's `args` (ACP); a built-in agent has none. Its
environment: ours, the agent's YAML `env:`, the method's `env` (not the saved sign-in values).
Output goes out as `signin:output`; a web address in it (claude's OAuth address, hard-wrapped by
the program) and a prompt for a code, as `signin:prompt` (sign_in_prompts.py), so the window can
show the address as a link and a code field. When the program exits by itself with code 0, the
agent is restarted if it runs (to read the new credentials) and its "needs sign-in" flag is cleared
(its next session says whether the sign-in worked); then, on any exit, `signin:exited`. A terminal
closed by TerminalClose or the app's end is killed (its process group), without a restart. On any
end, what is left of its process tree is ended too (app/core/process_tree.py: on Linux whatever
carries the tree's mark, a child that left the group with `setsid` included; on Windows the app's
job holds them until the app ends, lifeline_windows.py). The programs die with the app like agents
do (lifeline, run records).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING

from app.agents.runtime import launch
from app.agents.sign_in import find_method
from app.agents.sign_in_prompts import PromptWatch
from app.core import lifeline, process_tree
from app.core.errors import UserError
from app.core.ids import new_id
from app.core.process_tree import ProcessTree, TreeMark
from app.core.run_records import records
from app.events import names
from app.events.bus import EventBus
from app.events.payloads import SignInPrompt, SignInTerminalExited, SignInTerminalOutput
from app.i18n import _
from app.models.agents import SignInTerminalInfo
from app.terminals.base import Terminal, open_terminal

if TYPE_CHECKING:
    from app.agents.supervisor import Supervisor

log = logging.getLogger(__name__)
MAX_OPEN = 8
MAX_COLS, MAX_ROWS = 1000, 500
MAX_INPUT = 64 * 1024
LEFTOVER_GRACE = 2.0  # what the program left gets SIGTERM, this long, then SIGKILL


@dataclass
class _Open:
    agent: str
    terminal: Terminal | None = None
    tree: ProcessTree | None = None  # POSIX: the program's group and what carries its mark
    closing: bool = False


class SignInTerminals:
    def __init__(self, bus: EventBus, supervisor: Supervisor) -> None:
        self._bus, self._supervisor = bus, supervisor
        self._open: dict[str, _Open] = {}
        self._after_exit: set[asyncio.Task[None]] = set()

    async def open(self, name: str, method_id: str, cols: int, rows: int) -> SignInTerminalInfo:
        _check_size(cols, rows)
        runtime = self._supervisor.runtime(name)
        if runtime.definition.builtin is not None:
            raise UserError(_("a built-in agent has no sign-in terminal"))
        methods = runtime.auth_methods or (await self._supervisor.start(name)).auth_methods
        method = find_method(methods, name, method_id)
        command = runtime.terminal_command(method)
        if method.type != "terminal" or not command:
            raise UserError(
                _("{method} is not a sign-in method that runs in a terminal").format(
                    method=f"`{method_id}`"
                )
            )
        if len(self._open) >= MAX_OPEN:
            raise UserError(_("too many sign-in terminals are open; close one first"))
        _command, env, cwd = launch(runtime.definition, self._supervisor.config_dir)
        mark = TreeMark()
        env = mark.environment({**env, **dict(method.env)})
        terminal_id = new_id()
        entry = self._open[terminal_id] = _Open(name)
        watch = PromptWatch()

        def on_output(data: str) -> None:
            self._bus.emit(
                names.SIGN_IN_TERMINAL_OUTPUT, SignInTerminalOutput(terminal=terminal_id, data=data)
            )
            found = watch.feed(data)
            if found is not None:
                prompt = SignInPrompt(
                    agent=name, terminal=terminal_id, url=found.url, asks_code=found.asks_code
                )
                self._bus.emit(names.SIGN_IN_PROMPT, prompt)

        def on_exit(code: int | None) -> None:
            task = asyncio.get_running_loop().create_task(self._exited(terminal_id, code))
            self._after_exit.add(task)
            task.add_done_callback(self._after_exit.discard)

        try:
            terminal = await open_terminal(
                command, env, cwd, (cols, rows), on_output, on_exit, lifeline.preexec()
            )
        except OSError as err:
            del self._open[terminal_id]
            raise UserError(
                _("the sign-in command {program} could not be started: {error}").format(
                    program=f"`{command[0]}`", error=err.strerror or type(err).__name__
                )
            ) from None
        entry.terminal = terminal
        lifeline.adopt(terminal.pid)
        if sys.platform != "win32":
            entry.tree = process_tree.posix_tree(terminal.pid, mark)
        records.add(terminal.pid, command)
        return SignInTerminalInfo(terminal=terminal_id, agent=name, command=command)

    async def _exited(self, terminal_id: str, code: int | None) -> None:
        entry = self._open.pop(terminal_id, None)
        if entry is None:
            return
        if entry.tree is not None:
            await process_tree.end(entry.tree, LEFTOVER_GRACE)
        if entry.terminal is not None:
            records.remove(entry.terminal.pid)
        if code == 0 and not entry.closing:
            await self._use_new_credentials(entry.agent)
        self._bus.emit(
            names.SIGN_IN_TERMINAL_EXITED,
            SignInTerminalExited(terminal=terminal_id, agent=entry.agent, code=code),
        )

    async def _use_new_credentials(self, name: str) -> None:
        try:
            runtime = self._supervisor.runtime(name)
        except UserError:
            return  # removed from the configuration meanwhile
        if runtime.running:
            try:
                await self._supervisor.restart(name)
            except Exception as err:  # the agent's card shows its error
                log.warning("%s did not restart after its sign-in: %s", name, err)
        runtime.needs_sign_in = False
        self._supervisor.announce(runtime)

    def _entry(self, terminal_id: str) -> _Open:
        entry = self._open.get(terminal_id)
        if entry is None or entry.terminal is None:
            raise UserError(
                _("there is no sign-in terminal {terminal}").format(terminal=f"`{terminal_id}`")
            )
        return entry

    def input(self, terminal_id: str, data: str) -> None:
        if len(data) > MAX_INPUT:
            raise UserError(_("too much input at once for a sign-in terminal"))
        terminal = self._entry(terminal_id).terminal
        assert terminal is not None
        try:
            terminal.write(data)
        except BlockingIOError:
            raise UserError(_("the sign-in command is not reading what you type")) from None

    def resize(self, terminal_id: str, cols: int, rows: int) -> None:
        _check_size(cols, rows)
        terminal = self._entry(terminal_id).terminal
        assert terminal is not None
        terminal.resize(cols, rows)

    async def close(self, terminal_id: str) -> None:
        entry = self._entry(terminal_id)
        entry.closing = True
        assert entry.terminal is not None
        await entry.terminal.kill()

    async def close_all(self) -> None:
        """The app closes (or opens another configuration): every sign-in terminal is killed."""
        entries = [e for e in self._open.values() if e.terminal is not None]
        for entry in entries:
            entry.closing = True
        await asyncio.gather(
            *(e.terminal.kill() for e in entries if e.terminal), return_exceptions=True
        )
        for task in list(self._after_exit):
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await task


def _check_size(cols: int, rows: int) -> None:
    if not (1 <= cols <= MAX_COLS and 1 <= rows <= MAX_ROWS):
        raise UserError(
            _("a terminal's size must be 1 to {cols} columns and 1 to {rows} rows").format(
                cols=MAX_COLS, rows=MAX_ROWS
            )
        )
