"""One malloc arena for the app's process and its window's helper processes (issue 29, memory).

glibc gives each thread that allocates while another holds the main arena an arena of its own
(up to 8 per core), and the memory freed in one is not reused by another. The window's process
runs the core loop, the event pump, the page's server and Chromium's browser threads; its
renderer and zygotes as many again. With a single arena the idle window's tree is ~7 MB
smaller (python 3 MB, the rest in the renderer: docs/benchmarks.md); its threads mostly wait, and
Python's allocate under the GIL anyway, so the shared lock is rarely contended.

The process's own arenas are set with `mallopt` before any thread starts; its helper processes
(QtWebEngine's renderer and zygotes) read `MALLOC_ARENA_MAX` from the environment they inherit.
A value the person set is kept. The programs the app starts for the person (agents, their
commands, terminals) get their environment from `paths.child_environment`, which drops ours.
"""

from __future__ import annotations

import ctypes
import os
import sys

from app.paths import ARENAS_SET_BY_US

ARENAS = 1
VARIABLE = "MALLOC_ARENA_MAX"
_M_ARENA_MAX = -8  # glibc's malloc.h


def limit_arenas() -> None:
    """Before the first thread starts (app/__main__.py). Linux with glibc only: elsewhere (and
    with musl, which has no `mallopt`) nothing changes."""
    if not sys.platform.startswith("linux") or VARIABLE in os.environ:
        return
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    mallopt.restype = ctypes.c_int
    if mallopt(_M_ARENA_MAX, ARENAS) != 1:  # 1 is success
        return
    os.environ[VARIABLE] = str(ARENAS)
    os.environ[ARENAS_SET_BY_US] = "1"  # child_environment drops both
