"""The core's own cost per hand-off hop (issue 28), beside a direct answer of the same size.

  setup:   a headless Sidekicks with two agents that mention each other (tests/fakes/
           handoff_agent.py: real processes, real pipes; each answer `@other please review`
           padded to ANSWER characters, and a file written in its folder, so that each hop's
           receiver is given the previous answer's changes), in one channel, checkpoints on
  chain:   the budget set to HOPS, the person's message to alice; alice and bob then hand off
           until the budget: HOPS + 1 answers from Send to the channel idle, ROUNDS times;
           a hop's time is the chain's time per answer
  anchor:  the same channel with the budget 0: HOPS + 1 person's messages to alice, each sent
           once the last was answered, and the same answers (what the agents and a normal
           answer's path cost: prompt, stream, checkpoints, history)
  figures: the core's own time per hop: from an answer's end (its last `message:updated`)
           to the next one's start (the receiver's new message, before its checkpoint and its
           prompt: the answer's mentions read, its changes and plan gathered, the hop queued,
           the turn taken); beside it, for the anchor, from Send to the answer's start. And the
           chain's time per answer minus a direct answer's (negative: a hop costs less than a
           message of the person's, which also has its Send, its worker and its idle turn)

Prints the figures and the ratio to the anchor (target: at most 20 ms per hop beyond the
agents' time). `BENCH_ANSWER` (characters) and `BENCH_HOPS` change the sizes.

Run: .venv/bin/python bench/handoffs.py   (`--tiny`: 3 hops, 500 characters, 1 round)
"""

from __future__ import annotations

import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app import Sidekicks  # noqa: E402
from app.agents.supervisor import Tuning  # noqa: E402
from bench.sizes import count, pick  # noqa: E402
from tests.waiting import EventLog  # noqa: E402

ANSWER = count("BENCH_ANSWER", 4000, 500)
HOPS = min(50, count("BENCH_HOPS", 20, 3))  # the budget's most
ROUNDS = pick(5, 1)
AGENT = ROOT / "tests" / "fakes" / "handoff_agent.py"
SAYS = {"alice": "@bob please review ({n})", "bob": "@alice your turn ({n})"}


def config(root: Path) -> Path:
    lines = ["agents:"]
    for name, say in SAYS.items():
        env = {"FAKE_SAY": say, "FAKE_SIZE": str(ANSWER), "FAKE_WRITE": f"{name}.txt"}
        lines += [
            f"  - name: {name}",
            f"    command: {json.dumps([sys.executable, str(AGENT)])}",
            f"    cwd: {json.dumps(str(root / 'work'))}",
            f"    env: {json.dumps(env)}",
        ]
    path = root / "handoffs.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


class Timed(EventLog):
    """The event log, with when each answer started and ended (perf_counter, as emitted)."""

    def __init__(self) -> None:
        super().__init__()
        self.starts: list[float] = []
        self.ends: list[float] = []

    def __call__(self, name: str, payload: dict[str, Any]) -> None:
        if name == "message:updated" and payload["message"]["role"] == "agent":
            (self.ends if payload["message"]["done"] else self.starts).append(time.perf_counter())
        super().__call__(name, payload)


class Bench:
    def __init__(self, sk: Sidekicks, log: Timed, channel: str) -> None:
        self.sk, self.log, self.channel = sk, log, channel
        self.gaps: list[float] = []  # an answer's end to the next hop's start
        self.first: list[float] = []  # Send to the answer's start (a person's message)

    def answered(self, text: str, answers: int) -> float:
        """Seconds from Send to the channel idle, once `answers` answers ended."""
        mark = self.log.mark()
        starts, ends = len(self.log.starts), len(self.log.ends)
        started = time.perf_counter()
        self.sk.api.ChannelService.Send(self.channel, text)
        self.log.wait(
            "turn:changed",
            lambda p: p["channel"] == self.channel and not p["busy"],
            since=mark,
            timeout=300,
        )
        elapsed = time.perf_counter() - started
        done = [
            p
            for p in self.log.named("message:updated", mark)
            if p["message"]["role"] == "agent" and p["message"]["done"]
        ]
        if len(done) != answers or any(p["message"]["error"] for p in done):
            raise SystemExit(f"expected {answers} answers, got {len(done)}")
        began, ended = self.log.starts[starts:], self.log.ends[ends:]
        self.first.append(began[0] - started)
        self.gaps += [after - before for before, after in zip(ended, began[1:], strict=False)]
        return elapsed

    def chain(self) -> float:
        self.sk.api.HandoffService.SetHandoffs(self.channel, HOPS)
        return self.answered("@alice start", HOPS + 1) / (HOPS + 1)

    def direct(self) -> float:
        self.sk.api.HandoffService.SetHandoffs(self.channel, 0)
        return statistics.mean(self.answered("@alice go", 1) for _ in range(HOPS + 1))


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="sk-bench-handoffs-") as folder:
        root = Path(folder)
        (root / "work").mkdir()
        tuning = Tuning(stdin_grace=1.0, term_grace=1.0, initialize_timeout=20.0)
        with Sidekicks(config=config(root), tuning=tuning) as sk:
            log = Timed()
            sk.events.subscribe(log)
            channel = sk.api.ChannelService.Create("bench", "", list(SAYS)).id
            bench = Bench(sk, log, channel)
            bench.direct()  # the agents started, their sessions opened, the caches warm
            bench.chain()
            bench.gaps, bench.first = [], []
            anchors, hops = [], []
            for _ in range(ROUNDS):
                anchors.append(bench.direct())
                hops.append(bench.chain())
    anchor, hop = statistics.median(anchors), statistics.median(hops)
    gap, first = statistics.median(bench.gaps), statistics.median(bench.first)
    worst = max(bench.gaps)
    print(f"answers of {ANSWER} characters, {HOPS} hops a chain, {ROUNDS} rounds")
    print(f"direct answer (anchor)      : {anchor * 1000:8.2f} ms an answer")
    print(f"hand-off chain              : {hop * 1000:8.2f} ms an answer")
    print(f"ratio chain/anchor          : {hop / anchor:8.2f}")
    print(f"Send to the answer's start  : median {first * 1000:8.2f} ms (anchor)")
    print(f"core's own cost per hop     : median {gap * 1000:8.2f} ms, max {worst * 1000:.2f} ms")
    print("                              (an answer's end to the next hop's start; target 20 ms)")
    print(f"ratio hop cost/anchor start : {gap / first:8.2f}")


if __name__ == "__main__":
    main()
