"""Reading, writing and deleting the file at a `Location` (located.py), relative to the handle
of the folder that was checked: no link that was not checked is followed on the way.

POSIX: the file is opened with O_NOFOLLOW from the folder's handle; a write makes its temporary
file there (O_EXCL | O_NOFOLLOW), and renames it over the name there; missing folders are made
and opened one at a time the same way. Windows: by path, then the handle's final path is
compared to the location's (files_windows.final_path): a file that is not where it was checked
is left alone.

A killed write leaves its temporary file listed in this run's log, and the next start removes
it (app/core/temp_files.py).
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import sys
from collections.abc import Callable
from pathlib import Path

from app.acp.workspace import ErrorKind, WorkspaceError
from app.core import regular_files, temp_files
from app.core.atomic import write_bytes_atomic
from app.i18n import _
from app.workspace import files
from app.workspace.located import Location

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)


def read(location: Location, check: Callable[[os.stat_result], None] | None = None) -> bytes:
    """The file's bytes, as every file someone else may change is read (app/core/regular_files):
    opened non-blocking without following a link (from the folder's handle on POSIX), then
    refused unless a regular file of at most MAX_READ_BYTES; not found, a folder, a pipe or a
    device, too large or unreadable is said with the path. `check` sees the opened file's status
    before anything is read (and may refuse it)."""
    if location.missing:
        raise WorkspaceError("not_found", _("{path} does not exist").format(path=location.real))
    by_handle = location.folder >= 0
    try:
        with regular_files.opened_regular(
            location.name if by_handle else location.real,
            follow_links=not by_handle,  # by path (Windows): the final path is compared below
            dir_fd=location.folder if by_handle else None,
            shown=location.real,
        ) as opened:
            if not by_handle:
                _check_final_path(opened.file.fileno(), location)
            if check is not None:
                check(opened.info)
            return opened.read_at_most(files.MAX_READ_BYTES)
    except regular_files.FileRefused as refused:
        raise WorkspaceError(_READ_KINDS[refused.problem], str(refused)) from None


# How a refused read reaches the agent (app/acp/workspace.py's kinds).
_READ_KINDS: dict[regular_files.Problem, ErrorKind] = {
    "not_found": "not_found",
    "folder": "invalid",
    "not_regular": "invalid",
    "link": "failed",  # it became a link since it was located: the agent may try again
    "too_large": "refused",
    "denied": "refused",
    "failed": "failed",
}


def current(location: Location) -> bytes | None:
    """The file's bytes, or None when it does not exist (before a write)."""
    try:
        return read(location)
    except WorkspaceError as error:
        if error.kind == "not_found":
            return None
        raise


def write(
    location: Location, data: bytes, *, create_folders: bool, executable: bool = False
) -> None:
    """Replaces the file in one step (a temporary file in its folder, synced, renamed over it):
    a reader or a crash sees the old text or the new, never half. An existing file keeps its
    mode; a new one gets the usual mode (0666 less the umask). Missing folders are made only
    with `create_folders`. `executable` (a revert of an executable file) adds the execute
    bits where the mode can read (POSIX; Windows has none)."""
    if location.folder < 0:
        _write_by_path(location, data, create_folders)
        return
    folder = _made_folders(location, create_folders)
    mode = _mode_of(location, folder)
    if executable:
        mode |= (mode & 0o444) >> 2
    temporary = temp_files.temporary_name(location.name)
    with temp_files.tracked(location.real.parent / temporary):
        try:
            fd = os.open(
                temporary,
                os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _CLOEXEC,
                0o600,
                dir_fd=folder,
            )
        except OSError as error:
            raise _write_error(location, error) from None
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
                f.flush()
                _keep_mode(f.fileno(), mode)
                os.fsync(f.fileno())
            os.rename(temporary, location.name, src_dir_fd=folder, dst_dir_fd=folder)
        except OSError as error:
            with contextlib.suppress(OSError):
                os.unlink(temporary, dir_fd=folder)
            raise _write_error(location, error) from None
    with contextlib.suppress(OSError):
        os.fsync(folder)  # the rename itself is durable once its folder is synced


def _keep_mode(fd: int, mode: int) -> None:
    fchmod = getattr(os, "fchmod", None)  # POSIX only (this path never runs on Windows)
    if fchmod is not None:
        fchmod(fd, mode)


def delete(location: Location) -> None:
    """Removes the file (a revert of a new file); gone already is fine. A folder or a link in
    its place is not removed."""
    if location.missing:
        return
    try:
        if location.folder >= 0:
            info = os.stat(location.name, dir_fd=location.folder, follow_symlinks=False)
        else:
            info = os.lstat(location.real)
    except FileNotFoundError:
        return
    except OSError as error:
        raise _write_error(location, error) from None
    if not stat.S_ISREG(info.st_mode):
        raise WorkspaceError(
            "refused",
            _("{path} is no longer a file: it was left as it is").format(path=location.real),
        )
    try:
        if location.folder >= 0:
            os.unlink(location.name, dir_fd=location.folder)
            with contextlib.suppress(OSError):
                os.fsync(location.folder)
        else:
            os.unlink(location.real)
    except FileNotFoundError:
        return
    except OSError as error:
        raise _write_error(location, error) from None


def _made_folders(location: Location, create: bool) -> int:
    """The handle of the file's folder, making the missing ones on the way (each opened with
    O_NOFOLLOW right after it is made: a link put in its place is refused)."""
    folder = location.folder
    if location.missing and not create:
        raise WorkspaceError(
            "not_found",
            _("{path} cannot be written: its folder does not exist").format(path=location.real),
        )
    for name in location.missing:
        try:
            os.mkdir(name, 0o777, dir_fd=folder)
        except FileExistsError:
            pass  # made meanwhile: opened below like any folder, links refused
        except OSError as error:
            raise _write_error(location, error) from None
        try:
            folder = os.open(name, os.O_RDONLY | _DIRECTORY | _NOFOLLOW | _CLOEXEC, dir_fd=folder)
        except OSError as error:
            raise (
                _changed(location) if _is_link(name, folder) else _write_error(location, error)
            ) from None
        location.keep(folder)
    return folder


def _is_link(name: str, folder: int) -> bool:
    try:
        return stat.S_ISLNK(os.stat(name, dir_fd=folder, follow_symlinks=False).st_mode)
    except OSError:
        return False


def _mode_of(location: Location, folder: int) -> int:
    try:
        info = os.stat(location.name, dir_fd=folder, follow_symlinks=False)
    except FileNotFoundError:
        return 0o666 & ~files.umask()
    except OSError as error:
        raise _write_error(location, error) from None
    if stat.S_ISDIR(info.st_mode):
        raise WorkspaceError(
            "invalid", _("{path} is a folder, not a file").format(path=location.real)
        )
    if stat.S_ISLNK(info.st_mode):
        raise _changed(location)
    return stat.S_IMODE(info.st_mode)


def _write_by_path(location: Location, data: bytes, create_folders: bool) -> None:
    """Windows: core.atomic's write, its temporary file's handle checked to be where the target
    was checked to lead, before anything is written."""
    target = location.real
    if not target.parent.exists():
        if not create_folders:
            raise WorkspaceError(
                "not_found",
                _("{path} cannot be written: its folder does not exist").format(path=target),
            )
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise _write_error(location, error) from None
    try:
        write_bytes_atomic(
            target,
            data,
            check_opened=lambda fd, temporary: _check_final_path(fd, location, temporary),
        )
    except OSError as error:
        raise _write_error(location, error) from None


def _check_final_path(fd: int, location: Location, opened: Path | None = None) -> None:
    """Windows: the opened file must be where the location was checked to lead."""
    if sys.platform == "win32":
        from app.workspace.files_windows import final_path

        expected = opened if opened is not None else location.real
        if os.path.normcase(final_path(fd)) != os.path.normcase(str(expected)):
            raise _changed(location)


def _changed(location: Location) -> WorkspaceError:
    return WorkspaceError(
        "failed",
        _(
            "{path} changed while it was being written (a link appeared on the way): nothing was "
            "written"
        ).format(path=location.real),
    )


def _write_error(location: Location, error: OSError) -> WorkspaceError:
    path = location.real
    if isinstance(error, IsADirectoryError) or error.errno == errno.EISDIR:
        return WorkspaceError("invalid", _("{path} is a folder, not a file").format(path=path))
    if isinstance(error, PermissionError):
        return WorkspaceError(
            "refused", _("{path} cannot be written: permission denied").format(path=path)
        )
    if isinstance(error, FileNotFoundError):
        return WorkspaceError(
            "not_found", _("{path} cannot be written: its folder does not exist").format(path=path)
        )
    if error.errno == errno.ELOOP:
        return _changed(location)
    return WorkspaceError(
        "failed", _("{path} cannot be written: {reason}").format(path=path, reason=error.strerror)
    )
