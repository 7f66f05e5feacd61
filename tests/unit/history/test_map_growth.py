"""The LMDB map grows on demand (issue 18): a new history is small on disk, a write that does not
fit grows the map through LMDB's own MapFullError and is written, the file stays proportional
to what it holds, a read on another thread never sees the map change under it, and a history
larger than the first map reopens.

On Windows the data file is as large as the map (LMDB 0.9 sets its length when it maps it):
there the map size is the file size, so the map is held to bounds proportional to what the
history holds too; on Linux and macOS the file itself is measured as well."""

from __future__ import annotations

import random
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import Any

import lmdb
import pytest

from app.core.ids import new_id
from app.history import lmdb_env, lmdb_map, lmdb_store, lmdb_walks
from app.history.data_file import DATA_FILE
from app.history.lmdb_store import LmdbHistory
from app.history.records import encode_message
from app.models.conversation import Message
from tests.unit.history.samples import text_message
from tests.waiting import wait_for

KIB = 1024
MIB = 1024 * KIB


@pytest.fixture
def unsynced(monkeypatch: pytest.MonkeyPatch) -> None:
    """Commits without fsync: the sizes measured here do not depend on it, and a thousand
    synced commits would take seconds."""
    open_env = lmdb.open

    def open_unsynced(path: str, **options: Any) -> lmdb.Environment:
        return open_env(path, **{**options, "sync": False, "metasync": False})

    monkeypatch.setattr(lmdb, "open", open_unsynced)


def map_size(history: LmdbHistory) -> int:
    return int(history._lmdb.env.info()["map_size"])


def on_disk(folder: Path) -> tuple[int, int]:
    """The data file's length and the bytes allocated to it (st_blocks is POSIX's; Windows
    allocates the length)."""
    info = (folder / DATA_FILE).stat()
    return info.st_size, getattr(info, "st_blocks", info.st_size // 512) * 512


def growths(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int]]:
    """Records each growth as (map size before, after): `grow_map` runs only when LMDB raised
    MapFullError in a write."""
    seen: list[tuple[int, int]] = []
    grow = lmdb_map.grow_map

    def recording(env: lmdb.Environment, guard: threading.Lock) -> None:
        before = env.info()["map_size"]
        grow(env, guard)
        seen.append((before, env.info()["map_size"]))

    monkeypatch.setattr(lmdb_env, "grow_map", recording)
    return seen


def varied_messages(
    channel_id: str, count: int, longest: int = 8 * KIB, seed: int = 18
) -> list[Message]:
    """Messages of 20 bytes to `longest` of text: short replies and long answers, some of
    them past a page (LMDB overflow pages)."""
    rng = random.Random(seed)
    return [
        text_message(channel_id, f"{index} " + "w" * rng.randint(20, longest))
        for index in range(count)
    ]


def test_a_new_history_has_a_small_map_and_a_small_file(tmp_path: Path) -> None:
    history = LmdbHistory(tmp_path / "history")
    try:
        assert lmdb_store.INITIAL_MAP_SIZE <= 1 * MIB
        assert map_size(history) == lmdb_store.INITIAL_MAP_SIZE
        length, allocated = on_disk(history.folder)
        assert length <= map_size(history)  # on Windows, equal: the file is the map
        assert allocated <= map_size(history)
    finally:
        history.close()


@pytest.mark.posix_only("on Windows the data file is as large as the map from the start")
def test_on_posix_a_new_history_takes_only_the_pages_it_wrote(tmp_path: Path) -> None:
    history = LmdbHistory(tmp_path / "history")
    try:
        length, allocated = on_disk(history.folder)
        assert length <= 64 * KIB
        assert allocated <= 64 * KIB
    finally:
        history.close()


@pytest.mark.usefixtures("unsynced")
def test_a_write_that_does_not_fit_grows_the_map_and_every_record_is_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(lmdb_store, "INITIAL_MAP_SIZE", 64 * KIB)
    seen = growths(monkeypatch)
    history = LmdbHistory(tmp_path / "history")
    channel_id = new_id()
    written = varied_messages(channel_id, 120, longest=16 * KIB)
    try:
        for count, message in enumerate(written, 1):
            grown = len(seen)
            history.add_message(message)
            if len(seen) > grown:  # right after a growth, everything is still there
                assert history.messages_after(channel_id, "", count) == written[:count]
        assert len(seen) >= 5
        assert all(after == 2 * before for before, after in seen)  # doubling below the cap
    finally:
        history.close()
    reopened = LmdbHistory(tmp_path / "history")
    try:
        assert reopened.messages_after(channel_id, "", 1000) == written
    finally:
        reopened.close()


@pytest.mark.usefixtures("unsynced")
def test_past_the_step_limit_the_map_grows_by_the_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(lmdb_store, "INITIAL_MAP_SIZE", 64 * KIB)
    monkeypatch.setattr(lmdb_map, "GROWTH_STEP_LIMIT", 128 * KIB)
    seen = growths(monkeypatch)
    history = LmdbHistory(tmp_path / "history")
    channel_id = new_id()
    written = varied_messages(channel_id, 100, longest=16 * KIB)
    try:
        for message in written:
            history.add_message(message)
        steps = [after - before for before, after in seen]
        assert steps[:2] == [64 * KIB, 128 * KIB]  # 64 → 128 KiB → 256 KiB: doubling…
        assert len(steps) > 4 and set(steps[1:]) == {128 * KIB}  # …then 128 KiB at a time
        assert history.messages_after(channel_id, "", 1000) == written
    finally:
        history.close()


@pytest.mark.usefixtures("unsynced")
def test_the_file_and_the_map_stay_proportional_to_what_the_history_holds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen = growths(monkeypatch)
    history = LmdbHistory(tmp_path / "history")
    channel_id = new_id()
    held = 0
    try:
        for message in varied_messages(channel_id, 2000):  # about 8 MB of records
            history.add_message(message)
            held += len(encode_message(message))
        assert held > 7 * MIB
        assert len(seen) >= 3  # it got there by growing from 1 MiB
        # The B-tree's pages are partly filled: about 1.5x what it holds here; 2x is the bound.
        used = (history._lmdb.env.info()["last_pgno"] + 1) * history._lmdb.env.stat()["psize"]
        assert used <= 2 * held + 256 * KIB
        # The map, which is the file on Windows: at most twice the pages in use, plus the first.
        assert map_size(history) <= 2 * used + lmdb_store.INITIAL_MAP_SIZE
        length, allocated = on_disk(history.folder)
        assert length <= map_size(history) and allocated <= map_size(history)
        if sys.platform != "win32":  # elsewhere the file only holds the pages written
            assert length <= 2 * held + 256 * KIB
            assert allocated <= 2 * held + 256 * KIB
    finally:
        history.close()


class WatchedGuard:
    """The history's guard, counting the threads that wait for it."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._count = threading.Lock()
        self.waiting = 0

    def __enter__(self) -> None:
        if self._lock.acquire(blocking=False):
            return
        with self._count:
            self.waiting += 1
        self._lock.acquire()
        with self._count:
            self.waiting -= 1

    def __exit__(self, *exc: object) -> None:
        self._lock.release()


class CountedRead:
    """A read transaction that counts itself open in its environment."""

    def __init__(self, txn: lmdb.Transaction[bytes], env: WatchedEnv) -> None:
        self._txn, self._env = txn, env

    def __enter__(self) -> lmdb.Transaction[bytes]:
        self._env.open_reads += 1
        return self._txn.__enter__()

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self._env.open_reads -= 1
        self._txn.__exit__(kind, error, trace)


class WatchedEnv:
    """The LMDB environment, noting how many read transactions are open at each remap."""

    def __init__(self, env: lmdb.Environment) -> None:
        self._env = env
        self.open_reads = 0
        self.reads_open_at_remap: list[int] = []

    def begin(self, **options: Any) -> Any:
        txn = self._env.begin(**options)
        return txn if options.get("write") else CountedRead(txn, self)

    def set_mapsize(self, size: int) -> None:
        self.reads_open_at_remap.append(self.open_reads)
        self._env.set_mapsize(size)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._env, name)


def test_the_map_never_grows_while_another_thread_is_in_a_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(lmdb_store, "INITIAL_MAP_SIZE", 64 * KIB)
    history = LmdbHistory(tmp_path / "history")
    channel_id = new_id()
    earlier = varied_messages(channel_id, 5)
    for message in earlier:
        history.add_message(message)
    env, guard = WatchedEnv(history._lmdb.env), WatchedGuard()
    history._lmdb.env, history._lmdb._guard = env, guard  # type: ignore[assignment]

    # The reader stops in the middle of its read transaction until the test lets it go.
    reading, let_go = threading.Event(), threading.Event()
    page: Callable[..., Any] = lmdb_walks.page

    def held_page(*args: Any) -> Any:
        reading.set()
        assert let_go.wait(10)
        return page(*args)

    monkeypatch.setattr(lmdb_store, "page", held_page)
    pages: list[list[bytes]] = []
    reader = threading.Thread(target=lambda: pages.append(history.last_records(channel_id).records))
    reader.start()
    wait_for(reading.is_set, what="the reader inside its transaction")

    big = text_message(channel_id, "big " + "y" * 256 * KIB)  # needs a larger map
    writer = threading.Thread(target=history.add_message, args=(big,))
    writer.start()
    try:
        wait_for(lambda: guard.waiting or env.reads_open_at_remap, what="the growth")
        assert env.reads_open_at_remap == []  # it waits for the read to end…
    finally:
        let_go.set()
        reader.join(10)
        writer.join(10)
    assert env.reads_open_at_remap  # …then grows (as often as needed), with no read open
    assert set(env.reads_open_at_remap) == {0}
    assert len(pages[0]) == len(earlier)  # the read was whole
    assert history.messages_after(channel_id, "", 10) == [*earlier, big]
    history._lmdb.env = env._env
    history.close()


@pytest.mark.usefixtures("unsynced")
def test_a_history_larger_than_the_first_map_reopens_and_grows_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "history"
    channel_id = new_id()
    written = varied_messages(channel_id, 200, longest=16 * KIB)
    history = LmdbHistory(folder)
    for message in written:
        history.add_message(message)
    history.close()
    length, _ = on_disk(folder)
    assert length > lmdb_store.INITIAL_MAP_SIZE

    monkeypatch.setattr(lmdb_store, "INITIAL_MAP_SIZE", 64 * KIB)
    seen = growths(monkeypatch)
    reopened = LmdbHistory(folder)
    try:
        used = (reopened._lmdb.env.info()["last_pgno"] + 1) * reopened._lmdb.env.stat()["psize"]
        assert map_size(reopened) >= used  # LMDB maps every page in use, whatever was asked
        assert reopened.messages_after(channel_id, "", 1000) == written
        more = varied_messages(channel_id, 30, longest=16 * KIB, seed=19)
        for message in more:
            reopened.add_message(message)
        assert seen  # the map was exactly its data: the next writes grew it
        assert reopened.messages_after(channel_id, "", 1000) == [*written, *more]
    finally:
        reopened.close()
