"""History reads on a channel of 1,000,000 messages, beside raw LMDB reads of the same records.

  build:   1,000,000 realistic messages (one text part, user and agent turns) in one channel,
           and a newer neighbouring channel, written raw in large transactions with the store's
           own key layout and encoding (a bench-only fast path: the reads are what is measured)
  reads:   `ChannelService.Conversation(ch)` and `Older(ch, random id)` as pywebview's bridge
           runs them (the page API's method: the call, then the JSON text sent to the page),
           on a headless Sidekicks whose history is that database; median and p99
  anchor:  a py-lmdb cursor reading the same 100 records as bytes, nothing decoded
  also:    opening the database; the history's typed reads (`last_messages`,
           `messages_before`: records decoded into models, what the agents' context uses);
           decoding 100 stored messages alone; one durable add_message
  growth:  a new history written until its map reaches `BENCH_GROWTH_MIB` (64) from its
           1 MiB start: the durable add_message that grows the map (MapFullError, aborted
           transaction, set_mapsize, the write again) beside the median one that does not

Prints the figures and the ratios (targets: Conversation under 5 ms median, within 3x of the
raw read). `BENCH_MESSAGES` changes the channel's size. Temporary files are removed.

Run: .venv/bin/python bench/history.py   (`--tiny`: 2,000 messages, 20 calls a figure, a 2 MiB
     map to grow to)
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from itertools import islice
from pathlib import Path

import lmdb

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app import Sidekicks  # noqa: E402
from app.bridge.results import page_api  # noqa: E402
from app.core.ids import new_id  # noqa: E402
from app.history.base import (  # noqa: E402
    PAGE,
    StoredChannel,
)
from app.history.lmdb_format import (  # noqa: E402
    FORMAT,
    FORMAT_KEY,
    MAX_DBS,
    META_DB,
    POSITIONS_DB,
    TIMELINE_DB,
    position_bytes,
)
from app.history.lmdb_store import LmdbHistory  # noqa: E402
from app.history.records import decode_messages, encode_message  # noqa: E402
from app.models.conversation import Channel, Message, Part  # noqa: E402
from app.paths import data_dir  # noqa: E402
from bench.sizes import count, pick  # noqa: E402

# Tiny: still more than a page (100) and past the 500th message, where the sample of ids starts.
MESSAGES = count("BENCH_MESSAGES", 1_000_000, 2000)
GROWTH_MAP = count("BENCH_GROWTH_MIB", 64, 2) << 20
NEIGHBOUR_MESSAGES = pick(1000, 200)
BATCH = 50_000
CALLS = pick(200, 20)
WRITES = pick(100, 10)
WORDS = ["the", "a", "to", "of", "agent", "file", "test", "build", "fix", "run", "code", "error"]


def realistic_message(channel_id: str, index: int, rng: random.Random) -> Message:
    agent_turn = index % 2 == 1
    text = " ".join(rng.choices(WORDS, k=rng.randint(4, 60)))
    return Message(
        id=new_id(),
        channel=channel_id,
        created_at="2025-01-02T03:04:05.678Z",
        role="agent" if agent_turn else "user",
        agent="claude" if agent_turn else "",
        parts=[Part(kind="text", text=text)],
        stop_reason="end_turn" if agent_turn else None,
    )


Record = tuple[tuple[bytes, bytes], tuple[bytes, bytes]]  # (timeline item, positions item)


def records(channel_id: str, count: int, sample: list[str]) -> Iterator[Record]:
    """The channel's records in key order, with the store's layout (app/history/lmdb_format);
    every 1000th id goes to `sample`."""
    rng = random.Random(channel_id)
    prefix = channel_id.encode()
    for index in range(count):
        message = realistic_message(channel_id, index, rng)
        if index % 1000 == 500:
            sample.append(message.id)
        position = position_bytes(index + 1)
        yield (prefix + position, encode_message(message)), (prefix + message.id.encode(), position)


def build(folder: Path, channel_id: str, neighbour_id: str) -> list[str]:
    """Writes both channels raw, in batches; returns a sample of the big channel's ids."""
    sample: list[str] = []
    # ~600 bytes a message on disk: 1 KiB each leaves room without an 8 GiB file where the
    # map takes its full size on disk (Windows).
    size = (MESSAGES + NEIGHBOUR_MESSAGES) * 1024 + (64 << 20)
    env = lmdb.open(str(folder), map_size=size, max_dbs=MAX_DBS)
    try:
        timeline, positions = env.open_db(TIMELINE_DB), env.open_db(POSITIONS_DB)
        with env.begin(write=True) as txn:
            txn.put(FORMAT_KEY, str(FORMAT).encode(), db=env.open_db(META_DB, txn=txn))
        # Ids and positions both grow, and the big channel's id is the older: keys come in
        # order, so each batch is appended.
        for channel, count in ((channel_id, MESSAGES), (neighbour_id, NEIGHBOUR_MESSAGES)):
            stream = records(channel, count, sample if channel == channel_id else [])
            while True:
                batch = list(islice(stream, BATCH))
                if not batch:
                    break
                with env.begin(write=True) as txn:
                    txn.cursor(db=timeline).putmulti([t for t, _ in batch], append=True)
                    txn.cursor(db=positions).putmulti([p for _, p in batch], append=True)
    finally:
        env.close()
    return sample


def timings(call: Callable[[], object], count: int = CALLS) -> list[float]:
    """Seconds per call, after a few warm-up calls."""
    for _ in range(5):
        call()
    result = []
    for _ in range(count):
        start = time.perf_counter()
        call()
        result.append(time.perf_counter() - start)
    return result


def median(values: list[float]) -> float:
    return statistics.median(values)


def p99(values: list[float]) -> float:
    return statistics.quantiles(values, n=100)[98]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:8.3f} ms"


def raw_last_page(env: lmdb.Environment, channel_id: str) -> list[bytes]:
    """The anchor: the channel's last 100 values as bytes, by the same cursor walk."""
    db = env.open_db(TIMELINE_DB, create=False)
    with env.begin(db=db) as txn:
        cursor = txn.cursor()
        if cursor.set_range(channel_id.encode() + b"\xff"):
            cursor.prev()
        else:
            cursor.last()
        values = []
        for value in cursor.iterprev(keys=False, values=True):
            values.append(value)
            if len(values) == PAGE:
                break
    return values


def measure_raw(folder: Path, channel_id: str) -> tuple[list[float], list[bytes]]:
    env = lmdb.open(str(folder), max_dbs=MAX_DBS, readonly=True)
    try:
        values = raw_last_page(env, channel_id)
        return timings(lambda: raw_last_page(env, channel_id)), values
    finally:
        env.close()


def measure_open(folder: Path) -> list[float]:
    result = []
    for _ in range(10):
        start = time.perf_counter()
        history = LmdbHistory(folder)
        result.append(time.perf_counter() - start)
        history.close()
    return result


def measure_service(
    temp: Path, folder: Path, channel_id: str, sample: list[str]
) -> tuple[list[float], list[float]]:
    """Conversation and Older as the page calls them: the history moved to where the app
    looks for it, a headless Sidekicks on that configuration; each call is followed by the
    encoding to the JSON text the page receives (app/bridge/results.py's page API, the js_api
    pywebview gets)."""
    os.environ["XDG_CONFIG_HOME"] = str(temp / "xdg")
    config = temp / "bench.yaml"
    config.write_text("agents: []\n", encoding="utf-8")
    target = data_dir(config)
    target.parent.mkdir(parents=True, exist_ok=True)
    os.replace(folder, target)
    rng = random.Random(2)
    with Sidekicks(config=config) as sk:
        assert len(sk.api.ChannelService.Conversation(channel_id)["messages"]) == PAGE
        channels = page_api(sk.api).ChannelService
        conversation = timings(lambda: channels.Conversation(channel_id))
        older = timings(lambda: channels.Older(channel_id, rng.choice(sample)))
    return conversation, older


def measure_growth(folder: Path) -> tuple[list[float], list[float], list[int], int]:
    """Durable writes of 4 to 28 KiB messages into a new history until the map reaches
    GROWTH_MAP: (times of writes that grew the map, of those that did not, map sizes, file
    size)."""
    rng = random.Random(3)
    channel_id = new_id()
    grew: list[float] = []
    plain: list[float] = []
    history = LmdbHistory(folder)
    sizes = [history._lmdb.env.info()["map_size"]]
    try:
        while sizes[-1] < GROWTH_MAP:
            text = " ".join(rng.choices(WORDS, k=rng.randint(1000, 7000)))
            message = realistic_message(channel_id, 0, rng).model_copy(
                update={"parts": [Part(kind="text", text=text)]}
            )
            start = time.perf_counter()
            history.add_message(message)
            elapsed = time.perf_counter() - start
            size = history._lmdb.env.info()["map_size"]
            (grew if size != sizes[-1] else plain).append(elapsed)
            if size != sizes[-1]:
                sizes.append(size)
    finally:
        history.close()
    return grew, plain, sizes, (folder / "data.mdb").stat().st_size


def print_growth(grew: list[float], plain: list[float], sizes: list[int], file: int) -> None:
    steps = " → ".join(f"{size >> 20}" for size in sizes)
    print(f"map growth: {len(grew)} growths, {steps} MiB; data file {file / 2**20:.1f} MiB")
    print(
        f"  add_message that grows   median {ms(median(grew))}   max {ms(max(grew))}   "
        f"{median(grew) / median(plain):.1f}x the median write ({ms(median(plain))}, "
        f"{len(plain)} writes)"
    )


def main() -> None:
    channel_id, neighbour_id = new_id(), new_id()
    with tempfile.TemporaryDirectory(prefix="sidekicks-bench-") as temp:
        folder = Path(temp) / "history"
        start = time.perf_counter()
        sample = build(folder, channel_id, neighbour_id)
        build_seconds = time.perf_counter() - start
        size = (folder / "data.mdb").stat().st_size

        raw, raw_values = measure_raw(folder, channel_id)
        decode = timings(lambda: decode_messages(raw_values[::-1]))
        one_by_one = timings(lambda: [Message.model_validate_json(v) for v in raw_values[::-1]])
        opens = measure_open(folder)

        history = LmdbHistory(folder)
        try:
            messages, more = history.last_messages(channel_id)
            assert len(messages) == PAGE and more and messages[-1].id > messages[0].id
            last = timings(lambda: history.last_messages(channel_id))
            rng = random.Random(1)
            before = timings(lambda: history.messages_before(channel_id, rng.choice(sample)))
            writes = timings(
                lambda: history.add_message(realistic_message(neighbour_id, 1, rng)), WRITES
            )
            history.put_channel(StoredChannel(channel=Channel(id=channel_id, name="bench")))
        finally:
            history.close()
        conversation, older = measure_service(Path(temp), folder, channel_id, sample)
        growth = measure_growth(Path(temp) / "growth")

    print(f"channel: {MESSAGES:,} messages (+{NEIGHBOUR_MESSAGES:,} in a newer neighbour)")
    print(f"  built in {build_seconds:.1f} s, data file {size / 2**20:.0f} MiB")
    print(f"open LmdbHistory          median {ms(median(opens))}   max {ms(max(opens))}")
    print(f"last_messages(ch, 100)    median {ms(median(last))}   p99 {ms(p99(last))}")
    print(f"messages_before(random)   median {ms(median(before))}   p99 {ms(p99(before))}")
    print(f"raw cursor, 100 as bytes  median {ms(median(raw))}   p99 {ms(p99(raw))}   (anchor)")
    print(f"decode 100 stored msgs    median {ms(median(decode))}   p99 {ms(p99(decode))}")
    print(f"  one model_validate_json each: median {ms(median(one_by_one))}")
    print(f"add_message (durable)     median {ms(median(writes))}   p99 {ms(p99(writes))}")
    print(
        f"ChannelService.Conversation median {ms(median(conversation))}   "
        f"p99 {ms(p99(conversation))}   (as the bridge runs it, JSON text included)"
    )
    print(f"ChannelService.Older        median {ms(median(older))}   p99 {ms(p99(older))}")
    ratio = median(conversation) / median(raw)
    print(
        f"ratio Conversation / raw:    {ratio:.1f}x   "
        f"(target 3x: {'met' if ratio <= 3 else 'MISSED'})"
    )
    print(f"ratio Older / raw:           {median(older) / median(raw):.1f}x")
    print(f"ratio last_messages / raw:   {median(last) / median(raw):.1f}x   (typed read)")
    print(
        f"Conversation median {median(conversation) * 1000:.3f} ms: "
        f"{'under' if median(conversation) < 0.005 else 'OVER'} the 5 ms target"
    )
    print_growth(*growth)


if __name__ == "__main__":
    main()
