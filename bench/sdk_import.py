"""What importing the ACP SDK costs a process, and the built-in agent's start (app/acp/
quick_import.py).

  measure: the CPU time of `import acp` in a fresh interpreter after `import app` (the finder
           that skips pydantic's attribute-docstring pass for the SDK's models), ROUNDS times,
           median; and the built-in demo agent's start: `python -m app --agent demo` spawned,
           to its answer to `initialize` read on its stdout (wall time), median
  anchor:  `import acp` in a fresh interpreter without the finder (as any program imports it)

Prints the figures and the ratio to the anchor.

Run: .venv/bin/python bench/sdk_import.py   (`--tiny`: 1 round)
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.sizes import count  # noqa: E402

ROUNDS = count("BENCH_ROUNDS", 10, 1)

# Prints the CPU seconds `import acp` took, after `import app` or not.
IMPORT = """
import sys, time
sys.path.insert(0, sys.argv[1])
if sys.argv[2] == "app":
    import app
start = time.process_time()
import acp
print(time.process_time() - start)
"""

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": 1, "clientCapabilities": {}},
}


def import_seconds(mode: str) -> float:
    done = subprocess.run(
        [sys.executable, "-c", IMPORT, str(ROOT), mode],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    return float(done.stdout.strip())


def demo_start_seconds() -> float:
    """The demo agent spawned, to its answer to `initialize` (it then gets EOF and ends)."""
    start = time.perf_counter()
    agent = subprocess.Popen(
        [sys.executable, "-m", "app", "--agent", "demo"],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    assert agent.stdin is not None and agent.stdout is not None
    agent.stdin.write((json.dumps(INITIALIZE) + "\n").encode())
    agent.stdin.flush()
    while True:
        line = agent.stdout.readline()
        if not line:
            raise RuntimeError("the demo agent ended without answering initialize")
        if json.loads(line).get("id") == 1:
            break
    elapsed = time.perf_counter() - start
    agent.stdin.close()
    agent.wait(timeout=30)
    return elapsed


def main() -> None:
    plain, quick, starts = [], [], []
    for _ in range(ROUNDS):  # interleaved: a busy moment of the machine weighs on both
        plain.append(import_seconds("plain"))
        quick.append(import_seconds("app"))
        starts.append(demo_start_seconds())
    anchor, ours = statistics.median(plain), statistics.median(quick)
    print(f"rounds: {ROUNDS}")
    print(f"import acp, plain (anchor)      : median {anchor * 1000:7.1f} ms of CPU")
    print(f"import acp, after import app    : median {ours * 1000:7.1f} ms of CPU")
    print(f"ratio app/anchor                : {ours / anchor:.2f}")
    print(f"demo agent, spawn to initialize : median {statistics.median(starts) * 1000:7.1f} ms")


if __name__ == "__main__":
    main()
