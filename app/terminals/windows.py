"""A program on a Windows pseudo-console (ConPTY) through pywinpty, behind the same interface
as posix.py. pywinpty's reads block, so a thread reads and hands the output to the loop; exit
is polled. Kill: the process tree (taskkill /T /F), as agents are stopped on Windows.
Not exercised by the Linux test suite: checked by hand on Windows (see the README)."""

from __future__ import annotations

import asyncio
import contextlib
import subprocess
import threading
from pathlib import Path
from typing import Any

from app.terminals.base import OnExit, OnOutput
from app.terminals.output import OutputBatcher

POLL_SECONDS = 0.05
KILL_GRACE = 2.0


class WindowsTerminal:
    def __init__(self, pty: Any, on_output: OnOutput, on_exit: OnExit) -> None:
        self._pty = pty
        self.pid: int = int(pty.pid)
        self._loop = asyncio.get_running_loop()
        self._on_exit = on_exit
        self._done = self._loop.create_future()
        self._resumed = threading.Event()
        self._resumed.set()
        self.output = OutputBatcher(on_output, self._resumed.clear, self._resumed.set)

    @classmethod
    async def spawn(
        cls,
        command: list[str],
        env: dict[str, str],
        cwd: Path,
        size: tuple[int, int],
        on_output: OnOutput,
        on_exit: OnExit,
    ) -> WindowsTerminal:
        import os

        from winpty import PtyProcess

        cols, rows = size
        full_env = {**os.environ, "TERM": "xterm-256color", **env}
        pty = PtyProcess.spawn(command, cwd=str(cwd), env=full_env, dimensions=(rows, cols))
        terminal = cls(pty, on_output, on_exit)
        threading.Thread(target=terminal._read_loop, name="signin-pty", daemon=True).start()
        terminal._loop.create_task(terminal._watch())
        return terminal

    def _read_loop(self) -> None:
        while True:
            self._resumed.wait()
            try:
                text = self._pty.read(16 * 1024)
            except (EOFError, OSError):
                return
            if text:
                data = text.encode("utf-8", "replace")
                self._loop.call_soon_threadsafe(self.output.feed, data)

    async def _watch(self) -> None:
        while self._pty.isalive():
            await asyncio.sleep(POLL_SECONDS)
        await asyncio.sleep(POLL_SECONDS)  # the reader thread's last output reaches the loop
        self.output.flush(final=True)
        code = self._pty.exitstatus
        self._done.set_result(None)
        self._on_exit(code if isinstance(code, int) and code >= 0 else None)

    def write(self, data: str) -> None:
        if not self._done.done():
            self._pty.write(data)

    def resize(self, cols: int, rows: int) -> None:
        if not self._done.done():
            self._pty.setwinsize(rows, cols)

    async def kill(self) -> None:
        if not self._done.done():
            with contextlib.suppress(Exception):
                await asyncio.to_thread(
                    subprocess.run,
                    ["taskkill", "/T", "/F", "/PID", str(self.pid)],
                    capture_output=True,
                    check=False,
                )
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(asyncio.shield(self._done), KILL_GRACE)
            if not self._done.done():
                with contextlib.suppress(Exception):
                    self._pty.terminate(force=True)
        await asyncio.shield(self._done)
