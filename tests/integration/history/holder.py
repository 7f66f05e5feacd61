"""A second Sidekicks, as far as the history is concerned: opens the history of the
configuration given as argument, prints what it got (kind, then problem, one line each), then
holds it until a line arrives on stdin (or stdin closes), closes it and prints "closed"."""

from __future__ import annotations

import sys
from pathlib import Path

from app.history.open import open_history

history = open_history(Path(sys.argv[1]))
print(type(history).__name__, flush=True)
print(history.problem, flush=True)
sys.stdin.readline()
history.close()
print("closed", flush=True)
