"""Reads a Git index file's entries (format version 2 or 3, what libgit2 writes): the stat data
each entry keeps, to check that the store's stat cache is what a snapshot relies on."""

from __future__ import annotations

import struct
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Entry:
    path: str
    ctime: tuple[int, int]
    mtime: tuple[int, int]
    dev: int
    ino: int
    size: int
    blob: str


def entries(index: Path) -> list[Entry]:
    data = index.read_bytes()
    signature, version, count = struct.unpack(">4sII", data[:12])
    assert signature == b"DIRC" and version in (2, 3), (signature, version)
    found = []
    offset = 12
    for _ in range(count):
        fields = struct.unpack(">10I20sH", data[offset : offset + 62])
        flags = fields[11]
        header = 62 + (2 if version == 3 and flags & 0x4000 else 0)
        end = data.index(b"\0", offset + header)
        path = data[offset + header : end].decode("utf-8")
        found.append(
            Entry(
                path,
                ctime=(fields[0], fields[1]),
                mtime=(fields[2], fields[3]),
                dev=fields[4],
                ino=fields[5],
                size=fields[9],
                blob=fields[10].hex(),
            )
        )
        # Each entry is padded with 1 to 8 NULs to a multiple of 8 bytes.
        offset += (end - offset + 8) // 8 * 8
    return found
