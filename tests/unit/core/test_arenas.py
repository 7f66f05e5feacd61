"""The window's one malloc arena (app/core/arenas.py, issue 29 memory): its own threads share
it, its helper processes inherit the limit, the programs started for the person do not."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from app import paths

ROOT = Path(__file__).resolve().parents[3]
# Threads that allocate at the same time, then glibc's own account of its arenas (stderr).
PROBE = """
import ctypes, os, sys, threading
from app.core.arenas import limit_arenas
if sys.argv[1] == "limit":
    limit_arenas()
barrier = threading.Barrier(6)
def allocate():
    barrier.wait()
    blocks = [bytearray(4096) for _ in range(2000)]
    barrier.wait()
threads = [threading.Thread(target=allocate) for _ in range(6)]
for thread in threads: thread.start()
for thread in threads: thread.join()
print(os.environ.get("MALLOC_ARENA_MAX"), os.environ.get("SIDEKICKS_SET_MALLOC_ARENA_MAX"))
sys.stdout.flush()
ctypes.CDLL(None).malloc_stats()
"""


def arenas_after(mode: str, **env: str) -> tuple[str, int]:
    base = {k: v for k, v in os.environ.items() if k != "MALLOC_ARENA_MAX"}
    result = subprocess.run(
        [sys.executable, "-c", PROBE, mode],
        cwd=ROOT,
        env={**base, **env},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip(), result.stderr.count("Arena ")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's mallopt: Linux only")
def test_the_threads_share_one_arena_and_the_helpers_inherit_the_limit() -> None:
    assert arenas_after("limit") == ("1 1", 1)
    unlimited, arenas = arenas_after("none")
    assert unlimited == "None None"
    assert arenas > 1  # the probe does make glibc create arenas of its own


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's mallopt: Linux only")
def test_a_limit_the_person_set_is_kept() -> None:
    environment, _ = arenas_after("limit", MALLOC_ARENA_MAX="4")
    assert environment == "4 None"


def test_the_programs_started_for_the_person_do_not_get_the_windows_limit() -> None:
    ours = {"MALLOC_ARENA_MAX": "1", paths.ARENAS_SET_BY_US: "1", "A": "1"}
    assert paths.child_environment(ours, frozen=False) == {"A": "1"}
    theirs = {"MALLOC_ARENA_MAX": "2", "A": "1"}
    assert paths.child_environment(theirs, frozen=False) == theirs
