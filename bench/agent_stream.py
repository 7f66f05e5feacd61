"""Streaming throughput: the demo agent's `/bench N` through Sidekicks' core, beside a bare SDK
client on the same agent, in the same run.

  core:   Sidekicks (core loop thread) → supervisor → AgentConnection → session handler that
          publishes every chunk on the event bus → a subscriber counting them
  anchor: a bare `acp.connect_to_agent` client on the same command, counting in `session_update`

Prints chunks/s for each, and the ratio (target: the core keeps at least half the anchor's rate).

Run: .venv/bin/python bench/agent_stream.py   (20,000 chunks, 3 rounds; `BENCH_CHUNKS`,
     `BENCH_ROUNDS` change them; `--tiny`: 200 chunks, 1 round)
"""

from __future__ import annotations

import asyncio
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import acp
from acp.schema import TextContentBlock

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app import Sidekicks  # noqa: E402
from app.acp.updates import TextDelta  # noqa: E402
from app.agents.builtin import builtin_command  # noqa: E402
from app.events import names  # noqa: E402
from app.events.payloads import AgentLog  # noqa: E402
from bench.sizes import count  # noqa: E402

CHUNKS = count("BENCH_CHUNKS", 20000, 200)
ROUNDS = count("BENCH_ROUNDS", 3, 1)


class Counter:
    def __init__(self) -> None:
        self.count = 0
        self.done = threading.Event()

    def on_update(self, update: Any) -> None:
        if getattr(update, "session_update", "") == "agent_message_chunk":
            self.count += 1


async def bare_sdk_rate() -> float:
    command, env = builtin_command("demo")
    proc = await asyncio.create_subprocess_exec(
        *command,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
        env={**os.environ, **env},
        limit=64 * 1024 * 1024,
    )
    counter = Counter()

    class Client:
        async def session_update(self, session_id: str, update: Any, **kw: Any) -> None:
            counter.on_update(update)

        async def request_permission(self, *a: Any, **kw: Any) -> Any:
            raise NotImplementedError

    assert proc.stdin is not None and proc.stdout is not None
    conn = acp.connect_to_agent(Client(), proc.stdin, proc.stdout)  # type: ignore[arg-type]
    await conn.initialize(protocol_version=1)
    session = await conn.new_session(cwd=str(ROOT), mcp_servers=[])
    start = time.perf_counter()
    await conn.prompt(
        session_id=session.session_id,
        prompt=[TextContentBlock(type="text", text=f"/bench {CHUNKS}")],
    )
    elapsed = time.perf_counter() - start
    assert counter.count == CHUNKS, counter.count
    await conn.close()
    proc.stdin.close()
    await proc.wait()
    return CHUNKS / elapsed


def core_rate(sk: Sidekicks) -> float:
    received = Counter()

    def subscriber(name: str, payload: dict[str, Any]) -> None:
        if name == names.AGENT_LOG and payload["line"] == "bench-chunk":
            received.count += 1

    unsubscribe = sk.events.subscribe(subscriber)
    supervisor, core, bus = sk._supervisor, sk._core, sk.events

    class Publish:
        """Publishes each chunk as an event, as the channel engine does with message:delta."""

        def on_event(self, event: Any) -> None:
            if isinstance(event, TextDelta) and event.kind == "text":
                bus.emit(names.AGENT_LOG, AgentLog(agent="demo", line="bench-chunk"))

    async def turn() -> float:
        conn = await supervisor.acquire("demo")
        try:
            session = await conn.new_session(Publish())
            start = time.perf_counter()
            await conn.prompt(session.session_id, f"/bench {CHUNKS}")
            return time.perf_counter() - start
        finally:
            supervisor.release("demo")

    elapsed = core.run(turn(), timeout=300)
    unsubscribe()
    assert received.count == CHUNKS, received.count
    return CHUNKS / elapsed


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["XDG_CONFIG_HOME"] = tmp
        os.environ["SIDEKICKS_DEMO_SESSIONS"] = str(Path(tmp) / "sessions")
        config = Path(tmp) / "bench.yaml"
        config.write_text("agents:\n  - name: demo\n    builtin: demo\n", encoding="utf-8")
        core_rates, bare_rates = [], []
        with Sidekicks(config=config) as sk:
            sk.api.AgentService.Start("demo")
            for _ in range(ROUNDS):
                bare_rates.append(asyncio.run(bare_sdk_rate()))
                core_rates.append(core_rate(sk))
    core, bare = statistics.median(core_rates), statistics.median(bare_rates)
    print(f"streaming {CHUNKS} chunks, median of {ROUNDS} rounds")
    print(f"  bare SDK client : {bare:10,.0f} chunks/s")
    print(f"  Sidekicks core  : {core:10,.0f} chunks/s")
    print(f"  ratio core/bare : {core / bare:.2f}  (target ≥ 0.50)")


if __name__ == "__main__":
    main()
