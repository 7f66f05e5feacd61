"""A program on a real pseudo-terminal (Linux, macOS).

The program gets the pty's slave as stdin, stdout and stderr, in a session of its own whose
controlling terminal is that pty (setsid, then TIOCSCTTY in the child): `isatty` is true, Ctrl-C
reaches it as SIGINT, /dev/tty opens. The master is read without blocking from the loop
(`add_reader`); the size is set with TIOCSWINSZ (the kernel tells the program by SIGWINCH).
Exit is polled (a grandchild may keep the slave open after the program exited); then what is
left of its process group is ended and the last output read before `on_exit`.
Kill: SIGHUP and SIGTERM to the group, KILL_GRACE, then SIGKILL.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import fcntl
import os
import signal
import struct
import subprocess
import sys
import termios
from collections.abc import Callable
from pathlib import Path

from app.core.process_group import group_alive
from app.paths import child_environment
from app.terminals.base import OnExit, OnOutput
from app.terminals.output import OutputBatcher

assert sys.platform != "win32"  # imported on POSIX only (base.py); type-checked as such

READ_BYTES = 64 * 1024
POLL_SECONDS = 0.05
KILL_GRACE = 2.0
MAX_PENDING_INPUT = 1024 * 1024


class PosixTerminal:
    def __init__(self, proc: subprocess.Popen[bytes], master: int, on_exit: OnExit) -> None:
        self.pid = proc.pid
        self._proc, self._master, self._on_exit = proc, master, on_exit
        self._loop = asyncio.get_running_loop()
        self._input = bytearray()
        self._reading = False
        self._done = self._loop.create_future()
        self.output: OutputBatcher | None = None

    @classmethod
    def spawn(
        cls,
        command: list[str],
        env: dict[str, str],
        cwd: Path,
        size: tuple[int, int],
        on_output: OnOutput,
        on_exit: OnExit,
        before_exec: Callable[[], None] | None = None,
    ) -> PosixTerminal:
        master, slave = os.openpty()
        try:
            _set_size(slave, *size)
            os.set_blocking(master, False)

            def in_the_child() -> None:  # after fork, before exec: syscalls only
                fcntl.ioctl(0, termios.TIOCSCTTY, 0)
                if before_exec is not None:
                    before_exec()

            proc = subprocess.Popen(
                command,
                stdin=slave,
                stdout=slave,
                stderr=slave,
                env={
                    **child_environment(),
                    "TERM": "xterm-256color",
                    "COLORTERM": "truecolor",
                    **env,
                },
                cwd=str(cwd),
                start_new_session=True,
                preexec_fn=in_the_child,
                close_fds=True,
            )
        except BaseException:
            os.close(master)
            raise
        finally:
            os.close(slave)
        terminal = cls(proc, master, on_exit)
        terminal.output = OutputBatcher(on_output, terminal._pause, terminal._resume)
        terminal._resume()
        terminal._loop.create_task(terminal._watch())
        return terminal

    # ---- output ------------------------------------------------------------------------------

    def _resume(self) -> None:
        if not self._reading and self._master >= 0:
            self._loop.add_reader(self._master, self._read)
            self._reading = True

    def _pause(self) -> None:
        if self._reading:
            self._loop.remove_reader(self._master)
            self._reading = False

    def _read(self) -> bool:
        """Reads what is there; False once nothing more will come (EOF, or the slave closed)."""
        assert self.output is not None
        try:
            data = os.read(self._master, READ_BYTES)
        except BlockingIOError:
            return True
        except OSError:  # EIO: every slave descriptor is closed
            data = b""
        if not data:
            self._pause()
            return False
        self.output.feed(data)
        return True

    async def _watch(self) -> None:
        while self._proc.poll() is None:
            await asyncio.sleep(POLL_SECONDS)
        await self._end_leftovers()
        self._pause()
        for _ in range(64):  # what it wrote last (bounded: a leftover may still be writing)
            if not self._read():
                break
        assert self.output is not None
        self.output.flush(final=True)
        self._loop.remove_writer(self._master)
        os.close(self._master)
        self._master = -1
        code = self._proc.returncode
        self._done.set_result(None)
        self._on_exit(code if code is not None and code >= 0 else None)

    # ---- input, size, end --------------------------------------------------------------------

    def write(self, data: str) -> None:
        if self._master < 0:
            return
        if len(self._input) > MAX_PENDING_INPUT:
            raise BlockingIOError(errno.EAGAIN, "the program is not reading its input")
        self._input += data.encode("utf-8", "replace")
        self._write()

    def _write(self) -> None:
        try:
            written = os.write(self._master, self._input)
        except BlockingIOError:
            written = 0
        except OSError:
            self._input.clear()
            written = 0
        del self._input[:written]
        if self._input:
            self._loop.add_writer(self._master, self._write)
        else:
            self._loop.remove_writer(self._master)

    def resize(self, cols: int, rows: int) -> None:
        if self._master >= 0:
            _set_size(self._master, cols, rows)

    async def kill(self) -> None:
        if not self._done.done():
            self._end_group(signal.SIGHUP)
            self._end_group(signal.SIGTERM)
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(asyncio.shield(self._done), KILL_GRACE)
            if not self._done.done():
                self._end_group(signal.SIGKILL)
        await asyncio.shield(self._done)

    async def _end_leftovers(self) -> None:
        """The program exited; what it left running in its group gets SIGHUP and SIGTERM, then
        SIGKILL after KILL_GRACE."""
        self._end_group(signal.SIGHUP)
        self._end_group(signal.SIGTERM)
        deadline = self._loop.time() + KILL_GRACE
        while self._group_alive() and self._loop.time() < deadline:
            await asyncio.sleep(POLL_SECONDS)
        self._end_group(signal.SIGKILL)

    def _group_alive(self) -> bool:
        return group_alive(self.pid)

    def _end_group(self, sig: signal.Signals) -> None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.pid, sig)


def _set_size(fd: int, cols: int, rows: int) -> None:
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
