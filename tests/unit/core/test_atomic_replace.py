"""Atomic saves when another program holds the file: Windows' sharing violations are waited
out for a bounded time, then refused clearly with nothing lost; POSIX errors are not retried.

Windows is simulated here by an `os.replace` that raises what Windows raises (a
PermissionError carrying `winerror`); the real thing runs in the windows_only test."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from app.core import atomic
from app.core.atomic import FileInUse, replace_file, write_atomic
from tests.waiting import wait_for

REAL_REPLACE = os.replace


def windows_error(code: int, source: str, target: str) -> PermissionError:
    """What MoveFileEx's failure becomes in Python on Windows (`winerror` exists only there)."""
    error = PermissionError(13, "The process cannot access the file", source, None, target)
    error.winerror = code  # type: ignore[attr-defined]
    return error


class FakeReplace:
    """`os.replace` failing with `make_error` for its first `failures` calls (-1: always)."""

    def __init__(self, failures: int, make_error: Callable[[str, str], OSError]) -> None:
        self.failures = failures
        self.make_error = make_error
        self.calls = 0

    def __call__(self, source: str, target: str) -> None:
        self.calls += 1
        if self.failures < 0 or self.calls <= self.failures:
            raise self.make_error(str(source), str(target))
        REAL_REPLACE(source, target)


class FakeTime:
    """A clock that only moves when the code under test sleeps."""

    def __init__(self) -> None:
        self.now = 100.0
        self.sleeps: list[float] = []

    def clock(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds


@pytest.fixture
def target(tmp_path: Path) -> Path:
    path = tmp_path / "config.yaml"
    path.write_text("theme: dark\n", encoding="utf-8")
    return path


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


@pytest.mark.parametrize("code", [5, 32, 33])
def test_a_file_briefly_held_open_on_windows_is_saved_once_it_is_let_go(
    target: Path, monkeypatch: pytest.MonkeyPatch, code: int
) -> None:
    fake = FakeReplace(2, lambda s, t: windows_error(code, s, t))
    monkeypatch.setattr(os, "replace", fake)
    write_atomic(target, "theme: light\n")
    assert target.read_text(encoding="utf-8") == "theme: light\n"
    assert fake.calls == 3
    assert leftovers(target.parent) == []


def test_a_file_held_open_for_good_is_refused_after_the_patience_with_nothing_lost(
    target: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(atomic, "REPLACE_PATIENCE", 0.05)
    fake = FakeReplace(-1, lambda s, t: windows_error(32, s, t))
    monkeypatch.setattr(os, "replace", fake)
    started = time.monotonic()
    with pytest.raises(FileInUse) as raised:
        write_atomic(target, "theme: light\n")
    assert time.monotonic() - started < 1.0  # bounded: the patience, not forever
    assert target.read_text(encoding="utf-8") == "theme: dark\n"  # the old file, intact
    assert leftovers(target.parent) == []  # the temporary file removed
    assert fake.calls > 2  # it was tried again before giving up
    # One sentence a person reads, naming the file; the Windows error is kept as its cause.
    assert str(target) in str(raised.value)
    assert "another program kept" in str(raised.value)
    assert "[Errno" not in str(raised.value)
    assert isinstance(raised.value.__cause__, PermissionError)


def test_the_retries_back_off_and_stop_at_the_patience(monkeypatch: pytest.MonkeyPatch) -> None:
    fake_time = FakeTime()
    fake = FakeReplace(-1, lambda s, t: windows_error(32, s, t))
    monkeypatch.setattr(os, "replace", fake)
    with pytest.raises(FileInUse):
        replace_file("a.tmp", "a", patience=2.0, sleep=fake_time.sleep, clock=fake_time.clock)
    assert fake_time.sleeps[:4] == [0.01, 0.02, 0.04, 0.08]  # doubling from 10 ms…
    assert max(fake_time.sleeps) == 0.2  # …to at most 200 ms between tries
    assert fake_time.now - 100.0 == pytest.approx(2.0)  # gave up at the patience, not later
    assert fake.calls == len(fake_time.sleeps) + 1


def test_a_permission_error_without_a_windows_code_is_raised_at_once(
    target: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # POSIX: EACCES/EPERM on rename come from the folder's permissions, not from another
    # process; they would fail again, so waiting would only delay the same answer.
    fake = FakeReplace(-1, lambda s, t: PermissionError(13, "Permission denied", s))
    monkeypatch.setattr(os, "replace", fake)
    with pytest.raises(PermissionError) as raised:
        write_atomic(target, "theme: light\n")
    assert not isinstance(raised.value, FileInUse)
    assert fake.calls == 1
    assert target.read_text(encoding="utf-8") == "theme: dark\n"
    assert leftovers(target.parent) == []


def test_a_read_only_file_or_a_folder_is_refused_at_once_not_waited_for(
    target: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Windows refuses to replace those with ERROR_ACCESS_DENIED too, and always will.
    fake_time = FakeTime()
    fake = FakeReplace(-1, lambda s, t: windows_error(5, s, t))
    monkeypatch.setattr(os, "replace", fake)
    target.chmod(0o444)
    folder = target.parent / "folder"
    folder.mkdir()
    try:
        for refused in (target, folder):
            with pytest.raises(PermissionError) as raised:
                replace_file("a.tmp", refused, sleep=fake_time.sleep, clock=fake_time.clock)
            assert not isinstance(raised.value, FileInUse)
        assert (fake.calls, fake_time.sleeps) == (2, [])
    finally:
        target.chmod(0o644)


def test_other_windows_errors_are_not_waited_for(monkeypatch: pytest.MonkeyPatch) -> None:
    fake_time = FakeTime()
    fake = FakeReplace(-1, lambda s, t: windows_error(1920, s, t))  # ERROR_CANT_ACCESS_FILE
    monkeypatch.setattr(os, "replace", fake)
    with pytest.raises(PermissionError) as raised:
        replace_file("a.tmp", "a", patience=2.0, sleep=fake_time.sleep, clock=fake_time.clock)
    assert not isinstance(raised.value, FileInUse)
    assert (fake.calls, fake_time.sleeps) == (1, [])


@pytest.mark.posix_only("POSIX renames over a file that another process has open")
def test_on_posix_a_file_open_elsewhere_is_replaced_at_once(target: Path) -> None:
    with open(target, encoding="utf-8") as held:
        write_atomic(target, "theme: light\n")
        assert held.read() == "theme: dark\n"  # the holder keeps the old file's contents
    assert target.read_text(encoding="utf-8") == "theme: light\n"


@pytest.mark.windows_only("MoveFileEx refuses a target another handle holds without sharing")
def test_on_windows_a_save_waits_for_a_program_that_lets_go_of_the_file(
    target: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Python's open() shares read and write but not delete: replacing the file fails while it
    # is open, as with an antivirus scan. The holder closes it once the save has retried.
    held = open(target, encoding="utf-8")  # noqa: SIM115 - closed by the thread below
    tries = FakeReplace(0, lambda s, t: OSError())  # counts the real os.replace calls

    def let_go() -> None:
        wait_for(lambda: tries.calls >= 2, what="the save to retry")
        held.close()

    holder = threading.Thread(target=let_go)
    holder.start()
    monkeypatch.setattr(os, "replace", tries)
    try:
        write_atomic(target, "theme: light\n")
    finally:
        holder.join(5)
        held.close()
    assert target.read_text(encoding="utf-8") == "theme: light\n"
    assert leftovers(target.parent) == []
