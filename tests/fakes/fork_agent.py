"""An ACP agent whose sessions remember what they were told, for forks (issue 28).

    python tests/fakes/fork_agent.py [fork] [fork-fails]

Each session keeps the last line of each prompt it was given (its memory). A prompt is
answered `[SESSION] heard LAST; remembers A | B | …` (its memory before this prompt, or
`nothing`). `fork` advertises `sessionCapabilities.fork`: `session/fork` makes `fork-N` with a
copy of the session's memory (an unknown session is an error). `fork-fails` advertises it and
answers every fork with an error. `session/resume` goes on with any session (its memory kept in
$FAKE_STATE, a JSON file, when set, so that it outlives the process). Every stdin line goes
to $FAKE_LOG.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

import rpc  # tests/fakes/rpc.py: this script's folder is on sys.path
from rpc import chunk, send

FLAGS = set(sys.argv[1:])
STATE = os.environ.get("FAKE_STATE", "")


def load() -> dict[str, list[str]]:
    if STATE and os.path.exists(STATE):
        with open(STATE, encoding="utf-8") as f:
            kept: dict[str, list[str]] = json.load(f)
            return kept
    return {}


memory = load()


def save() -> None:
    if STATE:
        with open(STATE, "w", encoding="utf-8") as f:
            json.dump(memory, f)


def new_id(prefix: str) -> str:
    n = 1
    while f"{prefix}-{n}" in memory:
        n += 1
    return f"{prefix}-{n}"


def capabilities() -> dict[str, Any]:
    sessions: dict[str, Any] = {"resume": {}}
    if FLAGS & {"fork", "fork-fails"}:
        sessions["fork"] = {}
    return {"sessionCapabilities": sessions}


def handle(message: dict[str, Any]) -> None:
    method, rid, params = message.get("method"), message.get("id"), message.get("params") or {}
    if rpc.answered(message):
        return
    session_id = params.get("sessionId", "")
    if method == "initialize":
        send({"id": rid, "result": {
            "protocolVersion": 1,
            "agentCapabilities": capabilities(),
            "agentInfo": {"name": "fork-agent", "version": "1.0.0"},
        }})  # fmt: skip
    elif method == "session/new":
        session_id = new_id("new")
        memory[session_id] = []
        save()
        send({"id": rid, "result": {"sessionId": session_id}})
    elif method == "session/fork" and "fork-fails" in FLAGS:
        send({"id": rid, "error": {"code": -32603, "message": "cannot fork today"}})
    elif method == "session/fork" and "fork" in FLAGS:
        if session_id not in memory:
            send({"id": rid, "error": {"code": -32002, "message": f"no session {session_id}"}})
            return
        forked = new_id("fork")
        memory[forked] = list(memory[session_id])
        save()
        send({"id": rid, "result": {"sessionId": forked}})
    elif method == "session/resume":
        memory.setdefault(session_id, [])
        send({"id": rid, "result": {}})
    elif method == "session/prompt":
        text = "".join(b.get("text", "") for b in params.get("prompt", []))
        last = text.splitlines()[-1] if text.strip() else ""
        known = memory.setdefault(session_id, [])
        chunk(
            session_id, f"[{session_id}] heard {last}; remembers {' | '.join(known) or 'nothing'}"
        )
        known.append(last)
        save()
        send({"id": rid, "result": {"stopReason": "end_turn"}})
    elif method == "session/cancel":
        pass
    elif rid is not None:
        send({"id": rid, "error": {"code": -32601, "message": f"unknown method {method}"}})


def main() -> None:
    rpc.serve(handle)


if __name__ == "__main__":
    main()
