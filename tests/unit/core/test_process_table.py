"""Which processes make a tree (app/core/process_table.py's `tree`), on a made-up process table:
what carries the mark, a group only while it is provably still the tree's, descendants, never
a process older than the mark nor this one; and a signal never reaches a recycled pid."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest

from app.core import process_table
from app.core.process_table import Proc

MARK = b"SIDEKICKS_TREE=abc"
LEADER = 100  # the tree's leader: its group id too


def table(*procs: Proc) -> dict[int, Proc]:
    return {proc.pid: proc for proc in procs}


@pytest.fixture
def marked(monkeypatch: pytest.MonkeyPatch) -> set[int]:
    """The pids whose environment carries MARK (the made-up table's environments)."""
    pids: set[int] = set()
    monkeypatch.setattr(process_table, "carries", lambda pid, mark: mark == MARK and pid in pids)
    return pids


def pids(found: list[Proc]) -> list[int]:
    return [proc.pid for proc in found]


def test_what_carries_the_mark_is_the_tree_s_wherever_it_went_with_its_descendants(
    marked: set[int],
) -> None:
    procs = table(
        Proc(200, 1, 200, start=50),  # left with setsid, reparented to init, marked
        Proc(201, 200, 200, start=51),  # its child, which cleared its environment
        Proc(300, 1, 300, start=50),  # a stranger, started later too
    )
    marked.add(200)
    assert pids(process_table.tree(procs, MARK, not_before=10)) == [200, 201]


def test_a_marked_process_older_than_the_mark_is_not_the_tree_s(marked: set[int]) -> None:
    procs = table(Proc(200, 1, 200, start=5))
    marked.add(200)
    assert process_table.tree(procs, MARK, not_before=10) == []


def test_the_group_counts_while_its_leader_runs_even_with_nothing_marked(
    marked: set[int],
) -> None:
    procs = table(Proc(LEADER, 1, LEADER, start=20), Proc(101, LEADER, LEADER, start=21))
    found = process_table.tree(procs, MARK, not_before=10, leaders=[(LEADER, 20)])
    assert pids(found) == [LEADER, 101]


def test_without_its_leader_the_group_counts_only_while_a_member_carries_the_mark(
    marked: set[int],
) -> None:
    orphans = table(Proc(101, 1, LEADER, start=21), Proc(102, 1, LEADER, start=22))
    leaders = [(LEADER, 20)]
    assert process_table.tree(orphans, MARK, 10, leaders) == []  # a reused group id: not ours
    marked.add(102)
    assert pids(process_table.tree(orphans, MARK, 10, leaders)) == [101, 102]


def test_a_recycled_leader_pid_does_not_make_its_group_the_tree_s(marked: set[int]) -> None:
    # The leader's pid now belongs to another process (another start time) leading a group.
    procs = table(Proc(LEADER, 1, LEADER, start=90), Proc(101, LEADER, LEADER, start=91))
    assert process_table.tree(procs, MARK, 10, leaders=[(LEADER, 20)]) == []


def test_this_process_is_never_part_of_a_tree(marked: set[int]) -> None:
    me = os.getpid()
    procs = table(Proc(me, 1, me, start=50), Proc(me + 1, me, me, start=51))
    marked.update({me, me + 1})
    assert pids(process_table.tree(procs, MARK, 10)) == [me + 1]


@pytest.mark.linux_only("process start times come from /proc")
def test_a_signal_never_reaches_a_pid_whose_start_time_changed() -> None:
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        now = process_table.read(sleeper.pid)
        assert now is not None and now.start == process_table.start_time(sleeper.pid)
        recycled = Proc(now.pid, now.ppid, now.pgid, now.start - 1)  # "another process"
        process_table.signal_exact(recycled, signal.SIGKILL)
        assert process_table.still(now)
        process_table.signal_exact(now, signal.SIGKILL)
        assert sleeper.wait(10) == -signal.SIGKILL
    finally:
        sleeper.kill()
        sleeper.wait(10)


@pytest.mark.linux_only("reads /proc")
def test_the_scan_lists_a_child_started_after_the_clock_s_reading_and_reads_its_mark() -> None:
    env = {**os.environ, "SIDEKICKS_TREE": "xyz"}
    before = process_table.ticks_now()
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"], env=env)
    try:
        found = process_table.processes()
        assert found[os.getpid()].pid == os.getpid()
        assert found[child.pid].ppid == os.getpid()
        assert process_table.carries(child.pid, b"SIDEKICKS_TREE=xyz")
        assert not process_table.carries(child.pid, b"SIDEKICKS_TREE=xy")
        assert found[child.pid].start >= before  # the clock a mark is stamped with
    finally:
        child.kill()
        child.wait(10)
