"""Start-up of the packaged app beside the source run, in the same run: time from process
start to the UI being interactive (page rendered, first service calls answered).

Run: ./scripts/package, then .venv/bin/python bench/frozen_start.py [dist/Sidekicks/sidekicks]
     (`BENCH_ROUNDS`, 3; `--tiny`: 1 round)
"""

from __future__ import annotations

import atexit
import os
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.sizes import count  # noqa: E402
from bench.window import time_to_interactive  # noqa: E402

ROUNDS = count("BENCH_ROUNDS", 3, 1)


def main() -> None:
    given = [arg for arg in sys.argv[1:] if not arg.startswith("--")]
    frozen = Path(given[0]) if given else ROOT / "dist" / "Sidekicks" / "sidekicks"
    if not frozen.is_file():
        raise SystemExit(f"{frozen} is missing: run ./scripts/package first")
    xdg = tempfile.mkdtemp()
    atexit.register(shutil.rmtree, xdg, ignore_errors=True)  # the runs' histories with it
    os.environ["XDG_CONFIG_HOME"] = xdg
    config = Path(xdg) / "start.yaml"
    config.write_text("agents:\n  - name: demo\n    builtin: demo\n", encoding="utf-8")
    source, packaged = [], []
    for _ in range(ROUNDS):
        source.append(
            time_to_interactive([sys.executable, "-m", "app", "--config", str(config)], {})
        )
        packaged.append(time_to_interactive([str(frozen), "--config", str(config)], {}))
    s, p = statistics.median(source), statistics.median(packaged)
    print(f"start-up to interactive, median of {ROUNDS}")
    print(f"  from source   : {s * 1000:6.0f} ms")
    print(f"  packaged app  : {p * 1000:6.0f} ms")
    print(f"  ratio         : {p / s:.2f}")


if __name__ == "__main__":
    main()
