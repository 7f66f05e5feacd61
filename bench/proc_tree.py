"""The processes under a pid, from /proc (Linux only, like the benchmarks' offscreen windows)."""

from __future__ import annotations

import array
import os
import re
from dataclasses import dataclass
from pathlib import Path


def parent_of(pid: int) -> int | None:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return int(stat[stat.rindex(")") + 2 :].split()[1])


def descendants(pid: int) -> list[int]:
    """Every process under `pid` (not `pid` itself), from /proc/*/stat's parent ids."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        ppid = int(stat[stat.rindex(")") + 2 :].split()[1])
        children.setdefault(ppid, []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def process_kind(pid: int, parent_kind: str = "") -> str:
    """What a process of the window's tree is: QtWebEngine's renderer, gpu, utility (its
    network service…), zygote, or the program's name. A zygote's child that has not rewritten
    its command line (it keeps the zygote's) is a renderer: that is all a zygote forks here."""
    try:
        argv = Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")
    except OSError:
        return "gone"
    found = re.search(r"--type=([^\s\0]+)", argv)
    kind = found[1] if found else Path(argv.split("\0")[0].split(" ")[0]).name or "?"
    if kind == "zygote" and parent_kind == "zygote":
        return "renderer"
    return "gpu" if kind == "gpu-process" else kind


@dataclass(frozen=True)
class Member:
    kind: str  # "python" for the tree's root, else process_kind
    pss: int  # KiB: shared pages split between every process using them, on the machine
    anon: int  # KiB: anonymous memory (heaps, JS heap): what other programs never change


def memory_of(pid: int, kind: str) -> Member | None:
    """`pid`'s PSS and USS from /proc/<pid>/smaps_rollup; None when it is gone."""
    try:
        rollup = Path(f"/proc/{pid}/smaps_rollup").read_text()
    except OSError:
        return None
    values = {key: int(kib) for key, kib in re.findall(r"(?m)^(\w+):\s+(\d+) kB", rollup)}
    return Member(kind, values.get("Pss", 0), values.get("Anonymous", 0))


def tree_memory(pid: int) -> list[Member]:
    """Each live process of `pid`'s tree, `pid` itself first (kind "python")."""
    found = []
    kinds = {pid: "python"}
    for member in descendants(pid):  # parents before their children
        kinds[member] = process_kind(member, kinds.get(parent_of(member) or 0, ""))
    for member, kind in kinds.items():
        memory = memory_of(member, kind)
        if memory is not None:
            found.append(memory)
    return found


_PAGE = os.sysconf("SC_PAGE_SIZE")
_PRESENT = 1 << 63
_PFN = (1 << 55) - 1


def footprint_kib(pids: list[int]) -> int | None:
    """The tree's memory as PSS reads it with nothing else running: each physical page mapped
    by any of `pids` counted once (from /proc/<pid>/pagemap's page frame numbers). PSS splits a
    library's pages with every other process that maps them, so another window of the same
    Qt, started or ended meanwhile, moves a PSS figure by tens of MB; this one stays put.
    None without the right to read frame numbers (root, or CAP_SYS_ADMIN)."""
    seen: set[int] = set()
    for pid in pids:
        try:
            with open(f"/proc/{pid}/pagemap", "rb", buffering=0) as pagemap:
                for start, end in _resident_ranges(pid):
                    pagemap.seek(start // _PAGE * 8)
                    entries = array.array("Q", pagemap.read((end - start) // _PAGE * 8))
                    seen.update(entry & _PFN for entry in entries if entry & _PRESENT)
        except OSError:
            continue  # gone meanwhile
    seen.discard(0)  # what an unprivileged reader gets for every page
    return len(seen) * _PAGE // 1024 if seen else None


def _resident_ranges(pid: int) -> list[tuple[int, int]]:
    """The address ranges of `pid`'s mappings that have pages in memory."""
    ranges, current = [], (0, 0)
    with open(f"/proc/{pid}/smaps") as smaps:
        for line in smaps:
            head = _RANGE.match(line)
            if head:
                current = (int(head[1], 16), int(head[2], 16))
            elif line.startswith("Rss:") and line.split()[1] != "0":
                ranges.append(current)
    return ranges


_RANGE = re.compile(r"^([0-9a-f]+)-([0-9a-f]+) ")
