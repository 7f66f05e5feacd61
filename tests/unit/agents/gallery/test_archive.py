"""Unpacking an untrusted archive: what is refused (outside paths, links, devices, sizes),
what is kept (the program's executable bit), for each format."""

from __future__ import annotations

import io
import os
import stat
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

from app.agents.gallery import archive
from app.agents.gallery.archive import ArchiveError, archive_format, unpack


def tar_bytes(members: list[tuple[tarfile.TarInfo, bytes]], mode: str = "w:gz") -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode=mode) as tar:  # type: ignore[call-overload]
        for info, data in members:
            tar.addfile(info, io.BytesIO(data) if data else None)
    return buffer.getvalue()


def file_info(name: str, data: bytes, mode: int = 0o755) -> tuple[tarfile.TarInfo, bytes]:
    info = tarfile.TarInfo(name)
    info.size, info.mode = len(data), mode
    return info, data


def link_info(
    name: str, target: str, kind: bytes = tarfile.SYMTYPE
) -> tuple[tarfile.TarInfo, bytes]:
    info = tarfile.TarInfo(name)
    info.type, info.linkname = kind, target
    return info, b""


def write(tmp_path: Path, data: bytes, name: str = "download") -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


@pytest.fixture
def target(tmp_path: Path) -> Path:
    folder = tmp_path / "tree"
    folder.mkdir()
    return folder


@pytest.mark.parametrize(
    ("url", "fmt"),
    [
        ("https://e.com/a.zip", "zip"),
        ("https://e.com/a.tar.gz", "tar.gz"),
        ("https://e.com/a.TGZ?x=1", "tar.gz"),
        ("https://e.com/a.tar.bz2", "tar.bz2"),
        ("https://e.com/codex-acp", "raw"),
    ],
)
def test_the_format_comes_from_the_address(url: str, fmt: str) -> None:
    assert archive_format(url) == fmt


@pytest.mark.parametrize("mode", ["w:gz", "w:bz2"])
def test_a_tar_unpacks_with_the_program_executable(tmp_path: Path, target: Path, mode: str) -> None:
    data = tar_bytes([file_info("bin/tool", b"#!/bin/sh\n", 0o644)], mode)
    fmt = "tar.gz" if mode == "w:gz" else "tar.bz2"
    program = unpack(write(tmp_path, data), fmt, target, "./bin/tool")
    assert program == target / "bin" / "tool"
    assert program.read_bytes() == b"#!/bin/sh\n"
    if sys.platform != "win32":
        assert program.stat().st_mode & stat.S_IXUSR


def test_a_zip_unpacks_and_keeps_its_modes(tmp_path: Path, target: Path) -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zipped:
        info = zipfile.ZipInfo("tool/run")
        info.external_attr = 0o100755 << 16
        zipped.writestr(info, b"x")
        zipped.writestr("tool/data/readme.txt", b"hello")
    program = unpack(write(tmp_path, buffer.getvalue()), "zip", target, "tool/run")
    assert (target / "tool" / "data" / "readme.txt").read_bytes() == b"hello"
    if sys.platform != "win32":
        assert program.stat().st_mode & stat.S_IXUSR


def test_a_raw_binary_is_the_program(tmp_path: Path, target: Path) -> None:
    program = unpack(write(tmp_path, b"\x7fELF"), "raw", target, "./codex-acp")
    assert program == target / "codex-acp"
    assert program.read_bytes() == b"\x7fELF"


@pytest.mark.parametrize(
    "members",
    [
        [file_info("../evil", b"x")],
        [file_info("/etc/evil", b"x")],
        [file_info("ok/../../evil", b"x")],
        [link_info("bin/tool", "/etc/passwd")],
        [link_info("bin/tool", "../../outside")],
        [link_info("bin/tool", "/etc/passwd", tarfile.LNKTYPE)],
    ],
    ids=["dotdot", "absolute", "nested-dotdot", "symlink-abs", "symlink-up", "hardlink-abs"],
)
def test_tar_members_that_leave_the_folder_are_refused(
    tmp_path: Path, target: Path, members: list[tuple[tarfile.TarInfo, bytes]]
) -> None:
    with pytest.raises(ArchiveError):
        unpack(write(tmp_path, tar_bytes(members)), "tar.gz", target, "bin/tool")
    assert not (tmp_path / "evil").exists()
    assert not (tmp_path.parent / "evil").exists()


def test_a_device_file_in_a_tar_is_refused(tmp_path: Path, target: Path) -> None:
    info = tarfile.TarInfo("bin/tool")
    info.type = tarfile.CHRTYPE
    with pytest.raises(ArchiveError, match="may not be unpacked"):
        unpack(write(tmp_path, tar_bytes([(info, b"")])), "tar.gz", target, "bin/tool")


def test_a_link_inside_the_folder_is_kept_but_cannot_be_the_program(
    tmp_path: Path, target: Path
) -> None:
    data = tar_bytes([file_info("bin/real", b"x"), link_info("bin/tool", "real")])
    if sys.platform == "win32":
        pytest.skip("symlinks are a privilege on Windows")
    with pytest.raises(ArchiveError, match="no program"):
        unpack(write(tmp_path, data), "tar.gz", target, "bin/tool")
    assert (target / "bin" / "tool").is_symlink()


@pytest.mark.parametrize(
    "name",
    ["../evil", "/abs/evil", "C:/evil", "a/../../evil"],
    ids=["up", "abs", "drive", "nested"],
)
def test_zip_slip_is_refused(tmp_path: Path, target: Path, name: str) -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zipped:
        zipped.writestr(zipfile.ZipInfo(name), b"x")
    with pytest.raises(ArchiveError, match="outside its folder"):
        unpack(write(tmp_path, buffer.getvalue()), "zip", target, "tool")
    assert not (tmp_path / "evil").exists()


def test_a_link_in_a_zip_is_refused(tmp_path: Path, target: Path) -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as zipped:
        info = zipfile.ZipInfo("tool")
        info.external_attr = (stat.S_IFLNK | 0o777) << 16
        zipped.writestr(info, b"/etc/passwd")
    with pytest.raises(ArchiveError, match="link"):
        unpack(write(tmp_path, buffer.getvalue()), "zip", target, "tool")


def test_sizes_and_counts_are_capped(
    tmp_path: Path, target: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(archive, "MAX_UNPACKED_BYTES", 1000)
    big = tar_bytes([file_info("bin/tool", b"\0" * 2000)])
    with pytest.raises(ArchiveError, match="unpacks to more than"):
        unpack(write(tmp_path, big), "tar.gz", target, "bin/tool")
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zipped:
        zipped.writestr("tool", b"\0" * 5000)
    with pytest.raises(ArchiveError, match="unpacks to more than"):
        unpack(write(tmp_path, buffer.getvalue(), "z"), "zip", target, "tool")
    monkeypatch.setattr(archive, "MAX_MEMBERS", 3)
    many = tar_bytes([file_info(f"f{i}", b"x") for i in range(5)])
    with pytest.raises(ArchiveError, match="more than 3 files"):
        unpack(write(tmp_path, many, "m"), "tar.gz", target, "f0")


def test_a_broken_archive_and_a_missing_program_are_said(tmp_path: Path, target: Path) -> None:
    with pytest.raises(ArchiveError, match="could not be unpacked"):
        unpack(write(tmp_path, b"not a tar"), "tar.gz", target, "x")
    data = tar_bytes([file_info("bin/other", b"x")])
    with pytest.raises(ArchiveError, match="no program `bin/tool`"):
        unpack(write(tmp_path, data, "b"), "tar.gz", target, "bin/tool")
    assert os.path.isdir(target)
