"""Reading a configuration file (at the start, for Open, on a change), with errors a person
understands. Only regular files of at most 1 MB are read."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from app.config.limits import MAX_BYTES, file_too_large
from app.core.errors import ConfigError
from app.i18n import _

_NONBLOCK = getattr(os, "O_NONBLOCK", 0)  # POSIX: opening a named pipe does not wait for a writer
_BINARY = getattr(os, "O_BINARY", 0)  # Windows: no newline translation
_NOCTTY = getattr(os, "O_NOCTTY", 0)  # a terminal swapped in after the check never becomes ours


def absolute(path: str | os.PathLike[str]) -> Path:
    return Path(os.path.abspath(Path(path).expanduser()))


class FileMissing(ConfigError):
    """The file is not there (deleted, moved, or never created)."""


def read_config_text(path: Path) -> str:
    """The file's text; ConfigError when it is missing, not a regular file, over the size limit,
    unreadable or not UTF-8."""
    raw = read_config_bytes(path)
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ConfigError(_("{path} is not a text file in UTF-8").format(path=path)) from None


def read_config_bytes(path: Path) -> bytes:
    """The bytes of a regular file of at most MAX_BYTES, never more read than that.

    A named pipe would block the read until someone writes to it, and a device such as /dev/zero
    never ends: both are refused from their type, checked before the file is opened and again on
    what was opened (opening does not block: O_NONBLOCK), in case it was swapped in between."""
    try:
        _require_regular(path, os.stat(path))
        fd = os.open(path, os.O_RDONLY | _NONBLOCK | _NOCTTY | _BINARY)
    except FileNotFoundError:
        raise FileMissing(_("{path} does not exist").format(path=path)) from None
    except OSError as err:
        raise _unreadable(path, err) from None
    try:
        info = os.fstat(fd)
        _require_regular(path, info)
        if info.st_size > MAX_BYTES:
            raise ConfigError(file_too_large(path, info.st_size))
        data = _read_at_most(fd, MAX_BYTES + 1)
        if len(data) > MAX_BYTES:  # it grew since, or says 0 as files in /proc do
            raise ConfigError(file_too_large(path, max(len(data), os.fstat(fd).st_size)))
        return data
    except OSError as err:
        raise _unreadable(path, err) from None
    finally:
        os.close(fd)


def _require_regular(path: Path, info: os.stat_result) -> None:
    if stat.S_ISDIR(info.st_mode):
        raise ConfigError(_("{path} is a folder, not a configuration file").format(path=path))
    if not stat.S_ISREG(info.st_mode):
        raise ConfigError(
            _(
                "{path} is not a regular file (a pipe, a device or a socket): "
                "Sidekicks reads its configuration only from regular files"
            ).format(path=path)
        )


def _read_at_most(fd: int, limit: int) -> bytes:
    chunks: list[bytes] = []
    left = limit
    while left > 0:
        chunk = os.read(fd, min(left, 256 * 1024))
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def _unreadable(path: Path, err: OSError) -> ConfigError:
    if isinstance(err, PermissionError):
        return ConfigError(_("{path} cannot be read (permission denied)").format(path=path))
    return ConfigError(
        _("{path} cannot be read: {error}").format(path=path, error=err.strerror or err)
    )
