"""Checkpoints of a large folder (issue 25): what a snapshot costs, cold, with nothing changed,
with 100 files changed, against `git status --porcelain` on the same tree.

  setup:   a generated Git repository (made with pygit2, its files committed) of FILES small
           text files in 100 directories, in a temporary folder; the store beside it
  anchor:  `git status --porcelain` on the same tree, same run (after one warm-up run, which lets
           git refresh its index), median of ROUNDS
  measure: CheckpointStore.snapshot: the first (cold: every file hashed), then with nothing
           changed (median of ROUNDS), then with 100 files changed; the peak RSS growth over
           the snapshots (memory bounded: files are read one at a time)

Prints the figures, the ratio nothing-changed / git status, and the target (≤ 2× git status and
≤ 300 ms). Without a `git` program the anchor is pygit2's `Repository.status()`, and it says so.

Run: .venv/bin/python bench/checkpoints.py   (50,000 files; `BENCH_FILES` changes them;
     `--tiny`: 500 files, 3 rounds)
"""

from __future__ import annotations

import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import pygit2  # noqa: E402

from app.checkpoints import CheckpointStore  # noqa: E402
from bench.sizes import count, pick  # noqa: E402

FILES = count("BENCH_FILES", 50_000, 500)
ROUNDS = pick(7, 3)
CHANGED = 100
TARGET_RATIO = 2.0
TARGET_MS = 300.0
GIT = shutil.which("git")


def peak_rss_mib() -> float:
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / 1024 / (1024 if sys.platform == "darwin" else 1)


def generate(folder: Path) -> list[Path]:
    repo = pygit2.init_repository(str(folder))
    files = []
    for i in range(FILES):
        path = folder / f"dir{i % 100:03d}" / f"file{i:06d}.txt"
        path.parent.mkdir(exist_ok=True)
        path.write_text(f"file {i}\n" + "some line of text\n" * (i % 20))
        files.append(path)
    (folder / ".gitignore").write_text("*.log\n")
    repo.index.add_all()
    repo.index.write()
    signature = pygit2.Signature("Bench", "bench@example.invalid")
    repo.create_commit("HEAD", signature, signature, "files", repo.index.write_tree(), [])
    repo.free()
    return files


def timed_ms(action: Callable[[], object]) -> float:
    started = time.perf_counter()
    action()
    return (time.perf_counter() - started) * 1000


def anchor(folder: Path) -> Callable[[], object]:
    if GIT:
        command = [GIT, "-C", str(folder), "status", "--porcelain"]
        return lambda: subprocess.run(command, check=True, capture_output=True)
    repo = pygit2.Repository(str(folder))
    return repo.status


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "repo"
        folder.mkdir()
        files = generate(folder)
        store = CheckpointStore(Path(tmp) / "data" / "checkpoints")
        status = anchor(folder)
        status()  # git refreshes its own index once, as a person's repository has
        git_ms = statistics.median(timed_ms(status) for _ in range(ROUNDS))
        rss_before = peak_rss_mib()
        cold_ms = timed_ms(lambda: store.snapshot(folder))
        store.snapshot(folder)  # the files written in the cold one's clock tick are hashed again
        same = [timed_ms(lambda: store.snapshot(folder)) for _ in range(ROUNDS)]
        for path in files[:: max(1, len(files) // CHANGED)][:CHANGED]:
            path.write_text(path.read_text() + "changed\n")
        changed_ms = timed_ms(lambda: store.snapshot(folder))
        growth = peak_rss_mib() - rss_before
        size = store.size_bytes() / 1024 / 1024
    nothing_ms = statistics.median(same)
    name = "git status --porcelain" if GIT else "pygit2 status() (no git program)"
    print(f"checkpoints of a repository of {FILES:,} files")
    print(f"  {name} (anchor) : median {git_ms:9.1f} ms")
    print(f"  first checkpoint (cold)        : {cold_ms:9.1f} ms")
    print(f"  nothing changed                : median {nothing_ms:9.1f} ms  ({ROUNDS} rounds)")
    print(f"  {CHANGED} files changed              : {changed_ms:9.1f} ms")
    print(f"  ratio nothing changed / anchor : {nothing_ms / git_ms:.2f}x")
    print(f"  peak RSS growth                : {growth:.1f} MiB; store {size:.1f} MiB")
    print(f"  target: nothing changed ≤ {TARGET_RATIO:.0f}x the anchor and ≤ {TARGET_MS:.0f} ms")


if __name__ == "__main__":
    main()
