"""A scriptable, misbehaving ACP agent for tests: raw JSON-RPC on stdio, no SDK, full control.

    python tests/fakes/fake_agent.py [BEHAVIOUR ...]

Behaviours (combine freely):
  crash-on-start     write to stderr and exit 3 before reading anything
  no-initialize      read requests but never answer `initialize`
  protocol-2         answer `initialize` with protocolVersion 2
  init-error         answer `initialize` with a JSON-RPC error
  garbage-stdout     print non-JSON lines before every answer
  huge-line          answer a prompt with one 5 MiB text chunk
  stderr-flood       write 100 MiB of stderr lines at start, then work normally
  stubborn           ignore stdin EOF and SIGTERM (only SIGKILL ends it)
  grandchildren      start two grandchildren that ignore SIGTERM; their pids go to $FAKE_PIDFILE
  early-updates      send session updates before the `session/new` answer
  exit-mid-turn      on a prompt: send one chunk, then exit 1
  exit-after-init    exit 4 right after answering `initialize`
  auth-required      fail `session/new` with -32000 "Authentication required"
  load-session       advertise loadSession; `session/load` replays one chunk
  slow               prompts stream until cancelled (one chunk every 20 ms)
  permission         on a prompt, ask permission and report the chosen option
  permission-twice   the same, twice in one turn
  commands           announce slash commands on `session/new`
  usage              report context usage after each prompt
  prompt-rich        declare promptCapabilities image and embeddedContext (attachments, #15)
  prompt-links       declare promptCapabilities with neither (files go as resource_link)
  non-object-lines, endless-line, stray-sessions, bad-answer, close-stdout
                     hostile stdout on a prompt: see tests/fakes/hostile_output.py

A normal prompt is answered with one text chunk `echo: <last line of the prompt>` and `end_turn`.
Every stdin line received is appended to $FAKE_LOG when it is set; $FAKE_SAY_ENV (names, comma
separated) writes `env: <their values>` to stderr at the start.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from typing import Any

import hostile_output  # tests/fakes/hostile_output.py: non-object-lines, endless-line, …
import rpc  # tests/fakes/rpc.py: this script's folder is on sys.path
import stream_behaviours  # tests/fakes/stream_behaviours.py: split-emoji, permission-flood
from rpc import chunk, request, send, update

BEHAVIOURS = set(sys.argv[1:]) | set(filter(None, os.environ.get("FAKE_AGENT", "").split(",")))
cancelled: set[str] = set()
if "garbage-stdout" in BEHAVIOURS:
    rpc.before_send = lambda: "this is not json\n{broken\n"


def start_grandchildren() -> None:
    code = "import signal,time; signal.signal(signal.SIGTERM, signal.SIG_IGN); time.sleep(600)"
    pids = [subprocess.Popen([sys.executable, "-c", code]).pid for _ in range(2)]
    pidfile = os.environ.get("FAKE_PIDFILE")
    if pidfile:
        with open(pidfile, "w", encoding="utf-8") as f:
            f.write(" ".join(map(str, pids)))


def prompt_text(params: dict[str, Any]) -> str:
    return "".join(b.get("text", "") for b in params.get("prompt", []) if b.get("type") == "text")


def handle_prompt(rid: int, params: dict[str, Any]) -> None:
    sid = params["sessionId"]
    text = prompt_text(params)
    if "exit-mid-turn" in BEHAVIOURS:
        chunk(sid, "starting…")
        sys.stderr.write("fake agent: dying mid-turn\n")
        sys.stderr.flush()
        os._exit(1)
    if "huge-line" in BEHAVIOURS:
        chunk(sid, "x" * (5 * 1024 * 1024))
    if stream_behaviours.run(BEHAVIOURS, sid, rid):
        return
    if hostile_output.run(BEHAVIOURS, sid, rid):
        return
    asks = 2 if "permission-twice" in BEHAVIOURS else 1 if "permission" in BEHAVIOURS else 0
    for _ in range(asks):
        answer = request("session/request_permission", {
            "sessionId": sid,
            "toolCall": {"toolCallId": "t1", "title": "Edit file", "kind": "edit",
                         "status": "pending"},
            "options": [{"optionId": "allow", "name": "Allow", "kind": "allow_once"},
                        {"optionId": "reject", "name": "Reject", "kind": "reject_once"}],
        })  # fmt: skip
        outcome = answer.get("result", {}).get("outcome", {})
        chosen = outcome.get("optionId", outcome.get("outcome", "?"))
        chunk(sid, f"permission: {chosen}")
        if outcome.get("outcome") == "cancelled":
            send({"id": rid, "result": {"stopReason": "cancelled"}})
            return
    if "slow" in BEHAVIOURS:
        n = 0
        while sid not in cancelled:
            chunk(sid, f"tick {n} ")
            n += 1
            time.sleep(0.02)
        cancelled.discard(sid)
        send({"id": rid, "result": {"stopReason": "cancelled"}})
        return
    chunk(sid, f"echo: {text.splitlines()[-1] if text.strip() else ''}")
    if "usage" in BEHAVIOURS:
        update(sid, {"sessionUpdate": "usage_update", "used": 1000 + len(text), "size": 200000})
    send({"id": rid, "result": {"stopReason": "end_turn"}})


def handle(message: dict[str, Any]) -> None:
    method, rid, params = message.get("method"), message.get("id"), message.get("params") or {}
    if rpc.answered(message):  # an answer to one of our requests
        return
    if method == "initialize":
        if "no-initialize" in BEHAVIOURS:
            return
        if "init-error" in BEHAVIOURS:
            send({"id": rid, "error": {"code": -32603, "message": "fake agent refuses"}})
            return
        version = 2 if "protocol-2" in BEHAVIOURS else 1
        capabilities: dict[str, Any] = {"loadSession": "load-session" in BEHAVIOURS}
        if BEHAVIOURS & {"prompt-rich", "prompt-links"}:  # silent otherwise, as some agents are
            rich = "prompt-rich" in BEHAVIOURS
            capabilities["promptCapabilities"] = {"image": rich, "embeddedContext": rich}
        send({"id": rid, "result": {
            "protocolVersion": version,
            "agentCapabilities": capabilities,
            "agentInfo": {"name": "fake", "version": "0"},
        }})  # fmt: skip
        if "exit-after-init" in BEHAVIOURS:
            os._exit(4)
    elif method in ("session/new", "session/load"):
        if "auth-required" in BEHAVIOURS:
            send({"id": rid, "error": {"code": -32000, "message": "Authentication required"}})
            return
        sid = params.get("sessionId") or f"fake-session-{time.monotonic_ns()}"
        if "early-updates" in BEHAVIOURS or method == "session/load":
            chunk(sid, "early" if method == "session/new" else "replayed")
        if "commands" in BEHAVIOURS:
            update(sid, {"sessionUpdate": "available_commands_update", "availableCommands": [
                {"name": "hello", "description": "Say hello", "input": {"hint": "who"}},
            ]})  # fmt: skip
        send({"id": rid, "result": {"sessionId": sid} if method == "session/new" else {}})
    elif method == "session/prompt":
        threading.Thread(target=handle_prompt, args=(rid, params), daemon=True).start()
    elif method == "session/cancel":
        cancelled.add(params.get("sessionId", ""))
    elif rid is not None:
        send({"id": rid, "error": {"code": -32601, "message": f"unknown method {method}"}})


def main() -> None:
    if "crash-on-start" in BEHAVIOURS:
        sys.stderr.write("fatal: the fake agent cannot start\n")
        sys.exit(3)
    if "stubborn" in BEHAVIOURS:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    if "grandchildren" in BEHAVIOURS:
        start_grandchildren()
    if "stderr-flood" in BEHAVIOURS:
        line = ("flood " * 16 + "\n").encode()
        for _ in range((100 * 1024 * 1024) // len(line)):
            sys.stderr.buffer.write(line)
        sys.stderr.buffer.flush()
        sys.stderr.write("flood done\n")
        sys.stderr.flush()
    said = [os.environ.get(name, "") for name in os.environ.get("FAKE_SAY_ENV", "").split(",")]
    if any(said):
        sys.stderr.write(f"env: {' '.join(said)}\n")
    sys.stderr.write(f"fake agent ready: {sorted(BEHAVIOURS)}\n")
    sys.stderr.flush()
    rpc.serve(handle)
    if "stubborn" in BEHAVIOURS:
        while True:  # stdin closed, and still running: only SIGKILL ends this
            time.sleep(1)


if __name__ == "__main__":
    main()
