"""`ChannelService.List` while 8 agents stream long answers at once (issue 24): how long the page
waits for its channel list when the core is busiest.

  setup:   a headless Sidekicks (as bench/agent_stream.py builds it) with 8 built-in demo agents,
           each in its direct conversation, started before measuring, and 50 channels
  anchor:  List on the same app with nothing streaming, 200 calls
  measure: each of the 8 is sent `/bench CHUNKS` (text chunks as fast as the pipe takes them,
           each one a `message:delta` to the page); while they stream, List is called every 10 ms
           from this thread (a late call is followed by the next at once), as the page's call
           thread would; p50 and p99 of its latency (the call and its result's encoding for the
           page, app/bridge/results.py)

Prints both figures, the ratio streaming/idle at p99, and the target (p99 under 50 ms); the same
for `AgentService.List`, a call that still waits for its turn on the core loop.

Run: .venv/bin/python bench/list_while_streaming.py   (8 × 20,000 chunks; `BENCH_CHUNKS`
     changes them; `--tiny`: 2 × 300 chunks, 5 channels, 20 idle calls)
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app import Sidekicks  # noqa: E402
from app.bridge.results import encode  # noqa: E402
from bench.sizes import count, pick  # noqa: E402

AGENTS = pick(8, 2)  # the tiny run checks the benchmark works, not the figure
CHUNKS = count("BENCH_CHUNKS", 20000, 300)
CALLS = pick(200, 20)
CHANNELS = pick(50, 5)
TARGET_MS = 50.0
PACE = 0.01  # seconds from one List call's start to the next's


def config_text() -> str:
    lines = ["limits:", f"  maxRunningAgents: {AGENTS}", "agents:"]
    for i in range(1, AGENTS + 1):
        lines += [f"  - name: demo{i}", "    builtin: demo"]
    return "\n".join(lines) + "\n"


def list_ms(sk: Sidekicks) -> float:
    started = time.perf_counter()
    encode(sk.api.ChannelService.List())
    return (time.perf_counter() - started) * 1000


def agents_ms(sk: Sidekicks) -> float:
    """`AgentService.List`, which asks the core loop itself: how long a call waits for its turn
    on the loop the streams keep busy (app/acp/lines.py gives the loop a turn every
    YIELD_EVERY messages)."""
    started = time.perf_counter()
    encode(sk.api.AgentService.List())
    return (time.perf_counter() - started) * 1000


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]


class Answers:
    """A bus subscriber that counts the agents' finished answers (a failed one ends the run)."""

    def __init__(self) -> None:
        self.done = 0
        self.failed = ""

    def __call__(self, name: str, payload: dict[str, Any]) -> None:
        message = payload.get("message") if name == "message:updated" else None
        if message is None or message["role"] != "agent" or not message["done"]:
            return
        self.done += 1
        if message["error"]:
            self.failed = f"{message['agent']} failed: {message['error']}"


def streaming_latencies(sk: Sidekicks, directs: dict[str, str]) -> tuple[list[float], list[float]]:
    """ChannelService.List's and AgentService.List's latencies from the first send until every
    agent's answer is done (one of each per tick)."""
    answers = Answers()
    unsubscribe = sk.events.subscribe(answers)
    for channel in directs.values():
        sk.api.ChannelService.Send(channel, f"/bench {CHUNKS}")
    latencies: list[float] = []
    on_loop: list[float] = []
    deadline = time.monotonic() + 600
    next_call = time.monotonic()
    while answers.done < AGENTS:
        if answers.failed:
            raise SystemExit(answers.failed)
        if time.monotonic() > deadline:
            raise SystemExit("the agents did not finish streaming in 10 minutes")
        # Paced as a page would call (not flat out: a caller spinning would hold the GIL
        # and slow the streams it measures); a late call is followed by the next at once.
        time.sleep(max(0.0, next_call - time.monotonic()))
        next_call = time.monotonic() + PACE
        latencies.append(list_ms(sk))
        on_loop.append(agents_ms(sk))
    unsubscribe()
    return latencies, on_loop


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["XDG_CONFIG_HOME"] = tmp
        os.environ["SIDEKICKS_DEMO_SESSIONS"] = str(Path(tmp) / "sessions")
        config = Path(tmp) / "bench.yaml"
        config.write_text(config_text(), encoding="utf-8")
        with Sidekicks(config=config) as sk:
            for i in range(CHANNELS):
                sk.api.ChannelService.Create(f"channel-{i}", "a channel of the benchmark")
            directs = {}
            for i in range(1, AGENTS + 1):
                sk.api.AgentService.Start(f"demo{i}")
                directs[f"demo{i}"] = sk.api.ChannelService.Direct(f"demo{i}").id
            idle = [list_ms(sk) for _ in range(CALLS)]
            idle_loop = [agents_ms(sk) for _ in range(CALLS)]
            started = time.perf_counter()
            busy, busy_loop = streaming_latencies(sk, directs)
            seconds = time.perf_counter() - started
    rate = AGENTS * CHUNKS / seconds
    print(f"ChannelService.List, {CHANNELS + AGENTS} conversations")
    print(
        f"  idle (anchor)            p50 {statistics.median(idle):8.3f} ms"
        f"  p99 {p99(idle):8.3f} ms  ({len(idle)} calls)"
    )
    print(
        f"  {AGENTS} agents streaming      p50 {statistics.median(busy):8.3f} ms"
        f"  p99 {p99(busy):8.3f} ms  ({len(busy)} calls)"
    )
    print(f"  streamed {AGENTS} x {CHUNKS:,} chunks in {seconds:.2f} s ({rate:,.0f} chunks/s)")
    print(f"  ratio streaming/idle p99 : {p99(busy) / p99(idle):.1f}x")
    print(f"  target: p99 under {TARGET_MS:.0f} ms while streaming")
    print("AgentService.List (a call that waits for its turn on the core loop)")
    print(
        f"  idle (anchor)            p50 {statistics.median(idle_loop):8.3f} ms"
        f"  p99 {p99(idle_loop):8.3f} ms"
    )
    print(
        f"  {AGENTS} agents streaming      p50 {statistics.median(busy_loop):8.3f} ms"
        f"  p99 {p99(busy_loop):8.3f} ms"
    )
    print(f"  ratio streaming/idle p99 : {p99(busy_loop) / p99(idle_loop):.1f}x")


if __name__ == "__main__":
    main()
