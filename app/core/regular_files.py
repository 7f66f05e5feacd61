"""Reading a file that someone else may change meanwhile (an agent's folder, an attached file):
the one way Sidekicks opens such a file for its bytes.

What is checked is the file opened, not the path looked at before (a stat and then an open
would read whatever was put in between):
- opened non-blocking, so that opening a named pipe never waits for a writer (a blocked open
  holds a thread, and the turn or the call waiting on it, forever), and without becoming a
  terminal's controlling process;
- `fstat` of the opened descriptor: a regular file only (a pipe, a socket or a device would
  block or never end), within the caller's size limit, read to at most limit + 1 bytes (a file
  growing after the check is still refused);
- `follow_links=False`: a link in place of the file is refused (O_NOFOLLOW; where the system has
  none, Windows, the path is looked at once more after the open).

Each refusal is a `FileRefused` with a `problem` the caller can map and a sentence naming the
path. Blocking reads of regular files: call it off the core loop (asyncio.to_thread).
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Literal

from app.i18n import _

Problem = Literal["not_found", "folder", "not_regular", "link", "too_large", "denied", "failed"]
PathLike = str | os.PathLike[str]

_FLAGS = (
    os.O_RDONLY
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_NOCTTY", 0)
    | getattr(os, "O_BINARY", 0)
)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
# A final link refused by O_NOFOLLOW: ELOOP on Linux and macOS, EMLINK on FreeBSD.
_LINK_ERRNOS = {errno.ELOOP, errno.EMLINK}


class FileRefused(Exception):
    """A file that was not read, and why (`str()` is the sentence)."""

    def __init__(self, problem: Problem, path: PathLike, sentence: str) -> None:
        super().__init__(sentence)
        self.problem = problem
        self.path = os.fspath(path)


@dataclass(frozen=True, slots=True)
class OpenedFile:
    """A regular file open for reading, and what `fstat` said of it when it was opened."""

    path: str
    file: BinaryIO
    info: os.stat_result

    def read_at_most(self, limit: int) -> bytes:
        """The whole file; refused as too large past `limit` bytes."""
        if self.info.st_size > limit:
            raise too_large(self.path, self.info.st_size, limit)
        data = self._read(limit + 1)
        if len(data) > limit:  # it grew since it was opened
            raise too_large(self.path, len(data), limit)
        return data

    def head(self, count: int) -> bytes:
        """The first `count` bytes (a type's magic, a NUL byte); a later read starts over."""
        data = self._read(count)
        self._rewind()
        return data

    def _read(self, count: int) -> bytes:
        try:
            return self.file.read(count)
        except OSError as error:
            raise _refusal(self.path, error) from None

    def _rewind(self) -> None:
        try:
            self.file.seek(0)
        except OSError as error:
            raise _refusal(self.path, error) from None


@contextlib.contextmanager
def opened_regular(
    path: PathLike,
    *,
    follow_links: bool = True,
    dir_fd: int | None = None,
    shown: PathLike | None = None,
) -> Iterator[OpenedFile]:
    """The file at `path` open for reading once it is known to be a regular file. With
    `dir_fd` (POSIX), `path` is a name in that folder (app/workspace/located_io.py) and
    `shown` the full path the sentences name."""
    said = path if shown is None else shown
    flags = _FLAGS | (0 if follow_links else _NOFOLLOW)
    try:
        fd = os.open(path, flags, dir_fd=dir_fd)
    except OSError as error:
        link = not follow_links and _is_link(path, dir_fd)
        raise _refusal(said, error, follow_links=follow_links, link=link) from None
    try:
        info = _regular_info(said, fd, follow_links)  # before open(): it refuses a folder's fd
    except BaseException:
        os.close(fd)
        raise
    with open(fd, "rb", closefd=True) as file:
        yield OpenedFile(os.fspath(said), file, info)


def _is_link(path: PathLike, dir_fd: int | None) -> bool:
    try:
        return stat.S_ISLNK(os.stat(path, dir_fd=dir_fd, follow_symlinks=False).st_mode)
    except OSError:
        return False


def _regular_info(path: PathLike, fd: int, follow_links: bool) -> os.stat_result:
    """What the opened file is, refused unless it is a regular file (and no link if asked)."""
    try:
        info = os.fstat(fd)
    except OSError as error:
        raise _refusal(path, error) from None
    if stat.S_ISDIR(info.st_mode):
        raise FileRefused("folder", path, _folder(path))
    if not stat.S_ISREG(info.st_mode):
        raise FileRefused("not_regular", path, _("{path} is not a regular file").format(path=path))
    if not follow_links and not _NOFOLLOW and os.path.islink(path):
        raise link_refused(path)
    return info


def read_regular(path: PathLike, limit: int, *, follow_links: bool = True) -> bytes:
    """The bytes of the regular file at `path`, at most `limit` of them."""
    with opened_regular(path, follow_links=follow_links) as opened:
        return opened.read_at_most(limit)


def too_large(path: PathLike, size: int, limit: int) -> FileRefused:
    return FileRefused(
        "too_large",
        path,
        _("{path} is too large to read ({size} MB; at most {limit} MB)").format(
            path=path, size=size // 1_000_000, limit=limit // 1_000_000
        ),
    )


def link_refused(path: PathLike) -> FileRefused:
    return FileRefused(
        "link",
        path,
        _("{path} is a link: it is not followed (another file was put in its place)").format(
            path=path
        ),
    )


def _folder(path: PathLike) -> str:
    return _("{path} is a folder, not a file").format(path=path)


def _refusal(
    path: PathLike, error: OSError, *, follow_links: bool = True, link: bool | None = None
) -> FileRefused:
    """`link`: whether a link is at `path` (looked at by the caller; None: look here)."""
    if isinstance(error, FileNotFoundError):
        return FileRefused("not_found", path, _("{path} does not exist").format(path=path))
    at_path = link if link is not None else os.path.islink(path)
    if not follow_links and error.errno in _LINK_ERRNOS and at_path:
        return link_refused(path)
    # Windows refuses to open a folder with EACCES, never EISDIR.
    if isinstance(error, IsADirectoryError) or (
        isinstance(error, PermissionError) and os.path.isdir(path)
    ):
        return FileRefused("folder", path, _folder(path))
    if isinstance(error, PermissionError):
        return FileRefused(
            "denied", path, _("{path} cannot be read: permission denied").format(path=path)
        )
    return FileRefused(
        "failed",
        path,
        _("{path} cannot be read: {reason}").format(path=path, reason=error.strerror or error),
    )


def real_file(path: PathLike) -> Path:
    """The file a link at `path` points to (`path` itself when it is no link): what is kept of a
    link the person chose, so that a link found there later is refused."""
    return Path(os.path.realpath(path)) if os.path.islink(path) else Path(path)
