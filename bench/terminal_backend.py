"""An agent's command printing 50 MB, through the whole backend path, beside the same command
piped to /dev/null, in the same run.

  backend: Sidekicks (headless) → the workspace fake agent (tests/fakes/workspace_agent.py) asks
           `terminal/create` → the command's pipe read by the core loop → its 1 MiB tail, the
           live `terminal:output` events (coalesced, bounded) on the bus → `wait_for_exit`,
           `output` (the agent reads the tail), `release` → the answer kept with the tool
           call's final 64 KiB
  anchor:  the same command with its output to /dev/null (what running it costs at all)

Prints the wall time of each and their ratio, the app's peak resident memory (this process,
where the core runs) against its size before, and what reached the page's event stream.

Run: .venv/bin/python bench/terminal_backend.py   (`BENCH_MEGABYTES`, `BENCH_ROUNDS` change the
     size; `--tiny`: 0.05 MB, 1 round)
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app import Sidekicks  # noqa: E402
from bench.sizes import count, sized  # noqa: E402

MEGABYTES = sized("BENCH_MEGABYTES", 50, 0.05)
ROUNDS = count("BENCH_ROUNDS", 3, 1)
FAKE = ROOT / "tests" / "fakes" / "workspace_agent.py"
LINES = round(MEGABYTES * 10_000)  # lines of 100 bytes
SCRIPT = (
    "import sys\n"
    "w = sys.stdout.write\n"
    f"for i in range({LINES}):\n"
    "    w(f'{i:09d} \\x1b[32m' + 'x' * 80 + '\\x1b[0m\\n')\n"
)
COMMAND = [sys.executable, "-c", SCRIPT]


def memory(field: str) -> int:
    """VmRSS (now) or VmHWM (peak since the last reset) of this process, in bytes."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) * 1024
    return 0


def reset_peak() -> None:
    Path("/proc/self/clear_refs").write_text("5")  # Linux ≥ 4.0: VmHWM := VmRSS


def anchor_seconds() -> float:
    start = time.perf_counter()
    subprocess.run(COMMAND, stdout=subprocess.DEVNULL, check=True)
    return time.perf_counter() - start


class Stream:
    """What the page would get: terminal:output events, and the answer's end."""

    def __init__(self) -> None:
        self.events = 0
        self.chars = 0
        self.largest = 0
        self.answer: dict[str, Any] | None = None
        self.done = threading.Event()

    def __call__(self, name: str, payload: dict[str, Any]) -> None:
        if name == "terminal:output":
            self.events += 1
            self.chars += len(payload["data"])
            self.largest = max(self.largest, len(payload["data"]))
        elif name == "message:updated":
            message = payload["message"]
            if message["role"] == "agent" and message["done"]:
                self.answer = message
                self.done.set()


def backend_round(sk: Sidekicks, room: str) -> tuple[float, int, Stream]:
    stream = Stream()
    unsubscribe = sk.events.subscribe(stream)
    before = memory("VmRSS")
    reset_peak()
    start = time.perf_counter()
    sk.api.ChannelService.Send(room, json.dumps([{"run": COMMAND[0], "args": COMMAND[1:]}]))
    if not stream.done.wait(600):
        raise SystemExit("the answer did not finish")
    elapsed = time.perf_counter() - start
    peak = memory("VmHWM") - before
    unsubscribe()
    return elapsed, peak, stream


def check(stream: Stream) -> str:
    assert stream.answer is not None
    text = "".join(p.get("text", "") for p in stream.answer["parts"] if p["kind"] == "text")
    result = json.loads(text.splitlines()[0])
    assert result.get("exit", {}).get("exitCode") == 0, result
    (view,) = [t for p in stream.answer["parts"] if p.get("tool") for t in p["tool"]["terminals"]]
    return f"agent read {len(result['output']):,} chars; tool call keeps {len(view['output']):,}"


def main() -> None:
    if not sys.platform.startswith("linux"):
        raise SystemExit("this benchmark reads /proc (Linux)")
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["XDG_CONFIG_HOME"] = tmp
        work = Path(tmp) / "work"
        work.mkdir()
        config = Path(tmp) / "bench.yaml"
        command, cwd = json.dumps([sys.executable, str(FAKE)]), json.dumps(str(work))
        config.write_text(
            f"agents:\n  - name: runner\n    command: {command}\n    cwd: {cwd}\n",
            encoding="utf-8",
        )
        anchors, rounds = [], []
        with Sidekicks(config=config) as sk:
            room = sk.api.ChannelService.Direct("runner").id
            resident = memory("VmRSS")
            for _ in range(ROUNDS):
                anchors.append(anchor_seconds())
                rounds.append(backend_round(sk, room))
    anchor = statistics.median(anchors)
    seconds = statistics.median(r[0] for r in rounds)
    peak = max(r[1] for r in rounds)
    stream = rounds[-1][2]
    print(f"a command printing {MEGABYTES:g} MB ({LINES:,} coloured lines), median of {ROUNDS}")
    print(f"  anchor, output to /dev/null : {anchor:7.2f} s")
    print(f"  through the backend         : {seconds:7.2f} s")
    print(f"  ratio backend/anchor        : {seconds / anchor:7.2f}")
    print(f"  app resident before         : {resident / 2**20:7.1f} MiB")
    print(f"  app peak growth (max)       : {peak / 2**20:7.1f} MiB  (vs {MEGABYTES:g} MB printed)")
    print(
        f"  live stream to the page     : {stream.events} events, {stream.chars / 2**20:.2f} MiB"
        f" ({stream.chars / (MEGABYTES * 1e6):.1%} of the output), largest"
        f" {stream.largest / 1024:.0f} KiB"
    )
    print(f"  {check(stream)}")


if __name__ == "__main__":
    main()
