"""The raw JSON-RPC plumbing the fake agents share (no SDK: they must be free to misbehave).

`send` writes one message per line on stdout; `request` sends a request to the client and waits
for its answer, which the fake's main loop hands to `answered` when it reads it.
"""

from __future__ import annotations

import io
import json
import os
import sys
import threading
from collections.abc import Callable
from typing import Any, cast

# An agent speaks UTF-8 lines ending in "\n". On Windows a piped process's text streams use the
# ANSI code page and write "\r\n": say both, so that the fakes behave the same everywhere.
cast(io.TextIOWrapper, sys.stdin).reconfigure(encoding="utf-8")
for _stream in (sys.stdout, sys.stderr):
    cast(io.TextIOWrapper, _stream).reconfigure(encoding="utf-8", newline="\n")

out_lock = threading.Lock()  # held by whoever writes to stdout (raw writers too)
_pending: dict[int, dict[str, Any]] = {}
_pending_ready = threading.Condition()
_next_id = 1000
before_send: Callable[[], str] = lambda: ""  # noqa: E731 (a fake may print garbage first)


def send(message: dict[str, Any]) -> None:
    with out_lock:
        sys.stdout.write(before_send())
        sys.stdout.write(json.dumps({"jsonrpc": "2.0", **message}) + "\n")
        sys.stdout.flush()


def update(session_id: str, body: dict[str, Any]) -> None:
    send({"method": "session/update", "params": {"sessionId": session_id, "update": body}})


def chunk(session_id: str, text: str, kind: str = "agent_message_chunk") -> None:
    update(session_id, {"sessionUpdate": kind, "content": {"type": "text", "text": text}})


def request(method: str, params: dict[str, Any]) -> dict[str, Any]:
    """Sends a request to the client and waits for its answer (read by the main loop)."""
    return answer_to(send_request(method, params))


def send_request(method: str, params: dict[str, Any]) -> int:
    """Sends a request to the client without waiting; returns its id."""
    global _next_id
    with _pending_ready:
        _next_id += 1
        rid = _next_id
    send({"id": rid, "method": method, "params": params})
    return rid


def answer_to(rid: int) -> dict[str, Any]:
    """Waits for the client's answer to request `rid`."""
    with _pending_ready:
        _pending_ready.wait_for(lambda: rid in _pending)
        return _pending.pop(rid)


def answered(message: dict[str, Any]) -> bool:
    """Takes the client's answer to one of our requests; False if `message` is not one."""
    if message.get("method") is not None or message.get("id") is None:
        return False
    with _pending_ready:
        _pending[message["id"]] = message
        _pending_ready.notify_all()
    return True


def serve(handle: Callable[[dict[str, Any]], None]) -> None:
    """Hands each JSON line of stdin to `handle` until EOF (lines that are not JSON are skipped);
    every line read is appended to $FAKE_LOG when it is set."""
    log = os.environ.get("FAKE_LOG")
    for raw in sys.stdin:
        if log:
            with open(log, "a", encoding="utf-8", newline="") as f:
                f.write(raw)
        try:
            message = json.loads(raw)
        except ValueError:
            continue
        handle(message)
