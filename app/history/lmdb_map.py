"""How large a history's LMDB map is, and how it grows."""

from __future__ import annotations

import threading

import lmdb

# The map grows on demand from a small start. On Windows the bundled LMDB (0.9.x) sets the data
# file to the map's full size when it maps it (SetEndOfFile: Windows maps no more than a file
# holds), so the map is what the file takes on disk there; on Linux and macOS (no writemap)
# the file only holds the pages written. A new history is 1 MiB; a write that does not fit
# doubles the map (`_grow`), by at most 256 MiB at a time, so the file stays within twice what
# it holds plus 256 MiB. Reopened, LMDB maps at least the pages in use (it raises a smaller
# map_size to them), so a history larger than this opens, and on Windows its file shrinks
# back to what it holds.
INITIAL_MAP_SIZE = 1024 * 1024
GROWTH_STEP_LIMIT = 256 * 1024 * 1024
# A ceiling on growth, so a runaway write fails instead of growing forever.
MAX_MAP_SIZE = 1 << 40


def grow_map(env: lmdb.Environment, guard: threading.Lock) -> None:
    """Makes the map larger: doubles it, by at most GROWTH_STEP_LIMIT. LMDB reopens a
    database with a map only as large as its data (not the larger map it had), so the
    first write after an open often lands here."""
    size = env.info()["map_size"]
    if size >= MAX_MAP_SIZE:
        raise lmdb.MapFullError(f"the history reached {size} bytes")
    # LMDB unmaps and maps the file again, and checks only that no write transaction is
    # open (_write's full one was aborted). py-lmdb invalidates every transaction and
    # cursor still open: a read on another thread would fail ("Attempt to operate on
    # closed/deleted/dropped object", a HistoryUnreadable for the page), or crash if it
    # were inside LMDB at that instant. The guard, which every read holds for its whole
    # transaction, waits for reads in progress and keeps new ones out until the map is back.
    with guard:
        env.set_mapsize(min(size + min(size, GROWTH_STEP_LIMIT), MAX_MAP_SIZE))
