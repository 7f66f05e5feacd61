"""Opening a configuration's history: on disk, once per configuration across processes, and
in memory with a readable reason when that is not possible."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.core.ids import new_id
from app.history.base import History
from app.history.lmdb_store import LmdbHistory
from app.history.lock import LOCK_FILE_NAME, FolderLock
from app.history.memory import MemoryHistory
from app.history.open import open_history
from app.paths import data_dir
from tests.integration.history.processes import LineReader, finish, start
from tests.unit.history.formats import read_format, set_format
from tests.unit.history.samples import add_messages, stored_channel

HELD = (
    "Another Sidekicks is using this configuration's history ({folder}). "
    "History is kept in memory until the app closes."
)


@pytest.fixture
def config_path(tmp_path: Path) -> Path:
    path = tmp_path / "config.yaml"
    path.write_text("agents: []\n", encoding="utf-8")
    return path


@pytest.fixture
def opened() -> Iterator[list[History]]:
    """Histories the test opened, closed at its end whatever happens."""
    histories: list[History] = []
    yield histories
    for history in histories:
        history.close()


class Holder:
    """Another process that opened the history and holds it."""

    def __init__(self, config_path: Path) -> None:
        self.process = start("holder.py", str(config_path))
        self.reader = LineReader(self.process)
        self.kind, self.problem = self.reader.lines(2)

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(b"close\n")
        self.process.stdin.flush()
        assert self.reader.lines(1) == ["closed"]
        self.end()

    def kill(self) -> None:
        self.process.kill()  # SIGKILL on POSIX, TerminateProcess on Windows: no clean-up runs
        self.end()

    def end(self) -> None:
        finish(self.process)
        self.reader.close()


def open_elsewhere(config_path: Path) -> tuple[str, str]:
    """What another process gets when it opens the history (and closes it at once)."""
    holder = Holder(config_path)
    holder.close()
    return holder.kind, holder.problem


def open_in_memory(config_path: Path, opened: list[History]) -> MemoryHistory:
    """Opens the configuration's history, which the test expects to fall back to memory."""
    history = open_history(config_path)
    opened.append(history)
    assert isinstance(history, MemoryHistory)
    return history


def test_the_history_lives_on_disk_in_the_configurations_data_folder(
    config_path: Path, opened: list[History]
) -> None:
    history = open_history(config_path)
    opened.append(history)
    assert isinstance(history, LmdbHistory)
    assert history.problem == ""
    assert history.folder == data_dir(config_path)
    assert (data_dir(config_path) / "data.mdb").is_file()


def test_another_process_on_the_same_configuration_gets_memory_and_the_reason(
    config_path: Path, opened: list[History]
) -> None:
    opened.append(open_history(config_path))
    kind, problem = open_elsewhere(config_path)
    assert kind == "MemoryHistory"
    assert problem == HELD.format(folder=data_dir(config_path))


def test_once_the_first_closes_the_next_open_gets_the_disk_again(config_path: Path) -> None:
    first = open_history(config_path)
    first.close()
    assert open_elsewhere(config_path) == ("LmdbHistory", "")


def test_while_another_process_holds_it_this_one_gets_memory_until_it_closes(
    config_path: Path, opened: list[History]
) -> None:
    holder = Holder(config_path)
    assert (holder.kind, holder.problem) == ("LmdbHistory", "")
    second = open_history(config_path)
    opened.append(second)
    assert isinstance(second, MemoryHistory)
    assert second.problem == HELD.format(folder=data_dir(config_path))
    holder.close()
    third = open_history(config_path)
    opened.append(third)
    assert isinstance(third, LmdbHistory)


def test_a_holder_killed_outright_releases_the_history(config_path: Path) -> None:
    holder = Holder(config_path)
    assert holder.kind == "LmdbHistory"
    assert open_elsewhere(config_path)[0] == "MemoryHistory"
    holder.kill()
    assert open_elsewhere(config_path) == ("LmdbHistory", "")


def test_a_second_open_in_the_same_process_gets_memory_too(
    config_path: Path, opened: list[History]
) -> None:
    opened.append(open_history(config_path))
    second = open_history(config_path)
    opened.append(second)
    assert isinstance(second, MemoryHistory)
    assert "Another Sidekicks" in second.problem


def test_another_configuration_has_its_own_history(
    config_path: Path, tmp_path: Path, opened: list[History]
) -> None:
    other = tmp_path / "other.yaml"
    first, second = open_history(config_path), open_history(other)
    opened += [first, second]
    assert isinstance(first, LmdbHistory) and isinstance(second, LmdbHistory)
    first.put_channel(stored_channel())
    assert second.channels() == []


def test_what_was_written_is_there_at_the_next_open(config_path: Path) -> None:
    history = open_history(config_path)
    stored = stored_channel(name="kept")
    history.put_channel(stored)
    added = add_messages(history, stored.channel.id, 3)
    history.close()
    reopened = open_history(config_path)
    try:
        assert reopened.channels() == [stored]
        assert reopened.last_messages(stored.channel.id) == (added, False)
    finally:
        reopened.close()


def test_a_damaged_database_gives_memory_a_reason_and_frees_the_folder(
    config_path: Path, opened: list[History]
) -> None:
    folder = data_dir(config_path)
    folder.mkdir(parents=True)
    (folder / "data.mdb").write_bytes(os.urandom(64 * 1024))
    history = open_in_memory(config_path, opened)
    assert history.problem == (
        f"The history in {folder} cannot be opened: the file is damaged or is not a Sidekicks "
        "history. History is kept in memory until the app closes."
    )
    FolderLock.take(folder).release()  # the failed open let the lock go


def test_a_history_from_a_newer_sidekicks_gives_memory_and_is_left_as_it_is(
    config_path: Path, opened: list[History]
) -> None:
    folder = data_dir(config_path)
    LmdbHistory(folder).close()
    set_format(folder, b"7")
    size = (folder / "data.mdb").stat().st_size
    history = open_in_memory(config_path, opened)
    assert history.problem == (
        f"The history in {folder} cannot be opened: it was written by a newer version of "
        "Sidekicks (format 7). History is kept in memory until the app closes."
    )
    assert read_format(folder) == b"7"
    assert (folder / "data.mdb").stat().st_size == size


def test_a_truncated_database_gives_memory_instead_of_crashing_the_process(
    config_path: Path,
) -> None:
    # LMDB maps the file: reading past a cut end would kill the process with SIGBUS, so the
    # open runs in another process, whose death would fail this test instead of pytest.
    history = open_history(config_path)
    assert isinstance(history, LmdbHistory)
    channel_id = new_id()
    history.put_channel(stored_channel(channel_id))
    add_messages(history, channel_id, 500)
    history.close()
    with (data_dir(config_path) / "data.mdb").open("r+b") as data:
        data.truncate(8192)  # the two meta pages survive; the tree they point to is gone
    kind, problem = open_elsewhere(config_path)
    assert kind == "MemoryHistory"
    assert "file is damaged" in problem


def test_a_file_where_the_data_folder_should_be_gives_memory_and_a_reason(
    config_path: Path, opened: list[History]
) -> None:
    folder = data_dir(config_path)
    folder.parent.mkdir(parents=True)
    folder.write_text("in the way")
    history = open_in_memory(config_path, opened)
    assert history.problem == (
        f"The history in {folder} cannot be opened: a file stands where its folder should be. "
        "History is kept in memory until the app closes."
    )


@pytest.mark.linux_only("lists the child's open descriptors in /proc")
def test_the_lock_file_is_not_inherited_by_child_processes(
    config_path: Path, opened: list[History]
) -> None:
    # Agents are children of the app: if one inherited the lock and outlived a crashed app,
    # the next Sidekicks would find its history taken. close_fds=False: even a spawn that
    # keeps descriptors open must not pass the lock on.
    opened.append(open_history(config_path))
    lock_file = data_dir(config_path) / LOCK_FILE_NAME
    assert lock_file.is_file()
    child = subprocess.run(
        ["sh", "-c", f"ls -l /proc/$$/fd | grep -c '{lock_file}' || true"],
        capture_output=True,
        text=True,
        timeout=10,
        check=True,
        close_fds=False,
    )
    assert child.stdout.strip() == "0"
