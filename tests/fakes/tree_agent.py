"""A process tree for the stop tests, on every system: an "agent" that starts one grandchild,
writes both pids to the file named by its first argument, then waits.

    python tests/fakes/tree_agent.py PIDFILE [stubborn]

Without `stubborn` it ends when its stdin closes (the grandchild stays: its leftover). With it,
neither it nor its grandchild ends on stdin's end, SIGTERM or CTRL_BREAK_EVENT: only a kill
(SIGKILL, TerminateJobObject) does.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time


def ignore_requests() -> None:
    for name in ("SIGTERM", "SIGBREAK", "SIGINT"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_IGN)


def main() -> None:
    if sys.argv[1] == "--grandchild":  # deaf to requests, whatever its parent is
        ignore_requests()
        time.sleep(600)
        return
    pidfile, stubborn = sys.argv[1], "stubborn" in sys.argv[2:]
    if stubborn:
        ignore_requests()
    grandchild = subprocess.Popen(
        [sys.executable, __file__, "--grandchild"], stdin=subprocess.DEVNULL
    )
    with open(pidfile + ".tmp", "w") as f:
        f.write(f"{os.getpid()} {grandchild.pid}")
    os.replace(pidfile + ".tmp", pidfile)  # the reader sees both pids or no file
    if stubborn:
        time.sleep(600)
    else:
        sys.stdin.read()  # until EOF


if __name__ == "__main__":
    main()
