"""What a well-behaved agent would not write on stdout (fake_agent.py runs these on a prompt).

non-object-lines  JSON lines that are not objects ([1,2,3], 42, "x", null), then the answer
endless-line      $FAKE_LINE_MB (default 100) MB on one line before its newline, then the answer
stray-sessions    $FAKE_STRAY (default 1000) updates, each for a session nobody opened, then
                  the answer
bad-answer        answers the prompt with an `error` that is not an object (a JSON object, so it
                  passes any line check, that the SDK's reader chokes on)
close-stdout      closes stdout and keeps running (until stdin closes): no answer ever comes
"""

from __future__ import annotations

import os
import sys

import rpc
from rpc import chunk, send

NOT_OBJECTS = ("[1,2,3]", "42", '"x"', "null")


def run(behaviours: set[str], sid: str, rid: int) -> bool:
    """Plays the hostile part of a prompt; True when the prompt is over (no normal answer)."""
    if "non-object-lines" in behaviours:
        raw_lines(NOT_OBJECTS)
    if "endless-line" in behaviours:
        endless_line(int(os.environ.get("FAKE_LINE_MB", "100")))
    if "stray-sessions" in behaviours:
        for n in range(int(os.environ.get("FAKE_STRAY", "1000"))):
            chunk(f"stray-{n}", f"for nobody {n}")
    if "bad-answer" in behaviours:
        send({"id": rid, "error": "not an object"})
        return True
    if "close-stdout" in behaviours:
        with rpc.out_lock:
            sys.stdout.flush()
            os.close(sys.stdout.fileno())
        return True
    return False


def raw_lines(lines: tuple[str, ...]) -> None:
    with rpc.out_lock:
        sys.stdout.write("".join(line + "\n" for line in lines))
        sys.stdout.flush()


def endless_line(megabytes: int) -> None:
    piece = b"x" * (1024 * 1024)
    with rpc.out_lock:
        sys.stdout.flush()
        for _ in range(megabytes):
            sys.stdout.buffer.write(piece)
        sys.stdout.buffer.write(b"\n")
        sys.stdout.buffer.flush()
