"""A process tree for the stop tests, on every system: an "agent" that starts one grandchild,
writes both pids to the file named by its first argument, then waits.

    python tests/fakes/tree_agent.py PIDFILE [stubborn] [setsid]

Without `stubborn` it ends when its stdin closes (the grandchild stays: its leftover). With it,
neither it nor its grandchild ends on stdin's end, SIGTERM or CTRL_BREAK_EVENT: only a kill
(SIGKILL, TerminateJobObject) does. With `setsid` (POSIX) the grandchild calls os.setsid()
before saying its pid, and the agent also starts `setsid sleep 600`, whose pid comes third:
both leave the agent's process group and session.
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
        if "setsid" in sys.argv[2:]:
            os.setsid()
            print("left", flush=True)
        time.sleep(600)
        return
    pidfile, stubborn, setsid = sys.argv[1], "stubborn" in sys.argv[2:], "setsid" in sys.argv[2:]
    if stubborn:
        ignore_requests()
    grandchild = subprocess.Popen(
        [sys.executable, __file__, "--grandchild", *(["setsid"] if setsid else [])],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE if setsid else None,
    )
    pids = [os.getpid(), grandchild.pid]
    if setsid:
        assert grandchild.stdout is not None
        grandchild.stdout.readline()  # it left: only then are the pids said
        pids.append(subprocess.Popen(["setsid", "sleep", "600"]).pid)
    with open(pidfile + ".tmp", "w") as f:
        f.write(" ".join(map(str, pids)))
    os.replace(pidfile + ".tmp", pidfile)  # the reader sees both pids or no file
    if stubborn:
        time.sleep(600)
    else:
        sys.stdin.read()  # until EOF


if __name__ == "__main__":
    main()
