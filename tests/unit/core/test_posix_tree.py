"""A real POSIX tree ended by process_tree.end: a leader that keeps starting children in
sessions of their own while it is being killed leaves none behind (the kill scans again until
nobody new is found), and a process of the same user outside the tree is never touched."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys

import pytest

from app.core import process_table, process_tree
from app.core.process_tree import TreeMark
from tests.running import running
from tests.waiting import wait_for

pytestmark = pytest.mark.linux_only("the tree's mark is read in /proc (macOS: the group alone)")

# Deaf to SIGTERM, it starts a child in a session of its own every few milliseconds, for ever.
SPAWNER = """
import os, signal, subprocess, sys, time
signal.signal(signal.SIGTERM, signal.SIG_IGN)
while True:
    child = subprocess.Popen([sys.executable, "-c", "import os, signal, time; os.setsid(); "
        "signal.signal(signal.SIGTERM, signal.SIG_IGN); time.sleep(600)"])
    print(child.pid, flush=True)
    time.sleep(0.005)
"""


def test_a_tree_that_keeps_forking_children_that_leave_its_session_is_ended_whole() -> None:
    mark = TreeMark()
    outsider = subprocess.Popen(["setsid", "sleep", "600"])  # ours, but not the tree's
    leader = subprocess.Popen(
        [sys.executable, "-c", SPAWNER],
        env=mark.environment(os.environ),
        stdout=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        assert leader.stdout is not None
        children = [int(leader.stdout.readline()) for _ in range(5)]
        tree = process_tree.adopt(leader.pid, lambda: leader.poll() is not None, mark)
        assert tree.alive()
        asyncio.run(process_tree.end(tree, grace=0.2, done=lambda: leader.poll() is not None))
        assert not tree.alive()
        assert not any(running(pid) for pid in children)
        wait_for(lambda: leader.poll() is not None, 5, "the leader to be reaped")
        scan = process_table.processes()
        assert not process_table.tree(scan, mark.entry(), mark.not_before, [(leader.pid, 0)])
        assert running(outsider.pid)
    finally:
        for proc in (leader, outsider):
            proc.kill()
            proc.wait(10)
