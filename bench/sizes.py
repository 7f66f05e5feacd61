"""A benchmark's size: its own full size, or a tiny one with `--tiny`.

The tiny size runs in seconds and exists so that the test suite runs every benchmark
(tests/bench): a benchmark broken by a change of the app fails the suite. Its figures are
printed the same way, from the same code, but mean little: read them at full size.

A `BENCH_*` variable set in the environment wins over both sizes.
"""

from __future__ import annotations

import os
import sys
from typing import TypeVar

T = TypeVar("T", int, float)

TINY = "--tiny" in sys.argv[1:]


def sized(variable: str, full: float, tiny: float) -> float:
    """`$variable` if it is set, else the tiny size under --tiny, else the full one."""
    given = os.environ.get(variable)
    if given is not None:
        return float(given)
    return tiny if TINY else full


def count(variable: str, full: int, tiny: int) -> int:
    """A whole number of things (messages, rounds, calls): `sized` rounded."""
    return max(1, round(sized(variable, full, tiny)))


def pick(full: T, tiny: T) -> T:
    """A size the environment does not change (a pace, an idle period, a number of calls)."""
    return tiny if TINY else full
