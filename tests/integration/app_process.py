"""Starting `python -m app` in a subprocess and reading its output as it comes, with timeouts."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tests.waiting import wait_for

ROOT = Path(__file__).resolve().parents[2]


def is_headless_ready_line(line: str) -> bool:
    """`Sidekicks 0.1.0: /path/config.yaml [default], valid`, the first line --headless prints."""
    return line.startswith("Sidekicks ")


class AppProcess:
    """A started app whose output (stdout and stderr together) is read on a thread: a test waits
    for a line with a timeout, and the process never blocks on a full pipe."""

    def __init__(self, proc: subprocess.Popen[str]) -> None:
        self.proc = proc
        self._lines: list[str] = []
        self._lock = threading.Lock()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            with self._lock:
                self._lines.append(line)

    def output(self) -> str:
        with self._lock:
            return "".join(self._lines)

    def wait_for_line(self, wanted: Callable[[str], bool], timeout: float = 60) -> str:
        """The first output line that is `wanted`; fails if the app exits or `timeout` passes."""

        def found() -> str | None:
            with self._lock:
                line = next((line for line in self._lines if wanted(line)), None)
            if line is None and self.proc.poll() is not None:
                self._reader.join(5)  # the last lines may still be in the pipe
                with self._lock:
                    line = next((line for line in self._lines if wanted(line)), None)
                if line is None:
                    raise AssertionError(
                        f"the app exited ({self.proc.returncode}):\n{self.output()}"
                    )
            return line

        line = wait_for(found, timeout, what="the app's line")
        assert line is not None
        return line

    def wait_exit(self, timeout: float = 30) -> tuple[int, str]:
        """Waits for the process to exit: its exit code and everything it wrote."""
        try:
            code = self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"the app did not exit within {timeout}s") from None
        self._reader.join(timeout)
        return code, self.output()


@contextmanager
def started_app(
    args: list[str], env: dict[str, str] | None = None, **popen: Any
) -> Iterator[AppProcess]:
    """`python -m app ARGS` (in the test's user config dir); killed if still running at the end.
    `popen`: more Popen options (Windows: creationflags for a process group of its own)."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "app", *args],
        cwd=ROOT,
        env=env or dict(os.environ),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        **popen,
    )
    try:
        yield AppProcess(proc)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
        assert proc.stdout is not None
        proc.stdout.close()
