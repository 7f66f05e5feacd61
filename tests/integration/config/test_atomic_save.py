"""A crash in the middle of a save never leaves a truncated configuration file."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

LINES = 50000
OLD = "theme: dark\n" + "# old padding\n" * LINES
NEW = "theme: light\n" + "# new padding\n" * LINES
ROOT = Path(__file__).resolve().parents[3]

# Saves NEW and OLD in turn, forever, saying "saved" after each: the test kills it after a random
# number of saves, so the kill lands at a random point of the next one.
WRITER = r"""
import sys
from pathlib import Path
from app.core.atomic import write_atomic
target, lines = Path(sys.argv[1]), int(sys.argv[2])
texts = ["theme: light\n" + "# new padding\n" * lines, "theme: dark\n" + "# old padding\n" * lines]
i = 0
while True:
    write_atomic(target, texts[i % 2])
    i += 1
    print("saved", flush=True)
"""


def test_a_writer_killed_at_random_moments_leaves_a_whole_file(tmp_path: Path) -> None:
    target = tmp_path / "config.yaml"
    target.write_text(OLD, encoding="utf-8")
    rng = random.Random(2026)
    seen = set()
    for _ in range(25):
        proc = subprocess.Popen(
            [sys.executable, "-c", WRITER, str(target), str(LINES)],
            stdout=subprocess.PIPE,
            cwd=ROOT,
        )
        assert proc.stdout is not None
        for _ in range(rng.randint(1, 6)):
            assert proc.stdout.readline().rstrip() == b"saved"  # "\r\n" on Windows
        proc.kill()  # SIGKILL; TerminateProcess on Windows: no handler runs either way
        proc.wait(timeout=10)
        proc.stdout.close()
        content = target.read_text(encoding="utf-8")
        assert content in (OLD, NEW), f"a torn file of {len(content)} characters"
        seen.add(content == NEW)
    assert seen == {True, False}  # the kills landed at different points
