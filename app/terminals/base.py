"""What every pseudo-terminal offers, and how to open one on this platform."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

OnOutput = Callable[[str], None]
OnExit = Callable[[int | None], None]  # the exit code; None when a signal ended it


class Terminal(Protocol):
    pid: int

    def write(self, data: str) -> None:
        """What the person typed, as the program reads it (UTF-8)."""

    def resize(self, cols: int, rows: int) -> None: ...

    async def kill(self) -> None:
        """Ends the program and whatever it started (its process group); returns once the
        program is gone and `on_exit` was called."""


async def open_terminal(
    command: list[str],
    env: dict[str, str],
    cwd: Path,
    size: tuple[int, int],
    on_output: OnOutput,
    on_exit: OnExit,
    before_exec: Callable[[], None] | None = None,
) -> Terminal:
    """Runs `command` on a new pseudo-terminal of `size` (cols, rows) with `env` on top of ours.
    Output arrives decoded and batched (output.py); `on_exit` once, after the last output.
    `before_exec` runs in the child just before the program (POSIX only). Raises OSError when
    the program cannot be started."""
    if sys.platform == "win32":
        from app.terminals.windows import WindowsTerminal

        return await WindowsTerminal.spawn(command, env, cwd, size, on_output, on_exit)
    else:  # noqa: RET505 (the else tells mypy this is POSIX only)
        from app.terminals.posix import PosixTerminal

        return PosixTerminal.spawn(command, env, cwd, size, on_output, on_exit, before_exec)
