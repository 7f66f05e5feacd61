"""Finding the file an agent names without following a link nobody checked.

A check on a path and a later open of that path can see two different files: between them an
agent can swap a folder on the way for a symbolic link to anywhere (issue 24: 33 of 38 writes
landed outside the agent's folders that way). So on POSIX a path is walked one component at a
time from directory handles — `os.open(name, O_DIRECTORY | O_NOFOLLOW, dir_fd=parent)`, as
`openat` does. A component that is a link is read (`readlink`) and its target walked the same
way, so the real path computed is the path of the handle held, and `Location.folder` is a
handle on the very folder that was checked. Reads, temporary files, renames and deletes then
happen relative to that handle (files.py): replacing a folder on the way by a link after the
check changes nothing, the file lands in the folder that was checked.

What a handle cannot stop: the checked folder itself being *moved* elsewhere (a rename) by the
agent's own process while the write happens. The write then lands in that moved folder — which
the agent could have written itself before moving it: Sidekicks adds no reach by it.

Windows has no `openat` in Python: the real path is `os.path.realpath` (links and junctions
resolved) and files.py checks the handle of the file it opened (GetFinalPathNameByHandle)
against it; see files_windows.py.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import sys
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from app.acp.workspace import WorkspaceError
from app.i18n import _

# As Linux's MAXSYMLINKS: past this many links on one path, it is a loop.
MAX_LINKS = 40
WALKS_HANDLES = sys.platform != "win32"  # POSIX: walked from directory handles
_DIRECTORY = getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0) | os.O_RDONLY
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)


@dataclass
class Location:
    """Where a path leads: `real` with every link resolved; `folder`, a handle on the deepest
    existing folder on the way (POSIX; -1 on Windows); `missing`, the folders to create below
    it before the file; `name`, the file's name in its folder."""

    asked: Path
    real: Path
    through_link: bool
    name: str
    folder: int = -1
    missing: tuple[str, ...] = ()
    _handles: list[int] = field(default_factory=list, repr=False)

    def keep(self, handle: int) -> None:
        """Closes `handle` with the location (a folder opened on its way)."""
        self._handles.append(handle)

    def close(self) -> None:
        for handle in self._handles:
            with contextlib.suppress(OSError):
                os.close(handle)
        self._handles.clear()


def locate(asked: Path) -> Location:
    """Where `asked` (absolute, normalised: files.absolute) leads now; the caller closes it.
    A folder on the way that is a file, a loop of links, or a part that vanished while it was
    walked is a `WorkspaceError` naming the path."""
    return _walk(asked) if WALKS_HANDLES else _resolve(asked)


@contextlib.contextmanager
def located(asked: Path) -> Iterator[Location]:
    """`locate`, closed on exit."""
    location = locate(asked)
    try:
        yield location
    finally:
        location.close()


def _resolve(asked: Path) -> Location:
    real = Path(os.path.realpath(asked))
    through_link = os.path.normcase(real) != os.path.normcase(asked)
    return Location(asked=asked, real=real, through_link=through_link, name=real.name)


class _Walk:
    """The state of one walk: the handles from `/` down, and the real components they hold."""

    def __init__(self, asked: Path) -> None:
        self.asked = asked
        self.handles: list[int] = [os.open("/", _DIRECTORY | _CLOEXEC)]
        self.real: list[str] = []
        self.links = 0

    def close_all(self) -> None:
        for handle in self.handles:
            with contextlib.suppress(OSError):
                os.close(handle)
        self.handles.clear()

    def up(self) -> None:
        if self.real:  # `..` of `/` is `/`
            os.close(self.handles.pop())
            self.real.pop()

    def follow(self, name: str, rest: deque[str]) -> None:
        """Puts the link `name`'s target in front of what is left to walk."""
        self.links += 1
        if self.links > MAX_LINKS:
            raise WorkspaceError(
                "invalid", _("{path} leads through too many links").format(path=self.asked)
            )
        try:
            target = os.readlink(name, dir_fd=self.handles[-1])
        except OSError as error:
            raise _vanished(self.asked, error) from None
        if os.path.isabs(target):
            for handle in self.handles[1:]:
                os.close(handle)
            del self.handles[1:]
            self.real.clear()
        rest.extendleft(reversed(target.split("/")))

    def retry(self, name: str, rest: deque[str]) -> None:
        """Looks at `name` again (it changed between the look and the open), counted as a
        link so that an agent flipping it for ever cannot keep the walk going."""
        self.links += 1
        if self.links > MAX_LINKS:
            raise _vanished(self.asked, FileNotFoundError())
        rest.appendleft(name)

    def real_path(self, *below: str) -> Path:
        return Path("/" + "/".join([*self.real, *below]))


def _walk(asked: Path) -> Location:
    walk = _Walk(asked)
    try:
        return _walk_from(walk, deque(asked.parts[1:]))
    except BaseException:
        walk.close_all()
        raise


def _walk_from(walk: _Walk, rest: deque[str]) -> Location:
    through_link = False
    while rest:
        name = rest.popleft()
        if name in ("", "."):
            continue
        if name == "..":
            walk.up()
            continue
        kind = _kind(walk, name)
        if kind == "link":
            walk.follow(name, rest)
            through_link = True
            continue
        if not _more(rest):
            return _location(walk, name, through_link)
        if kind == "missing":
            return _location(walk, _last(rest), through_link, missing=(name, *_folders(rest)))
        if kind != "folder":
            raise WorkspaceError(
                "invalid",
                _("{path} cannot be reached: {part} is not a folder").format(
                    path=walk.asked, part=walk.real_path(name)
                ),
            )
        try:
            walk.handles.append(os.open(name, _DIRECTORY | _CLOEXEC, dir_fd=walk.handles[-1]))
        except OSError as error:
            if error.errno in (errno.ELOOP, errno.ENOTDIR, errno.ENOENT):
                walk.retry(name, rest)  # swapped since it was looked at: look again
                continue
            raise _unreadable(walk.asked, error) from None
        walk.real.append(name)
    raise WorkspaceError("invalid", _("{path} is a folder, not a file").format(path=walk.asked))


def _kind(walk: _Walk, name: str) -> str:
    try:
        info = os.stat(name, dir_fd=walk.handles[-1], follow_symlinks=False)
    except FileNotFoundError:
        return "missing"
    except OSError as error:
        raise _unreadable(walk.asked, error) from None
    if stat.S_ISLNK(info.st_mode):
        return "link"
    return "folder" if stat.S_ISDIR(info.st_mode) else "other"


def _more(rest: deque[str]) -> bool:
    """Whether a component other than `.` and `` is left (a trailing `/x/.` names x)."""
    return any(part not in ("", ".") for part in rest)


def _folders(rest: deque[str]) -> tuple[str, ...]:
    """The missing folders below a missing one: nothing exists there, so `..` is lexical."""
    names: list[str] = []
    parts = [p for p in rest if p not in ("", ".")]
    for part in parts[:-1]:
        if part == "..":
            if names:
                names.pop()
        else:
            names.append(part)
    return tuple(names)


def _last(rest: deque[str]) -> str:
    return [p for p in rest if p not in ("", ".")][-1]


def _location(
    walk: _Walk, name: str, through_link: bool, missing: tuple[str, ...] = ()
) -> Location:
    if name == "..":
        raise WorkspaceError("invalid", _("{path} is a folder, not a file").format(path=walk.asked))
    folder = walk.handles[-1]
    for handle in walk.handles[:-1]:
        os.close(handle)
    location = Location(
        asked=walk.asked,
        real=walk.real_path(*missing, name),
        through_link=through_link,
        name=name,
        folder=folder,
        missing=missing,
    )
    location.keep(folder)
    walk.handles.clear()
    return location


def _vanished(asked: Path, error: OSError) -> WorkspaceError:
    if isinstance(error, FileNotFoundError) or error.errno == errno.EINVAL:
        return WorkspaceError(
            "failed",
            _("{path} changed while it was being opened (a part of it vanished): try again").format(
                path=asked
            ),
        )
    return _unreadable(asked, error)


def _unreadable(asked: Path, error: OSError) -> WorkspaceError:
    if isinstance(error, PermissionError):
        return WorkspaceError(
            "refused", _("{path} cannot be reached: permission denied").format(path=asked)
        )
    return WorkspaceError(
        "failed",
        _("{path} cannot be reached: {reason}").format(path=asked, reason=error.strerror),
    )
