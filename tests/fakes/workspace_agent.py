"""An ACP agent that reads, writes and runs commands through the client (fs/*, terminal/*).

    python tests/fakes/workspace_agent.py

With "in_cwd": true, a relative PATH in "write" is in the session's cwd (as session/new or
session/load gave it); without it the relative path is sent as is (the client refuses it).
A prompt whose last line is a JSON list of actions (after an optional @mention) is carried
out in order through the client:

  {"read": PATH, "line": N, "limit": N}          fs/read_text_file (line, limit optional;
                                                 "quiet": true reports chars and seconds)
  {"write": PATH, "text": "..."}                 fs/write_text_file, announced first as a tool
                                                 call of kind edit with a diff (old text read
                                                 from disk by the fake itself)
  {"run": CMD, "args": [...], "env": {...}, "cwd": DIR, "limit": BYTES,
   "wait": true, "kill": false, "release": true} terminal/create, announced as a tool call of
                                                 kind execute whose content is the terminal;
                                                 then kill (if "kill"), wait_for_exit (if
                                                 "wait"), output, release (if "release")
  {"ask": TITLE, "kind": KIND}                   session/request_permission for a tool call of
                                                 that kind (options allow_once, allow_always,
                                                 reject_once); reports the outcome
  {"terminal": METHOD, "id": ID}                 terminal/METHOD (output, wait_for_exit, kill,
                                                 release) on ID, or on the last terminal
                                                 created when ID is "last"; reports its result
  {"own_write": PATH, "text": "..." | "b64": "...", "delete": false, "quiet": false}
                                                 the agent writes (or deletes) the file itself,
                                                 as its own tools do: announced as a tool call
                                                 of kind edit naming the path (none if "quiet")
  {"shell": [ARGV...], "cwd": DIR, "asked": false} runs a command itself (its own shell),
                                                 announced as a tool call of kind execute
                                                 (asked first with "asked", as agents that ask
                                                 before a command do; refused: not run);
                                                 reports the exit code
  {"wait_for": PATH, "timeout": SECONDS}         waits until PATH exists (two answers at once)

Each action's result is reported as one text chunk: one JSON object and a newline, e.g.
`{"read": PATH, "content": "..."}`, `{"write": PATH, "ok": true}`,
`{"run": CMD, "terminalId": ID, "exit": {...}, "output": "...", "truncated": false}`, or, when
the client answers with an error, the action's key and `"error": {"code": N, "message": "..."}`
(a run stops at its first error). Tests parse the lines to see what the agent got.
Any other prompt is answered `echo: <text>`. The agent can `session/load` (it keeps nothing).
Every stdin line is appended to $FAKE_LOG when it is set.
"""

from __future__ import annotations

import base64
import json
import os
import subprocess
import threading
import time
from typing import Any

import rpc  # tests/fakes/rpc.py: this script's folder is on sys.path
from rpc import chunk, request, send, update

_calls = 0
_last_terminal = ""


def _next_call_id() -> str:
    global _calls
    _calls += 1
    return f"call-{_calls}"


class ClientError(Exception):
    def __init__(self, error: dict[str, Any]) -> None:
        super().__init__(error.get("message", ""))
        self.error = {"code": error.get("code"), "message": error.get("message", "")}


def call(method: str, params: dict[str, Any]) -> dict[str, Any]:
    answer = request(method, params)
    if "error" in answer:
        raise ClientError(answer["error"])
    return answer.get("result") or {}


_cwds: dict[str, str] = {}  # each session's cwd (session/new, session/load)


def in_session(sid: str, path: str) -> str:
    """A relative PATH is in the session's cwd (an isolated member's worktree, issue 28)."""
    return path if os.path.isabs(path) else os.path.join(_cwds.get(sid, os.getcwd()), path)


def report(sid: str, result: dict[str, Any]) -> None:
    chunk(sid, json.dumps(result) + "\n")


def do_read(sid: str, action: dict[str, Any]) -> dict[str, Any]:
    params: dict[str, Any] = {"sessionId": sid, "path": action["read"]}
    for key in ("line", "limit"):
        if key in action:
            params[key] = action[key]
    started = time.perf_counter()
    content = call("fs/read_text_file", params)["content"]
    if action.get("quiet"):  # bench/fs_read.py: how long the request took, not the text
        return {"read": action["read"], "chars": len(content),
                "seconds": time.perf_counter() - started}  # fmt: skip
    return {"read": action["read"], "content": content}


def do_write(sid: str, action: dict[str, Any]) -> dict[str, Any]:
    path, text = action["write"], action.get("text", "")
    if action.get("in_cwd"):
        path = in_session(sid, path)
    try:
        with open(path, encoding="utf-8") as f:
            old: str | None = f.read()
    except (OSError, ValueError):
        old = None
    call_id = _next_call_id()
    update(sid, {
        "sessionUpdate": "tool_call", "toolCallId": call_id, "title": f"Write {path}",
        "kind": "edit", "status": "in_progress", "locations": [{"path": path}],
        "content": [{"type": "diff", "path": path, "oldText": old, "newText": text}],
    })  # fmt: skip
    try:
        call("fs/write_text_file", {"sessionId": sid, "path": path, "content": text})
    except ClientError:
        update(sid, {"sessionUpdate": "tool_call_update", "toolCallId": call_id,
                     "status": "failed"})  # fmt: skip
        raise
    update(sid, {"sessionUpdate": "tool_call_update", "toolCallId": call_id,
                 "status": "completed"})  # fmt: skip
    return {"write": path, "ok": True}


def do_run(sid: str, action: dict[str, Any]) -> dict[str, Any]:
    params: dict[str, Any] = {"sessionId": sid, "command": action["run"]}
    if "args" in action:
        params["args"] = action["args"]
    if "env" in action:
        params["env"] = [{"name": k, "value": v} for k, v in action["env"].items()]
    if "cwd" in action:
        params["cwd"] = action["cwd"]
    if "limit" in action:
        params["outputByteLimit"] = action["limit"]
    result: dict[str, Any] = {"run": action["run"]}
    global _last_terminal
    tid = _last_terminal = call("terminal/create", params)["terminalId"]
    result["terminalId"] = tid
    call_id = _next_call_id()
    title = " ".join([action["run"], *action.get("args", [])])
    update(sid, {
        "sessionUpdate": "tool_call", "toolCallId": call_id, "title": title,
        "kind": "execute", "status": "in_progress",
        "content": [{"type": "terminal", "terminalId": tid}],
    })  # fmt: skip
    ids = {"sessionId": sid, "terminalId": tid}
    status = "completed"
    try:
        if action.get("kill", False):
            call("terminal/kill", ids)
            result["killed"] = True
        if action.get("wait", True):
            ended = call("terminal/wait_for_exit", ids)
            result["exit"] = {"exitCode": ended.get("exitCode"), "signal": ended.get("signal")}
        out = call("terminal/output", ids)
        result["output"] = out.get("output", "")
        result["truncated"] = out.get("truncated", False)
        if "exitStatus" in out and "exit" not in result:
            result["exitStatus"] = out["exitStatus"]
        if action.get("release", True):
            call("terminal/release", ids)
            result["released"] = True
    except ClientError:
        status = "failed"
        raise
    finally:
        update(sid, {"sessionUpdate": "tool_call_update", "toolCallId": call_id,
                     "status": status})  # fmt: skip
    return result


def do_terminal(sid: str, action: dict[str, Any]) -> dict[str, Any]:
    method, tid = action["terminal"], action.get("id", "last")
    tid = _last_terminal if tid == "last" else tid
    result = call(f"terminal/{method}", {"sessionId": sid, "terminalId": tid})
    return {"terminal": method, "id": tid, "result": result}


def do_ask(sid: str, action: dict[str, Any]) -> dict[str, Any]:
    call_id = _next_call_id()
    tool = {"toolCallId": call_id, "title": action["ask"], "kind": action.get("kind", "edit"),
            "status": "pending"}  # fmt: skip
    options = [
        {"optionId": "once", "name": "Allow once", "kind": "allow_once"},
        {"optionId": "always", "name": "Always allow", "kind": "allow_always"},
        {"optionId": "no", "name": "Reject", "kind": "reject_once"},
    ]
    answer = call(
        "session/request_permission", {"sessionId": sid, "toolCall": tool, "options": options}
    )
    return {"ask": action["ask"], "outcome": answer.get("outcome", {})}


def do_own_write(sid: str, action: dict[str, Any]) -> dict[str, Any]:
    path = action["own_write"]
    call_id = _next_call_id()
    if not action.get("quiet"):
        update(sid, {
            "sessionUpdate": "tool_call", "toolCallId": call_id, "title": f"Edit {path}",
            "kind": "edit", "status": "in_progress", "locations": [{"path": path}],
        })  # fmt: skip
    if action.get("delete"):
        os.remove(path)
    else:
        data = base64.b64decode(action["b64"]) if "b64" in action else action["text"].encode()
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)
    if not action.get("quiet"):
        update(sid, {"sessionUpdate": "tool_call_update", "toolCallId": call_id,
                     "status": "completed"})  # fmt: skip
    return {"own_write": path, "ok": True}


def do_shell(sid: str, action: dict[str, Any]) -> dict[str, Any]:
    argv = [str(a) for a in action["shell"]]
    call_id = _next_call_id()
    tool = {"toolCallId": call_id, "title": " ".join(argv), "kind": "execute"}
    if action.get("asked"):
        options = [
            {"optionId": "once", "name": "Allow once", "kind": "allow_once"},
            {"optionId": "no", "name": "Reject", "kind": "reject_once"},
        ]
        answer = call("session/request_permission", {
            "sessionId": sid, "toolCall": {**tool, "status": "pending"}, "options": options,
        })  # fmt: skip
        if answer.get("outcome", {}).get("optionId") != "once":
            return {"shell": argv, "refused": True}
    update(sid, {"sessionUpdate": "tool_call", **tool, "status": "in_progress"})
    done = subprocess.run(argv, cwd=action.get("cwd"), capture_output=True, timeout=60)
    update(sid, {"sessionUpdate": "tool_call_update", "toolCallId": call_id,
                 "status": "completed" if done.returncode == 0 else "failed"})  # fmt: skip
    return {"shell": argv, "exit": done.returncode}


def do_wait_for(sid: str, action: dict[str, Any]) -> dict[str, Any]:
    deadline = time.monotonic() + float(action.get("timeout", 20))
    while not os.path.exists(action["wait_for"]):
        if time.monotonic() > deadline:
            return {"wait_for": action["wait_for"], "ok": False}
        time.sleep(0.02)  # a fake agent's poll, not a test's wait
    return {"wait_for": action["wait_for"], "ok": True}


ACTIONS = {
    "ask": do_ask, "read": do_read, "write": do_write, "run": do_run, "terminal": do_terminal,
    "own_write": do_own_write, "shell": do_shell, "wait_for": do_wait_for,
}  # fmt: skip


def actions_in(text: str) -> list[dict[str, Any]] | None:
    """The actions of the prompt's last line, from its first `[` (a channel's prompt may
    start with a mention, and unseen messages come before it)."""
    lines = text.strip().splitlines()
    last = lines[-1] if lines else ""
    if "[" not in last:
        return None
    try:
        parsed = json.loads(last[last.index("[") :])
    except ValueError:
        return None
    if isinstance(parsed, list) and all(isinstance(a, dict) for a in parsed):
        return parsed
    return None


def handle_prompt(rid: int, params: dict[str, Any]) -> None:
    sid = params["sessionId"]
    blocks = params.get("prompt", [])
    text = "".join(b.get("text", "") for b in blocks if b.get("type") == "text")
    actions = actions_in(text)
    if actions is None:
        chunk(sid, f"echo: {text}")
    for action in actions or []:
        key = next((k for k in ACTIONS if k in action), None)
        if key is None:
            report(sid, {"unknown": action})
            continue
        try:
            report(sid, ACTIONS[key](sid, action))
        except ClientError as error:
            report(sid, {key: action[key], "error": error.error})
    send({"id": rid, "result": {"stopReason": "end_turn"}})


def handle(message: dict[str, Any]) -> None:
    method, rid, params = message.get("method"), message.get("id"), message.get("params") or {}
    if rpc.answered(message):  # an answer to one of our requests
        return
    if method == "initialize":
        send({"id": rid, "result": {
            "protocolVersion": 1,
            "agentCapabilities": {"loadSession": True},
            "agentInfo": {"name": "workspace-fake", "version": "0"},
        }})  # fmt: skip
    elif method == "session/new":
        sid = f"ws-session-{time.monotonic_ns()}"
        _cwds[sid] = params.get("cwd", "")
        send({"id": rid, "result": {"sessionId": sid}})
    elif method == "session/load":
        _cwds[params.get("sessionId", "")] = params.get("cwd", "")
        send({"id": rid, "result": {}})
    elif method == "session/prompt":
        threading.Thread(target=handle_prompt, args=(rid, params), daemon=True).start()
    elif method == "session/cancel":
        pass
    elif rid is not None:
        send({"id": rid, "error": {"code": -32601, "message": f"unknown method {method}"}})


if __name__ == "__main__":
    rpc.serve(handle)
