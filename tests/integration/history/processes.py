"""Running history scripts in child processes and reading their output with a deadline."""

from __future__ import annotations

import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import IO

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
    and a child that dies early ends the wait with its stderr in the failure message. A thread
    reads the pipe (select() takes no pipes on Windows), so it runs on every system."""

    def __init__(self, process: subprocess.Popen[bytes]) -> None:
        assert process.stdout is not None
        self.process = process
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._ended = False
        self._thread = threading.Thread(target=self._pump, args=(process.stdout,), daemon=True)
        self._thread.start()

    def lines(self, count: int, timeout: float = 10.0) -> list[str]:
        deadline = time.monotonic() + timeout
        got: list[str] = []
        while len(got) < count:
            left = deadline - time.monotonic()
            try:
                line = None if self._ended else self._lines.get(timeout=max(left, 0))
            except queue.Empty:
                raise AssertionError(
                    f"timed out after {timeout}s waiting for {count} lines"
                ) from None
            if line is None:
                self._ended = True
                raise AssertionError(f"the child ended early: {self._stderr()}")
            got.append(line)
        return got

    def rest(self) -> list[str]:
        """Every complete line the (ended) child wrote; a line cut by its death is dropped."""
        self._thread.join(10)
        rest: list[str] = []
        while not self._ended and (line := self._lines.get(timeout=10)) is not None:
            rest.append(line)
        self._ended = True
        return rest

    def close(self) -> None:
        self._thread.join(10)  # the child has ended: its stdout is at its end

    def _pump(self, stream: IO[bytes]) -> None:
        # readline returns a line without its newline only at the end of the stream: the line
        # a killed child was writing, dropped. The child's text stdout ends lines with \r\n
        # on Windows.
        for line in iter(stream.readline, b""):
            if line.endswith(b"\n"):
                self._lines.put(line.rstrip(b"\r\n").decode())
        self._lines.put(None)

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
