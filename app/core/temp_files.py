"""The temporary files of atomic writes, listed on disk so that the next start removes the
ones a killed app left behind.

An atomic write puts its text in `.<name>.<random>.tmp` beside the target, then renames it over
the target. A SIGKILL (or a crash, or a power cut) between the two leaves the temporary file
there for good: in the person's folders (an agent's write, a revert), beside an export (20 MB for
a long conversation), in the app's own folders. So every temporary file is recorded before it is
created, in a log of this process in the run folder (app/paths.py `run_dir()`):
`temp-<pid>-<random>.log` (random: the pid of a dead app's log may be ours now, and its log
is not ours to write in), one line per event, `+<path>` when a temporary file is about to be
created, `-<path>` once it is gone (renamed or removed); paths are JSON strings, so a newline or
an undecodable byte in a name survives.

Whether the log's owner still runs is an exclusive lock on the log, taken before its first line
and held while the log exists: flock on POSIX, msvcrt.locking on Windows. The system releases it
when the process ends however it ends, and it is not a pid, which the system gives again to
another program. A log whose lock can be taken belongs to a process that is gone; `sweep` then
removes what it still lists and deletes it.

The first temporary file creates the log; it is emptied each time nothing is listed (it never
grows with the app's life) and deleted at a normal exit, or when the process moves to another
run folder (tests do) with nothing listed. Recording is best effort: when the run folder cannot
be written or locked, the write goes on untracked (a warning says so) rather than failing a
save.

The log is not fsynced: it is for a killed app, whose written lines the system keeps; after a
power cut, a temporary file may be left as before.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import logging
import os
import re
import secrets
import stat
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from app.paths import run_dir

log = logging.getLogger(__name__)

# `.<target name>.<random>.tmp`: the random part is this module's (hex) or mkstemp's (8 of
# [a-z0-9_]); nothing else in a log is ever removed.
TEMP_NAME = re.compile(r"\..+\.[A-Za-z0-9_]{6,32}\.tmp", re.DOTALL)
LOG_GLOB = "temp-*.log"
# A log is created, then locked: for that instant it is empty and unlocked. An empty log is
# only deleted once this old, so a sweep never takes a log its owner is about to lock.
EMPTY_LOG_AGE = 60.0
_O_BINARY = getattr(os, "O_BINARY", 0)  # Windows would otherwise translate newlines


# A temporary name keeps at most this much of the target's name: names are at most 255
# characters, and the temporary one adds 22.
NAME_KEPT = 200


def temporary_name(target_name: str) -> str:
    """`.<target_name>.<16 hex digits>.tmp`: hidden, beside the target, matched by TEMP_NAME."""
    return f".{target_name[:NAME_KEPT]}.{secrets.token_hex(8)}.tmp"


@contextlib.contextmanager
def tracked(path: Path) -> Iterator[Path]:
    """Lists `path` (the temporary file's full real path) in this process's log, then runs the
    body, which creates the file and renames or removes it. On exit the path is forgotten if it
    is gone; one still there (a cleanup that failed) stays listed, for the next start to remove.
    The file is neither created nor removed here. A name already taken (a file there before
    the body ran, or a FileExistsError out of it) is someone else's file: forgotten, never
    removed."""
    path = Path(os.path.abspath(path))
    if os.path.lexists(path):
        yield path  # the body's exclusive create fails: nothing of ours to list
        return
    entry = _journal.record(path)
    theirs = False
    try:
        yield path
    except FileExistsError:
        theirs = True
        raise
    finally:
        _journal.forget(entry, theirs=theirs)


@contextlib.contextmanager
def created_beside(target: Path) -> Iterator[tuple[BinaryIO, Path]]:
    """A new temporary file beside `target` (in its folder's real path), tracked, open for
    writing: (file, path), private (0600) as mkstemp makes it. The body writes, closes the file
    and renames it over the target; on exit the file is closed and, if it was not renamed,
    removed."""
    folder = Path(os.path.realpath(target.parent))
    while True:
        path = folder / temporary_name(target.name)
        entry = _journal.record(path)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _O_BINARY, 0o600)
        except BaseException as error:
            _journal.forget(entry, theirs=isinstance(error, FileExistsError))
            if isinstance(error, FileExistsError):
                continue  # 64 random bits already taken (by someone else's file): another name
            raise
        break
    try:
        with os.fdopen(fd, "wb") as out:
            yield out, path
    finally:
        with contextlib.suppress(OSError):  # one left stays listed: the next start removes it
            os.unlink(path)
        _journal.forget(entry)


class _Log:
    """One open, locked log of this process: its path, descriptor and the paths it lists."""

    def __init__(self, path: Path, fd: int) -> None:
        self.path = path
        self.fd = fd
        self.listed: set[str] = set()

    def append(self, sign: str, path: str) -> None:
        line = f"{sign}{json.dumps(path)}\n".encode("ascii")
        if os.write(self.fd, line) != len(line):  # one write: a line is never torn
            raise OSError(f"short write to {self.path}")

    def empty(self) -> None:
        """Nothing listed: the log starts again from nothing, so it never grows with the
        app's life (a failure only leaves its lines, which list nothing)."""
        with contextlib.suppress(OSError):
            os.ftruncate(self.fd, 0)

    def close(self) -> None:
        """Deletes the log, then closes it (POSIX: while still locked, so a sweep never takes
        it; Windows cannot delete an open file, and a sweep finds it empty of temporary files)."""
        if sys.platform == "win32":
            os.close(self.fd)
        with contextlib.suppress(OSError):
            os.unlink(self.path)
        if sys.platform != "win32":
            os.close(self.fd)


class _Journal:
    """This process's logs, one per run folder (the folder is read when a log is created: tests
    give each app its own)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()  # atomic writes happen on several threads
        self._logs: dict[Path, _Log] = {}

    def owns(self, path: Path) -> bool:
        with self._lock:
            return any(entry.path == path for entry in self._logs.values())

    def record(self, path: Path) -> tuple[_Log, str] | None:
        """Lists the path; None when it could not be (the write goes on untracked)."""
        with self._lock:
            folder = run_dir()
            try:
                entry = self._logs.get(folder)
                if entry is None:
                    self._close_idle()  # tests move from run folder to run folder
                    entry = self._open(folder)
                entry.append("+", str(path))
            except OSError as err:
                log.warning(
                    "temporary file %s is not tracked (run folder %s): %s", path, folder, err
                )
                return None
            entry.listed.add(str(path))
            return entry, str(path)

    def forget(self, recorded: tuple[_Log, str] | None, theirs: bool = False) -> None:
        """Forgets the path if it is gone, or if the file there is `theirs` (not created by us);
        one of ours still there stays listed."""
        if recorded is None:
            return
        entry, path = recorded
        with self._lock:
            if not theirs and os.path.lexists(path):
                return  # not cleaned up: stays listed for the next start's sweep
            entry.listed.discard(path)
            try:
                entry.append("-", path)
            except OSError as err:  # listed still: a sweep finds nothing there, and no harm
                log.warning("could not note that %s is gone: %s", path, err)
            if not entry.listed:
                entry.empty()

    def close_idle(self) -> None:
        """Deletes the logs that list nothing (at exit: a normal exit leaves no log behind)."""
        with self._lock:
            self._close_idle()

    def _close_idle(self) -> None:
        for folder, entry in list(self._logs.items()):
            if not entry.listed:
                del self._logs[folder]
                entry.close()

    def _open(self, folder: Path) -> _Log:
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"temp-{os.getpid()}-{secrets.token_hex(4)}.log"
        # Not inherited by the programs the app starts (PEP 446): a child outliving the app must
        # not hold its lock.
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_APPEND | _O_BINARY, 0o600)
        if not _try_lock(fd):  # unlocked, a sweep would take us for dead mid-write
            os.close(fd)
            os.unlink(path)
            raise OSError(f"{path} cannot be locked")
        entry = _Log(path, fd)
        self._logs[folder] = entry
        return entry


_journal = _Journal()
atexit.register(_journal.close_idle)


def _try_lock(fd: int) -> bool:
    """Takes the log's exclusive lock without waiting; False when another open of it (in any
    process, this one included) holds it, or the lock cannot be taken at all."""
    if sys.platform == "win32":
        import msvcrt

        os.lseek(fd, 0, os.SEEK_SET)  # msvcrt locks from the current position: byte 0
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:  # EACCES for a held lock and for a real failure alike: not ours to take
            return False
        return True
    import fcntl

    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    return True


def sweep(folder: Path) -> list[Path]:
    """For each log in `folder` whose process is gone, removes the temporary files it still
    lists, then the log; the files removed. A live process's log (its lock held) is left."""
    removed: list[Path] = []
    for path in sorted(folder.glob(LOG_GLOB)):
        if _journal.owns(path):
            continue  # ours: the lock below would say so too, this says it without trying
        try:
            removed += _sweep_log(path)
        except OSError as err:
            log.warning("could not sweep the temporary files listed in %s: %s", path, err)
    if removed:
        log.info("removed %d temporary file(s) left by a killed run", len(removed))
    return removed


def _sweep_log(path: Path) -> list[Path]:
    fd = os.open(path, os.O_RDONLY | _O_BINARY)
    try:
        if not _try_lock(fd):
            return []  # its process is alive (or the lock cannot be had: left alone)
        text = _read_all(fd)
        if not text and time.time() - os.fstat(fd).st_mtime < EMPTY_LOG_AGE:
            return []  # just created, about to be locked by its owner
        removed = [p for p in _still_listed(text) if _remove_if_ours(p)]
        if sys.platform != "win32":
            os.unlink(path)  # while locked (POSIX): no one takes it in between
    finally:
        os.close(fd)
    if sys.platform == "win32":
        os.unlink(path)  # Windows cannot delete an open file
    return removed


def _read_all(fd: int) -> str:
    chunks = []
    while chunk := os.read(fd, 1 << 16):
        chunks.append(chunk)
    return b"".join(chunks).decode("ascii", errors="replace")


def _still_listed(text: str) -> list[Path]:
    """The paths added and not removed since, in order; a line that does not parse (a log
    written by something else) is skipped."""
    listed: dict[str, None] = {}
    for line in text.splitlines():
        try:
            path = json.loads(line[1:])
        except ValueError:
            continue
        if not isinstance(path, str):
            continue
        if line.startswith("+"):
            listed[path] = None
        elif line.startswith("-"):
            listed.pop(path, None)
    return [Path(p) for p in listed]


def _remove_if_ours(path: Path) -> bool:
    """Removes `path` when it is still the temporary file the log names; whether it did. Each
    check refuses what a log could name without it being a temporary file of ours:
    - absolute, and its name is a temporary file's (TEMP_NAME): a damaged or foreign log never
      removes a person's file by another name;
    - its folder is still the real folder it was written in (no folder on the way became a
      symlink since): the name must not lead into another folder;
    - lstat, not stat, says a regular file: a symlink is not followed (its target is someone's
      file, and the link itself was not made by us), a folder is never removed.
    """
    if not path.is_absolute() or not TEMP_NAME.fullmatch(path.name):
        return False
    if os.path.normcase(os.path.realpath(path.parent)) != os.path.normcase(str(path.parent)):
        return False
    try:
        if not stat.S_ISREG(os.lstat(path).st_mode):
            return False
        os.unlink(path)
    except OSError:
        return False  # gone already (renamed before the kill), or not ours to remove
    return True
