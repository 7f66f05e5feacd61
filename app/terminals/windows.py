"""A program on a Windows pseudo-console (ConPTY, or winpty on old Windows) through pywinpty's
PtyProcess, behind the same interface as posix.py. Checked against pywinpty 2.x/3.x:

- `PtyProcess.spawn(argv, cwd, env, dimensions=(rows, cols))` looks the program up on the env's
  PATH (FileNotFoundError) and blocks while it sets up its reader socket: run on a thread. Its
  own errors are `winpty.WinptyError`, not OSError: turned into OSError, as base.py promises.
- `read(size)` blocks and returns text; pywinpty's reader thread sends the marker "0011Ignore"
  through its socket when a read found nothing, and a stream socket may glue it to real output:
  removed. EOFError once the pseudo-console is closed. Our reader thread hands text to the loop.
- `write(text)` raises EOFError once the program ended; `setwinsize(rows, cols)`; `isalive()`;
  `exitstatus` (None while running); `close()` releases the sockets (it may sleep: on a thread).
- pywinpty's `terminate`/`kill` are os.kill on the program alone (TerminateProcess). Kill here
  ends the program's tree (taskkill /T /F, with no console window of its own), then the program
  itself if that failed. The sign-in terminals also put it in the app's job (lifeline), so it
  ends with the app.
Exit is polled; the output the program wrote last is read before `on_exit`.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import subprocess
import threading
from pathlib import Path
from typing import Any

from app.paths import child_environment
from app.terminals.base import OnExit, OnOutput
from app.terminals.output import OutputBatcher

POLL_SECONDS = 0.05
KILL_GRACE = 2.0
LAST_OUTPUT_WAIT = 1.0  # after the exit, how long the reader may take to reach the end
READ_CHARS = 16 * 1024
NOTHING_READ = "0011Ignore"  # pywinpty's marker for an empty read (winpty/ptyprocess.py)
CREATE_NO_WINDOW = 0x08000000


class WindowsTerminal:
    def __init__(self, pty: Any, on_output: OnOutput, on_exit: OnExit) -> None:
        self._pty = pty
        self.pid: int = int(pty.pid)
        self._loop = asyncio.get_running_loop()
        self._on_exit = on_exit
        self._done = self._loop.create_future()
        self._resumed = threading.Event()
        self._resumed.set()
        self._read_all = threading.Event()
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

        import winpty

        cols, rows = size
        full_env = {**child_environment(), "TERM": "xterm-256color", **env}
        try:
            pty = await asyncio.to_thread(
                winpty.PtyProcess.spawn,
                command,
                cwd=str(cwd),
                env=full_env,
                dimensions=(rows, cols),
            )
        except FileNotFoundError:
            raise FileNotFoundError(errno.ENOENT, "not found on PATH", command[0]) from None
        except winpty.WinptyError as err:
            raise OSError(errno.EIO, str(err) or type(err).__name__) from None
        if pty.pid is None:
            raise OSError(errno.ESRCH, "the program ended as it started")
        terminal = cls(pty, on_output, on_exit)
        threading.Thread(target=terminal._read_loop, name="signin-pty", daemon=True).start()
        terminal._loop.create_task(terminal._watch())
        return terminal

    def _read_loop(self) -> None:
        try:
            while True:
                self._resumed.wait()
                try:
                    text = self._pty.read(READ_CHARS)
                except (EOFError, OSError):
                    return
                text = text.replace(NOTHING_READ, "")
                if text:
                    data = text.encode("utf-8", "replace")
                    self._loop.call_soon_threadsafe(self.output.feed, data)
        finally:
            self._read_all.set()

    async def _watch(self) -> None:
        while self._pty.isalive():
            await asyncio.sleep(POLL_SECONDS)
        # The reader reaches the end of what the program wrote, then the end of the stream.
        self._resumed.set()
        # Its last output was handed to the loop before it said so: fed before we go on.
        await asyncio.to_thread(self._read_all.wait, LAST_OUTPUT_WAIT)
        self.output.flush(final=True)
        code = self._pty.exitstatus
        with contextlib.suppress(Exception):
            await asyncio.to_thread(self._pty.close)
        self._done.set_result(None)
        self._on_exit(code if isinstance(code, int) and code >= 0 else None)

    def write(self, data: str) -> None:
        if not self._done.done():
            with contextlib.suppress(EOFError, OSError):  # it ended meanwhile
                self._pty.write(data)

    def resize(self, cols: int, rows: int) -> None:
        if not self._done.done():
            with contextlib.suppress(EOFError, OSError):
                self._pty.setwinsize(rows, cols)

    async def kill(self) -> None:
        if not self._done.done():
            with contextlib.suppress(OSError):
                await asyncio.to_thread(
                    subprocess.run,
                    ["taskkill", "/T", "/F", "/PID", str(self.pid)],
                    capture_output=True,
                    check=False,
                    creationflags=CREATE_NO_WINDOW,
                )
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(asyncio.shield(self._done), KILL_GRACE)
            if not self._done.done():
                with contextlib.suppress(Exception):
                    await asyncio.to_thread(self._pty.terminate, True)
        await asyncio.shield(self._done)
