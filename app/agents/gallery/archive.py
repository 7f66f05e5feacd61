"""Unpacking a downloaded agent archive, which is untrusted: .zip, .tar.gz/.tgz, .tar.bz2, or
the program itself (a raw binary).

Nothing may land outside the target folder: no absolute member, no `..`, no link pointing
outside (tar: Python's `data` extraction filter, which also refuses device files and clears
set-uid bits; zip: links are refused outright, as zip has no portable way to say one), at most
`MAX_MEMBERS` members and `MAX_UNPACKED_BYTES` in all. The caller unpacks into a fresh
temporary folder and removes it on any error (installs.py).
"""

from __future__ import annotations

import os
import shutil
import stat
import sys
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Literal
from urllib.parse import unquote, urlsplit

from app.core.lazy import LazyModule
from app.i18n import _

if TYPE_CHECKING:
    import tarfile
    import zipfile
else:  # with the first binary install, not with the window
    tarfile = LazyModule("tarfile")
    zipfile = LazyModule("zipfile")

ArchiveFormat = Literal["zip", "tar.gz", "tar.bz2", "raw"]
MAX_MEMBERS = 20_000
MAX_UNPACKED_BYTES = 2 * 1024 * 1024 * 1024
_CHUNK = 1024 * 1024


class ArchiveError(Exception):
    """The archive cannot be unpacked safely; the message is a sentence for the person."""


def archive_format(url: str) -> ArchiveFormat:
    name = unquote(urlsplit(url).path).lower()
    if name.endswith(".zip"):
        return "zip"
    if name.endswith((".tar.gz", ".tgz")):
        return "tar.gz"
    if name.endswith((".tar.bz2", ".tbz2")):
        return "tar.bz2"
    return "raw"


def unpack(archive: Path, fmt: ArchiveFormat, target: Path, cmd: str) -> Path:
    """Unpacks `archive` into the (new, empty) folder `target`; the program `cmd` names, which
    must be a regular file inside it, is made executable. Returns its path."""
    if fmt == "zip":
        _unzip(archive, target)
    elif fmt == "raw":
        program = target / PurePosixPath(cmd.replace("\\", "/")).name
        shutil.copyfile(archive, program)
    else:
        _untar(archive, target, "r:gz" if fmt == "tar.gz" else "r:bz2")
    program = target.joinpath(*PurePosixPath(cmd.replace("\\", "/")).parts)
    try:
        inside = program.resolve().is_relative_to(target.resolve())
        info = program.lstat()
    except OSError:
        inside, info = False, None
    if not inside or info is None or not stat.S_ISREG(info.st_mode):
        raise ArchiveError(_("the archive has no program {cmd}").format(cmd=f"`{cmd}`"))
    if sys.platform != "win32":
        program.chmod(info.st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return program


def _member_path(name: str) -> PurePosixPath:
    path = PurePosixPath(name.replace("\\", "/"))
    if path.is_absolute() or ".." in path.parts or (path.parts and ":" in path.parts[0]):
        raise ArchiveError(
            _("the archive holds a file outside its folder: {name}").format(name=name)
        )
    return path


def _untar(archive: Path, target: Path, mode: Literal["r:gz", "r:bz2"]) -> None:
    try:
        with tarfile.open(archive, mode) as tar:
            members = []
            total = 0
            for member in tar:  # read one header at a time: the counts stop a bomb early
                _member_path(member.name)
                total += max(member.size, 0)
                members.append(member)
                _check_caps(len(members), total)
            for member in members:
                try:
                    tar.extract(member, target, filter="data")
                except tarfile.FilterError as err:
                    raise ArchiveError(
                        _("the archive holds a file that may not be unpacked: {name}").format(
                            name=member.name
                        )
                    ) from err
    except (tarfile.TarError, EOFError, OSError) as err:
        raise ArchiveError(
            _("the archive could not be unpacked: {error}").format(error=err)
        ) from err


def _unzip(archive: Path, target: Path) -> None:
    try:
        with zipfile.ZipFile(archive) as zipped:
            infos = zipped.infolist()
            _check_caps(len(infos), sum(max(i.file_size, 0) for i in infos))
            written = 0
            for info in infos:
                path = _member_path(info.filename)
                mode = info.external_attr >> 16
                if stat.S_ISLNK(mode):
                    raise ArchiveError(
                        _("the archive holds a link, which is not unpacked: {name}").format(
                            name=info.filename
                        )
                    )
                destination = target.joinpath(*path.parts)
                if info.is_dir():
                    destination.mkdir(parents=True, exist_ok=True)
                    continue
                destination.parent.mkdir(parents=True, exist_ok=True)
                with zipped.open(info) as source, destination.open("xb") as out:
                    while chunk := source.read(_CHUNK):
                        written += len(chunk)  # counted as written: a header may lie
                        _check_caps(0, written)
                        out.write(chunk)
                if mode & stat.S_IXUSR and os.name != "nt":
                    destination.chmod(0o755)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, EOFError, OSError) as err:
        raise ArchiveError(
            _("the archive could not be unpacked: {error}").format(error=err)
        ) from err


def _check_caps(members: int, size: int) -> None:
    if members > MAX_MEMBERS:
        raise ArchiveError(_("the archive holds more than {count} files").format(count=MAX_MEMBERS))
    if size > MAX_UNPACKED_BYTES:
        raise ArchiveError(
            _("the archive unpacks to more than {size} GiB").format(size=MAX_UNPACKED_BYTES >> 30)
        )
