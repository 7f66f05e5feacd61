"""Children that leave their process group and session on purpose (`setsid`), for the tests
that check a tree's kill still reaches them (app/core/process_tree_posix.py): they carry the
tree's mark, in no group of the tree's. Linux (the setsid program; the tree is found in /proc).

A program running `SETSID` starts `setsid sleep 600` and a Python child that calls os.setsid(),
ignores SIGTERM, prints `armed` and sleeps; it prints `pids <itself> <sleeper> <child>` and
sleeps too. `DAEMONIZES` is the same program ending once both have left.
"""

from __future__ import annotations

import os
import re

LEFT = (
    "import os, signal, time; os.setsid(); signal.signal(signal.SIGTERM, signal.SIG_IGN); "
    "print('armed', flush=True); time.sleep(600)"
)
SETSID = (
    "import os, subprocess, sys, time\n"
    "sleeper = subprocess.Popen(['setsid', 'sleep', '600'])\n"
    f"child = subprocess.Popen([sys.executable, '-c', {LEFT!r}])\n"
    "print(f'pids {os.getpid()} {sleeper.pid} {child.pid}', flush=True)\n"
    "time.sleep(600)\n"
)

# SETSID that ends once its children left, leaving them running (a daemon's way). It ends only
# when both have left and its child is armed, and says `armed` itself: a command's output is
# read for DRAIN_GRACE (0.5 s) after it ended (app/workspace/commands.py), and a program that
# ended at once left its child, slow to start under load, to say `armed` after that (a whole
# run under load failed so; a child made to take 1 s before its setsid shows it every time).
DAEMONIZES = (
    "import os, subprocess, sys, time\n"
    "sleeper = subprocess.Popen(['setsid', 'sleep', '600'])\n"
    f"child = subprocess.Popen([sys.executable, '-c', {LEFT!r}], stdout=subprocess.PIPE,"
    " text=True)\n"
    "print(child.stdout.readline().strip(), flush=True)\n"
    "while os.getsid(sleeper.pid) != sleeper.pid:\n"
    "    time.sleep(0.01)\n"
    "print(f'pids {os.getpid()} {sleeper.pid} {child.pid}', flush=True)\n"
)


def printed_pids(text: str, count: int) -> list[int]:
    """The `count` pids a program printed after `pids ` (in `text`, its output so far), once
    its child said `armed`; [] before. Each print is two writes (the text, then its newline:
    stdout is unbuffered here), and the processes share the pipe: the child's `armed` may come
    right after the pids, before their newline."""
    found = re.search("pids" + r" (\d+)" * count, text)
    return [int(pid) for pid in found.groups()] if found and "armed" in text else []


def escaped_pids(text: str) -> list[int]:
    """The three pids SETSID printed (in `text`, its output so far), once its child is armed and
    both children left; [] before."""
    pids = printed_pids(text, 3)
    return pids if pids and escaped(pids[1:]) else []


def escaped(pids: list[int]) -> bool:
    """Each leads a session of its own: no group or session of a tree holds it any more."""
    try:
        return all(os.getsid(pid) == pid for pid in pids)
    except ProcessLookupError:
        return False
