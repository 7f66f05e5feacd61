"""Whether a POSIX process group still has a member."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from app.core.process_group import group_alive

pytestmark = pytest.mark.posix_only("process groups are POSIX (Windows trees are Job Objects)")


def test_a_group_with_a_running_member_is_alive_and_an_ended_one_is_not() -> None:
    leader = subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.read()"],
                              stdin=subprocess.PIPE, start_new_session=True)  # fmt: skip
    try:
        assert group_alive(leader.pid)
    finally:
        assert leader.stdin is not None
        leader.stdin.close()
        leader.wait(10)
    assert not group_alive(leader.pid)


def test_this_process_group_is_alive() -> None:
    assert group_alive(os.getpgrp())
