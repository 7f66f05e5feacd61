"""Running history scripts in child processes and reading their output with a deadline."""

from __future__ import annotations

import os
import selectors
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
HERE = Path(__file__).resolve().parent


def start(script: str, *args: str) -> subprocess.Popen[bytes]:
    """Starts `tests/integration/history/<script>` with the app importable; it inherits the
    test's environment (its own XDG_CONFIG_HOME, the leak-check marker)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen(
        [sys.executable, str(HERE / script), *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )


class LineReader:
    """Reads a child's stdout line by line without blocking forever: each wait has a deadline,
    and a child that dies early ends the wait with its stderr in the failure message."""

    def __init__(self, process: subprocess.Popen[bytes]) -> None:
        assert process.stdout is not None
        self.process = process
        self._fd = process.stdout.fileno()
        self._buffer = b""
        self._selector = selectors.DefaultSelector()
        self._selector.register(self._fd, selectors.EVENT_READ)

    def lines(self, count: int, timeout: float = 10.0) -> list[str]:
        deadline = time.monotonic() + timeout
        while self._buffer.count(b"\n") < count:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"timed out after {timeout}s waiting for {count} lines")
            if self._selector.select(left) and not self._read():
                raise AssertionError(f"the child ended early: {self._stderr()}")
        return [self._pop_line() for _ in range(count)]

    def rest(self) -> list[str]:
        """Every complete line the (ended) child wrote; a line cut by its death is dropped."""
        while self._read():
            pass
        complete = self._buffer.count(b"\n")
        return [self._pop_line() for _ in range(complete)]

    def close(self) -> None:
        self._selector.close()

    def _read(self) -> bool:
        chunk = os.read(self._fd, 65536)
        self._buffer += chunk
        return bool(chunk)

    def _pop_line(self) -> str:
        line, self._buffer = self._buffer.split(b"\n", 1)
        return line.decode()

    def _stderr(self) -> str:
        self.process.wait(timeout=5)
        assert self.process.stderr is not None
        return self.process.stderr.read().decode(errors="replace")


def finish(process: subprocess.Popen[bytes], timeout: float = 10.0) -> None:
    """Waits for the child's end (it was told to stop, or killed) and closes its pipes."""
    process.wait(timeout=timeout)
    for pipe in (process.stdin, process.stdout, process.stderr):
        if pipe is not None:
            pipe.close()
