"""The one way a file someone may change is read (app/core/regular_files.py): the opened file is
checked, a pipe never waits for a writer, links are refused when asked, sizes are limited."""

from __future__ import annotations

import contextlib
import os
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from app.core.regular_files import FileRefused, opened_regular, read_regular

posix_only = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")


def open_fds() -> int | None:
    """How many descriptors this process holds (None where the system does not list them)."""
    listing = Path("/proc/self/fd")
    return len(os.listdir(listing)) if listing.is_dir() else None


def refused_within(call: Callable[[], object], timeout: float = 5.0) -> FileRefused:
    """The refusal `call` ends with, which must come before `timeout` (not a blocked thread)."""
    outcome: list[BaseException | object] = []

    def run() -> None:
        try:
            outcome.append(call())
        except BaseException as error:  # handed to the test's thread
            outcome.append(error)

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(timeout)
    assert not worker.is_alive(), "the read waited instead of refusing"
    assert isinstance(outcome[0], FileRefused), outcome[0]
    return outcome[0]


@contextlib.contextmanager
def fifo_at(path: Path) -> Iterator[Path]:
    os.mkfifo(path)
    try:
        yield path
    finally:  # lets go of a reader a failing test left waiting
        with contextlib.suppress(OSError):
            os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))


def test_a_regular_file_is_read_whole_and_its_head_does_not_move_the_read(tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_bytes(b"0123456789")
    assert read_regular(notes, 10) == b"0123456789"
    with opened_regular(notes) as opened:
        assert opened.head(4) == b"0123"
        assert opened.info.st_size == 10
        assert opened.read_at_most(10) == b"0123456789"


def test_a_file_past_the_limit_is_refused_with_its_size(tmp_path: Path) -> None:
    big = tmp_path / "big.bin"
    big.write_bytes(b"x" * 3_000_001)
    with pytest.raises(FileRefused, match="too large to read \\(3 MB; at most 2 MB\\)") as refused:
        read_regular(big, 2_000_000)
    assert refused.value.problem == "too_large"


@posix_only
def test_a_pipe_is_refused_at_once_and_its_descriptor_closed(tmp_path: Path) -> None:
    before = open_fds()
    with fifo_at(tmp_path / "pipe") as pipe:
        refused = refused_within(lambda: read_regular(pipe, 100))
    assert refused.problem == "not_regular"
    assert str(refused) == f"{pipe} is not a regular file"
    assert open_fds() == before


@pytest.mark.skipif(sys.platform == "win32", reason="no character device at a POSIX path")
def test_a_device_is_refused(tmp_path: Path) -> None:
    refused = refused_within(lambda: read_regular(os.devnull, 100))
    assert refused.problem == "not_regular"


def test_a_folder_is_refused_as_a_folder_and_its_descriptor_closed(tmp_path: Path) -> None:
    before = open_fds()
    with pytest.raises(FileRefused, match="is a folder, not a file") as refused:
        read_regular(tmp_path, 100)
    assert refused.value.problem == "folder"
    assert open_fds() == before


def test_a_missing_file_is_said_by_name(tmp_path: Path) -> None:
    with pytest.raises(FileRefused, match="does not exist") as refused:
        read_regular(tmp_path / "gone.txt", 100)
    assert refused.value.problem == "not_found"
    assert refused.value.path == str(tmp_path / "gone.txt")


def test_a_link_is_followed_only_when_allowed(tmp_path: Path) -> None:
    target = tmp_path / "secret.txt"
    target.write_bytes(b"secret")
    link = tmp_path / "notes.txt"
    try:
        link.symlink_to(target)
    except OSError:
        pytest.skip("this system does not let us make links")
    assert read_regular(link, 100) == b"secret"
    with pytest.raises(FileRefused, match="is a link") as refused:
        read_regular(link, 100, follow_links=False)
    assert refused.value.problem == "link"


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root reads any file")
def test_an_unreadable_file_is_refused_as_denied(tmp_path: Path) -> None:
    locked = tmp_path / "locked.txt"
    locked.write_bytes(b"x")
    locked.chmod(0)
    with pytest.raises(FileRefused, match="permission denied") as refused:
        read_regular(locked, 100)
    assert refused.value.problem == "denied"
