"""Exporting a channel of 1,000,000 messages (issue 17): Markdown, HTML and JSON written to a
file the way SaveExport writes them (pages read off the history oldest first, pieces written as
they are made), beside the raw read of the same records.

  build:   the channel of bench/history.py (realistic one-text-part messages, written raw)
  anchor:  a py-lmdb cursor walking the channel's records as bytes, nothing decoded
  also:    reading every message as models (`stored_messages`, what each export iterates)
  each:    the time, the file's size, and the process's peak anonymous memory (RssAnon, sampled
           every 20 ms: LMDB's file-backed map is not counted) above what it was before
  heap:    the Markdown export once more under tracemalloc: the Python heap's peak while it
           runs (the page-at-a-time claim: it must not grow with the channel)

Prints the figures and the ratios to the anchor. `BENCH_MESSAGES` changes the channel's size.
Temporary files are removed.

Run: .venv/bin/python bench/export.py   (`--tiny`: bench/history.py's tiny channel, 2,000
     messages)
"""

from __future__ import annotations

import sys
import tempfile
import threading
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import lmdb

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.channels.export import html_doc, json_doc, markdown  # noqa: E402
from app.channels.export.reading import stored_messages  # noqa: E402
from app.channels.export.saving import write_document  # noqa: E402
from app.core.ids import new_id  # noqa: E402
from app.history.lmdb_format import MAX_DBS, TIMELINE_DB  # noqa: E402
from app.history.lmdb_store import LmdbHistory  # noqa: E402
from app.models.conversation import Channel  # noqa: E402
from bench.history import MESSAGES, build  # noqa: E402


def rss_anon_kib() -> int:
    """The process's anonymous resident memory (Linux); 0 elsewhere."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("RssAnon:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def measured(work: Callable[[], object]) -> tuple[float, int]:
    """Seconds taken, and the peak anonymous memory above the start (KiB)."""
    start_rss, peak, done = rss_anon_kib(), [0], threading.Event()

    def sample() -> None:
        while not done.wait(0.02):
            peak[0] = max(peak[0], rss_anon_kib())

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    start = time.perf_counter()
    work()
    seconds = time.perf_counter() - start
    done.set()
    sampler.join()
    return seconds, max(peak[0], rss_anon_kib()) - start_rss


def raw_walk(folder: Path, channel_id: str) -> int:
    env = lmdb.open(str(folder), readonly=True, lock=False, max_dbs=MAX_DBS)
    try:
        timeline = env.open_db(TIMELINE_DB)
        prefix, count = channel_id.encode(), 0
        with env.begin(db=timeline) as txn:
            cursor = txn.cursor()
            if cursor.set_range(prefix):
                for key, _value in cursor:
                    if not key.startswith(prefix):
                        break
                    count += 1
    finally:
        env.close()
    return count


def main() -> None:
    channel_id, neighbour_id = new_id(), new_id()
    channel = Channel(id=channel_id, name="bench")
    with tempfile.TemporaryDirectory(prefix="sidekicks-bench-export-") as temp:
        folder = Path(temp) / "history"
        start = time.perf_counter()
        build(folder, channel_id, neighbour_id)
        print(f"channel: {MESSAGES:,} messages, built in {time.perf_counter() - start:.1f} s")

        counted: list[int] = []
        raw, _ = measured(lambda: counted.append(raw_walk(folder, channel_id)))
        assert counted == [MESSAGES]
        print(f"raw cursor, every record as bytes   {raw:7.2f} s   (anchor)")

        history = LmdbHistory(folder)
        try:
            read, read_mem = measured(lambda: sum(1 for _ in stored_messages(history, channel_id)))
            print(
                f"stored_messages (models)            {read:7.2f} s   {read / raw:5.1f}x   "
                f"peak +{read_mem / 1024:.0f} MiB"
            )
            for name, document in (
                ("markdown", markdown.document),
                ("html", html_doc.document),
                ("json", json_doc.document),
            ):
                target = Path(temp) / f"export.{name}"
                seconds, memory = measured(
                    lambda d=document, t=target: write_document(  # type: ignore[misc]
                        str(t), d(channel, stored_messages(history, channel_id))
                    )
                )
                size = target.stat().st_size
                target.unlink()
                print(
                    f"export {name:<8} to a file          {seconds:7.2f} s   "
                    f"{seconds / raw:5.1f}x   {size / 2**20:6.0f} MiB written   "
                    f"peak +{memory / 1024:.0f} MiB"
                )
            target = Path(temp) / "export.md"
            tracemalloc.start()
            write_document(
                str(target), markdown.document(channel, stored_messages(history, channel_id))
            )
            _current, heap_peak = tracemalloc.get_traced_memory()
            tracemalloc.stop()
            target.unlink()
            print(f"markdown export, Python heap peak   {heap_peak / 2**20:.1f} MiB (tracemalloc)")
            print(f"RssAnon at the end                  {rss_anon_kib() / 1024:.0f} MiB")
        finally:
            history.close()


if __name__ == "__main__":
    main()
