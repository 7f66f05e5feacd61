"""Runs a benchmark of bench/ at its tiny size (`--tiny`, bench/sizes.py), as a person runs it:
`python bench/<name>.py`, from the project's folder, in a process of its own.

What a test checks is that the benchmark still works against today's app: it exits 0, and it
printed its figures and the ratio to its anchor. Never how fast: a tiny run's figures mean little,
and a loaded machine's less.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "bench"
# A number as the benchmarks print them: 1,234 or 0.83 or 12.5 (never nan nor inf).
NUMBER = r"\d[\d,]*(?:\.\d+)?"


def run_benchmark(
    name: str, timeout: float, args: Iterable[str] = (), env: dict[str, str] | None = None
) -> str:
    """Runs bench/<name>.py --tiny ARGS; its output (stdout, then stderr) if it exited 0."""
    # The developer's BENCH_* sizes would turn the tiny run into a long one.
    given = {**os.environ, **(env or {})}
    clean = {key: value for key, value in given.items() if not key.startswith("BENCH_")}
    try:
        result = subprocess.run(
            [sys.executable, str(BENCH / f"{name}.py"), "--tiny", *args],
            cwd=ROOT,
            env=clean,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired as expired:
        said = _text(expired.stdout) + _text(expired.stderr)
        message = f"bench/{name}.py --tiny ran over {timeout:g} s:\n{said[-3000:]}"
        raise AssertionError(message) from None
    said = result.stdout + result.stderr
    assert result.returncode == 0, (
        f"bench/{name}.py --tiny exited {result.returncode}:\n{said[-4000:]}"
    )
    return result.stdout


def assert_printed(output: str, *patterns: str) -> None:
    """Every pattern (a regular expression, `{n}` standing for a number) matches a line."""
    for pattern in patterns:
        expression = re.compile(pattern.replace("{n}", NUMBER))
        assert any(expression.search(line) for line in output.splitlines()), (
            f"no line matches {pattern!r} in:\n{output}"
        )


def _text(value: str | bytes | None) -> str:
    if isinstance(value, bytes):
        return value.decode(errors="replace")
    return value or ""
