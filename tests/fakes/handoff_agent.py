"""A fake ACP agent for hand-offs (issue 28): raw JSON-RPC on stdio, no SDK.

    python tests/fakes/handoff_agent.py

Each prompt is answered with the next of $FAKE_SAY's answers (separated by `||`; the last one
repeats), `{n}` replaced by the number of the prompt (1, 2, …), and `end_turn`. Options:
  $FAKE_LOG       every stdin line received is appended to this file
  $FAKE_EMBEDDED  "1": declares promptCapabilities.embeddedContext (else declares neither)
  $FAKE_WRITE     a file name: each prompt writes "prompt {n}" to it in the agent's cwd
  $FAKE_PLAN      "1": each answer sends a plan (two entries) before its text
  $FAKE_DELAY     seconds each answer takes (its own time), or less: session/cancel ends it
                  at once with `cancelled`
  $FAKE_SIZE      pads each answer to this many characters (the benchmark's fixed size)
  $FAKE_NEW_DELAY seconds `session/new` takes to answer (a session slow to open)
"""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path
from typing import Any

import rpc  # tests/fakes/rpc.py: this script's folder is on sys.path
from rpc import chunk, send, update

ANSWERS = os.environ.get("FAKE_SAY", "done").split("||")
prompts = 0
count_lock = threading.Lock()
cancelled = threading.Event()


def answer_text(n: int) -> str:
    text = ANSWERS[min(n, len(ANSWERS)) - 1].replace("{n}", str(n))
    size = int(os.environ.get("FAKE_SIZE", "0") or 0)
    return text + " " + "x" * (size - len(text) - 1) if size > len(text) + 1 else text


def handle_prompt(rid: int, params: dict[str, Any]) -> None:
    global prompts
    with count_lock:
        prompts += 1
        n = prompts
    sid = params["sessionId"]
    delay = float(os.environ.get("FAKE_DELAY", "0") or 0)
    if delay and cancelled.wait(delay):
        cancelled.clear()
        send({"id": rid, "result": {"stopReason": "cancelled"}})
        return
    if name := os.environ.get("FAKE_WRITE"):
        Path(os.getcwd(), name).write_text(f"prompt {n}\n", encoding="utf-8")
    if os.environ.get("FAKE_PLAN") == "1":
        entries = [
            {"content": f"step {n}", "status": "completed", "priority": "high"},
            {"content": "review", "status": "pending", "priority": "medium"},
        ]
        update(sid, {"sessionUpdate": "plan", "entries": entries})
    chunk(sid, answer_text(n))
    send({"id": rid, "result": {"stopReason": "end_turn"}})


def new_session(rid: int) -> None:
    time.sleep(float(os.environ.get("FAKE_NEW_DELAY", "0") or 0))  # the agent's own pace
    send({"id": rid, "result": {"sessionId": f"handoff-{time.monotonic_ns()}"}})


def handle(message: dict[str, Any]) -> None:
    method, rid, params = message.get("method"), message.get("id"), message.get("params") or {}
    if rpc.answered(message):
        return
    if method == "initialize":
        embedded = os.environ.get("FAKE_EMBEDDED") == "1"
        send({"id": rid, "result": {
            "protocolVersion": 1,
            "agentCapabilities": {
                "promptCapabilities": {"image": False, "embeddedContext": embedded},
            },
            "agentInfo": {"name": "handoff-fake", "version": "0"},
        }})  # fmt: skip
    elif method == "session/new":
        threading.Thread(target=new_session, args=(rid,), daemon=True).start()
    elif method == "session/prompt":
        threading.Thread(target=handle_prompt, args=(rid, params), daemon=True).start()
    elif method == "session/cancel":
        cancelled.set()
    elif rid is not None:
        send({"id": rid, "error": {"code": -32601, "message": f"unknown method {method}"}})


if __name__ == "__main__":
    rpc.serve(handle)
