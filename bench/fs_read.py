"""`fs/read_text_file` of a 10 MB file through a real agent connection (issue 15).

  setup:   a headless Sidekicks whose agent is tests/fakes/workspace_agent.py (a real process,
           real pipes, the ACP SDK on our side), and a 10 MB UTF-8 text file in its folder
  measure: the agent sends `fs/read_text_file` for the whole file ROUNDS times; each request's
           round trip is timed by the agent (request sent → answer parsed: our read, UTF-8
           check, hash, the JSON-RPC answer written, and the agent reading it); median and max
  anchor:  a plain Python read of the same file (`open(path, encoding="utf-8").read()`)
  memory:  this process's peak resident size (ru_maxrss) before and after the reads, and the
           peak Python allocation during one read (tracemalloc, measured on its own round)

Prints the figures and the ratio to the anchor. `BENCH_MB` changes the file's size.
Temporary files are removed.

Run: .venv/bin/python bench/fs_read.py   (`--tiny`: a 0.2 MB file, 3 rounds)
"""

from __future__ import annotations

import json
import os
import resource
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app import Sidekicks  # noqa: E402
from bench.sizes import pick, sized  # noqa: E402
from tests.waiting import EventLog  # noqa: E402

MB = sized("BENCH_MB", 10, 0.2)
ROUNDS = pick(10, 3)
AGENT = ROOT / "tests" / "fakes" / "workspace_agent.py"


def make_file(path: Path) -> None:
    line = "def function_{i}(value):  # a line of code, with ünïcödé now and then\n"
    with open(path, "wb") as f:
        written, i = 0, 0
        while written < MB * 1_000_000:
            written += f.write(line.format(i=i).encode())
            i += 1


def plain_read(path: Path) -> float:
    started = time.perf_counter()
    with open(path, encoding="utf-8") as f:
        f.read()
    return time.perf_counter() - started


def reads(sk: Sidekicks, log: EventLog, channel: str, path: Path, count: int) -> list[Any]:
    """The agent's report of `count` quiet reads of `path` in one turn."""
    mark = log.mark()
    sk.api.ChannelService.Send(channel, json.dumps([{"read": str(path), "quiet": True}] * count))
    message = log.wait(
        "message:updated",
        lambda p: p["channel"] == channel and p["message"]["role"] == "agent"
        and p["message"]["done"],
        timeout=300,
        since=mark,
    )["message"]  # fmt: skip
    text = "".join(p.get("text", "") for p in message["parts"] if p["kind"] == "text")
    results = [json.loads(line) for line in text.splitlines() if line.strip()]
    failed = [r for r in results if "error" in r]
    if failed:
        raise SystemExit(f"a read failed: {failed[0]}")
    return results


def peak_rss_mb() -> float:
    kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux, bytes on macOS
    return kb / (1024 * 1024) if sys.platform == "darwin" else kb / 1024


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        os.environ["XDG_CONFIG_HOME"] = str(root / "xdg")  # history in the temporary folder
        work = root / "work"
        work.mkdir()
        path = work / "big.py"
        make_file(path)
        size = path.stat().st_size
        config = root / "bench.yaml"
        command = json.dumps([sys.executable, str(AGENT)])
        config.write_text(f"agents:\n  - name: reader\n    command: {command}\n    cwd: work\n")
        anchors = [plain_read(path) for _ in range(ROUNDS)]
        sk = Sidekicks(config=config).start()
        try:
            log = EventLog()
            sk.events.subscribe(log)
            channel = sk.api.ChannelService.Direct("reader").id
            reads(sk, log, channel, path, 1)  # warm: the agent started, its session open
            rss_before = peak_rss_mb()
            results = reads(sk, log, channel, path, ROUNDS)
            rss_after = peak_rss_mb()
            tracemalloc.start()
            reads(sk, log, channel, path, 1)
            _current, traced_peak = tracemalloc.get_traced_memory()
            tracemalloc.stop()
        finally:
            sk.close()
    seconds = [r["seconds"] for r in results]
    assert all(r["chars"] > 0 for r in results)
    median, anchor = statistics.median(seconds), statistics.median(anchors)
    print(f"fs/read_text_file of a {size / 1e6:.1f} MB file, {ROUNDS} rounds")
    print(f"  through the agent connection : median {median * 1000:8.1f} ms, "
          f"max {max(seconds) * 1000:8.1f} ms ({size / 1e6 / median:6.1f} MB/s)")  # fmt: skip
    print(f"  plain Python read (anchor)   : median {anchor * 1000:8.1f} ms")
    print(f"  ratio connection/anchor      : {median / anchor:.1f}x")
    print(f"  peak RSS of the app process  : {rss_before:.0f} MB before, {rss_after:.0f} MB after "
          f"(+{rss_after - rss_before:.0f} MB for {ROUNDS} reads)")  # fmt: skip
    print(f"  peak Python allocations, one read (tracemalloc): {traced_peak / 1e6:.0f} MB "
          f"= {traced_peak / size:.1f}x the file")  # fmt: skip


if __name__ == "__main__":
    main()
