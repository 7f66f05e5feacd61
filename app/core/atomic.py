"""Atomic writes: a crash mid-save leaves the old file or the new one, never a truncated one.

The last step, renaming the temporary file over the target, is `replace_file`: `os.replace` that
waits out another program holding the target open on Windows. There, MoveFileEx fails while
any process has the file open without FILE_SHARE_DELETE — an antivirus or the search indexer
scanning it for a moment after each change, an editor reading it — with ERROR_ACCESS_DENIED
(5), ERROR_SHARING_VIOLATION (32) or ERROR_LOCK_VIOLATION (33). Those end by themselves, so
the rename is tried again with a short backoff for at most `REPLACE_PATIENCE` seconds, then
`FileInUse` says so; the temporary file is removed by the caller and the old file is intact.

On POSIX a rename is never blocked by another process's open file: EACCES or EPERM means the
folder's permissions (or a sticky or immutable bit) refuse it, and they will refuse it again a
moment later. Only errors that carry one of those Windows codes are retried — an error carries
`winerror` only on Windows — so elsewhere the first error is raised at once, as before.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import time
from collections.abc import Callable
from pathlib import Path

from app.core.temp_files import created_beside
from app.i18n import _

# Total time given to another program to let go of the target (the antivirus and indexer
# scans it waits for last milliseconds; an editor that keeps the file open never lets go).
REPLACE_PATIENCE = 2.0
_FIRST_DELAY = 0.01
_LONGEST_DELAY = 0.2
# ERROR_ACCESS_DENIED, ERROR_SHARING_VIOLATION, ERROR_LOCK_VIOLATION
_HELD_OPEN = frozenset({5, 32, 33})

StrPath = str | os.PathLike[str]


class FileInUse(OSError):
    """The target stayed open in another program for the whole patience: nothing changed."""

    def __init__(self, target: StrPath, waited: float) -> None:
        sentence = _(
            "another program kept {path} open for {seconds} s (an antivirus, a search "
            "indexer or an editor?); the file was left as it was, try again"
        ).format(path=os.fspath(target), seconds=f"{waited:.1f}")
        super().__init__(errno.EBUSY, sentence, os.fspath(target))

    def __str__(self) -> str:
        return str(self.strerror)  # the sentence alone: callers put it inside their own


def held_open(error: OSError) -> bool:
    """Whether `error` is Windows refusing a rename because the file is open elsewhere."""
    return getattr(error, "winerror", None) in _HELD_OPEN


def replace_file(
    source: StrPath,
    target: StrPath,
    *,
    patience: float | None = None,
    sleep: Callable[[float], None] = time.sleep,
    clock: Callable[[], float] = time.monotonic,
) -> None:
    """`os.replace(source, target)`, retried while Windows says another program holds the
    target open; raises `FileInUse` after `patience` seconds (`REPLACE_PATIENCE` by default).
    `source` is left in place on failure, for the caller to remove."""
    budget = REPLACE_PATIENCE if patience is None else patience
    start = clock()
    delay = _FIRST_DELAY
    while True:
        try:
            os.replace(source, target)
            return
        except PermissionError as error:
            if not held_open(error) or _refused_for_good(target):
                raise
            waited = clock() - start
            if waited >= budget:
                raise FileInUse(target, waited) from error
        sleep(min(delay, max(budget - waited, 0.0)))
        delay = min(delay * 2, _LONGEST_DELAY)


def _refused_for_good(target: StrPath) -> bool:
    """Whether Windows' ERROR_ACCESS_DENIED is about the target itself, which waiting does not
    change: a read-only file (MoveFileEx does not replace one) or a folder."""
    try:
        info = os.stat(target)
    except OSError:
        return False
    return stat.S_ISDIR(info.st_mode) or not info.st_mode & stat.S_IWRITE


def write_atomic(path: Path, text: str) -> None:
    """Replaces the file's text in one step (`write_bytes_atomic`, UTF-8)."""
    write_bytes_atomic(path, text.encode("utf-8"))


def write_bytes_atomic(
    path: Path,
    data: bytes,
    *,
    mode: int | None = None,
    check_opened: Callable[[int, Path], None] | None = None,
) -> None:
    """Replaces the file's bytes in one step: a temporary file beside it (listed for the next
    start to remove if the app is killed meanwhile: temp_files.py), synced, renamed over it. The
    file gets `mode`, or by default keeps the replaced file's (a new one is private, 0600); a
    symlink stays one, its target is written. `check_opened(fd, temporary)` may refuse the
    temporary file once it is open, before anything is written (it is then removed)."""
    target = Path(os.path.realpath(path))
    with created_beside(target) as (out, temporary):
        if check_opened is not None:
            check_opened(out.fileno(), temporary)
        out.write(data)
        out.flush()
        os.fsync(out.fileno())
        out.close()
        if mode is not None:
            os.chmod(temporary, mode)
        else:
            with contextlib.suppress(FileNotFoundError):
                os.chmod(temporary, target.stat().st_mode & 0o7777)
        replace_file(temporary, target)
    _fsync_dir(target.parent)


def _fsync_dir(folder: Path) -> None:
    if os.name != "posix":
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
