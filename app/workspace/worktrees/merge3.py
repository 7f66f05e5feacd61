"""A three-way merge of one file's lines (diff3): base = the worktree's base commit, ours = the
folder's file now, theirs = the worktree's file. Regions only one side changed are taken from
that side; regions both changed alike are taken once; regions both changed differently are
conflicts, each kept with its three versions so the person picks per hunk."""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from dataclasses import dataclass

Lines = Sequence[bytes]


@dataclass(frozen=True, slots=True)
class Chunk:
    """A region of the merged file: `merged` when it needs no choice, else a conflict with
    the base's, ours' (the folder's) and theirs' (the worktree's) lines."""

    merged: tuple[bytes, ...] | None
    base: tuple[bytes, ...] = ()
    ours: tuple[bytes, ...] = ()
    theirs: tuple[bytes, ...] = ()

    @property
    def conflict(self) -> bool:
        return self.merged is None


def lines(data: bytes) -> list[bytes]:
    return data.splitlines(keepends=True)


def merge(base: Lines, ours: Lines, theirs: Lines) -> list[Chunk]:
    """The merged file as chunks, in order (consecutive clean lines joined)."""
    in_ours, in_theirs = _matches(base, ours), _matches(base, theirs)
    chunks: list[Chunk] = []
    io = ia = ib = 0
    while True:
        j = io
        while j < len(base) and not (j in in_ours and j in in_theirs):
            j += 1
        ja, jb = (in_ours[j], in_theirs[j]) if j < len(base) else (len(ours), len(theirs))
        if (j, ja, jb) != (io, ia, ib):
            chunks.append(_unstable(base[io:j], ours[ia:ja], theirs[ib:jb]))
        if j == len(base):
            break
        start = j
        while j < len(base) and in_ours.get(j) == ja and in_theirs.get(j) == jb:
            j, ja, jb = j + 1, ja + 1, jb + 1
        chunks.append(Chunk(tuple(base[start:j])))
        io, ia, ib = j, ja, jb
    return _joined(chunks)


def _matches(base: Lines, other: Lines) -> dict[int, int]:
    """Base line index -> the other's line index, for the lines the two have in common."""
    matcher = difflib.SequenceMatcher(None, base, other, autojunk=False)
    found: dict[int, int] = {}
    for block in matcher.get_matching_blocks():
        for k in range(block.size):
            found[block.a + k] = block.b + k
    return found


def _unstable(base: Lines, ours: Lines, theirs: Lines) -> Chunk:
    o, a, b = tuple(base), tuple(ours), tuple(theirs)
    if a == o:
        return Chunk(b)
    if b == o or a == b:
        return Chunk(a)
    return Chunk(None, o, a, b)


def _joined(chunks: list[Chunk]) -> list[Chunk]:
    joined: list[Chunk] = []
    for chunk in chunks:
        previous = joined[-1] if joined else None
        if previous is not None and not previous.conflict and not chunk.conflict:
            assert previous.merged is not None and chunk.merged is not None
            joined[-1] = Chunk(previous.merged + chunk.merged)
        elif chunk.conflict or chunk.merged:
            joined.append(chunk)
    return joined


def conflicts(chunks: list[Chunk]) -> list[Chunk]:
    return [c for c in chunks if c.conflict]


def resolved(chunks: list[Chunk], choices: Sequence[str]) -> bytes:
    """The file with each conflict (in order) taken from "theirs" (the worktree's), "ours"
    (the folder's) or "both" (ours, then theirs); clean chunks as merged."""
    out: list[bytes] = []
    picks = iter(choices)
    for chunk in chunks:
        if chunk.merged is not None:
            out.extend(chunk.merged)
            continue
        choice = next(picks)
        if choice == "theirs":
            out.extend(chunk.theirs)
        elif choice == "ours":
            out.extend(chunk.ours)
        else:
            out.extend(chunk.ours + chunk.theirs)
    return b"".join(out)
