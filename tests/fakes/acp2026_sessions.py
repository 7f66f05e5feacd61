"""An ACP agent with sessions of its own, as 2026's agents keep them: `session/list` (paged, by
folder), `session/load` replaying a session's history, `session/resume`, `session/close`,
`session_info_update` titles and `logout`.

    python tests/fakes/acp2026_sessions.py [no-list] [no-resume] [no-close] [no-logout]
                                           [list-fails] [resume-fails] [many]

Its earlier sessions (in its working folder): `old-1` "Fix the parser" (a question, an answer
with a tool call), `old-2` "Write docs", `old-3` without a title, and `far-1` in another folder
(never listed for this one). `many`: 45 more sessions (`bulk-N`). Pages hold 2 sessions; the
cursor is `page-N`. `session/load` replays the session (user_message_chunk, agent chunks, a
tool call) then titles it; a load of an unknown id is an error. A prompt is answered
`echo: TEXT`; a prompt `title WORDS` makes the agent title the session WORDS. Each flag takes a
capability away; `list-fails` answers `session/list` with an error, `resume-fails`
`session/resume` (it advertises it). Every stdin line goes to
$FAKE_LOG.
"""

from __future__ import annotations

import os
import sys
import time
from typing import Any

import rpc  # tests/fakes/rpc.py: this script's folder is on sys.path
from rpc import chunk, send, update

FLAGS = set(sys.argv[1:])
HERE = os.getcwd()
PAGE = 2

HISTORIES: dict[str, list[tuple[str, str]]] = {
    "old-1": [("user", "why does the parser fail?"), ("tool", "read parser.py"),
              ("agent", "It skips the last token."), ("user", "fix it"),
              ("agent", "Fixed: the loop ends one later.")],
    "old-2": [("user", "write the docs"), ("agent", "Docs written.")],
    "old-3": [("user", "hello"), ("agent", "hi")],
    "far-1": [("user", "elsewhere"), ("agent", "far away")],
}  # fmt: skip
SESSIONS: list[dict[str, Any]] = [
    {"sessionId": "old-1", "cwd": HERE, "title": "Fix the parser",
     "updatedAt": "2026-11-30T10:00:00Z"},
    {"sessionId": "far-1", "cwd": "/elsewhere", "title": "Far",
     "updatedAt": "2026-11-29T10:00:00Z"},
    {"sessionId": "old-2", "cwd": HERE, "title": "Write docs", "updatedAt": "2026-11-28T09:00:00Z"},
    {"sessionId": "old-3", "cwd": HERE},
]  # fmt: skip
if "many" in FLAGS:
    for n in range(45):
        SESSIONS.append({"sessionId": f"bulk-{n}", "cwd": HERE, "title": f"Bulk {n}"})
        HISTORIES[f"bulk-{n}"] = [("user", f"bulk {n}"), ("agent", "ok")]
TITLES = {s["sessionId"]: s.get("title") for s in SESSIONS}
open_sessions: set[str] = set()


def capabilities() -> dict[str, Any]:
    sessions: dict[str, Any] = {}
    if "no-list" not in FLAGS:
        sessions["list"] = {}
    if "no-resume" not in FLAGS:
        sessions["resume"] = {}
    if "no-close" not in FLAGS:
        sessions["close"] = {}
    caps: dict[str, Any] = {"loadSession": True, "sessionCapabilities": sessions}
    if "no-logout" not in FLAGS:
        caps["auth"] = {"logout": {}}
    return caps


def same_folder(a: str, b: str) -> bool:
    return os.path.realpath(a) == os.path.realpath(b)


def listed(params: dict[str, Any]) -> dict[str, Any]:
    cwd = params.get("cwd")
    found = [s for s in SESSIONS if cwd is None or same_folder(s["cwd"], cwd)]
    cursor = params.get("cursor") or "page-0"
    start = int(cursor.split("-")[1]) * PAGE
    result: dict[str, Any] = {"sessions": found[start : start + PAGE]}
    if start + PAGE < len(found):
        result["nextCursor"] = f"page-{start // PAGE + 1}"
    return result


def replay(session_id: str) -> None:
    for n, (who, text) in enumerate(HISTORIES[session_id]):
        if who == "user":
            update(session_id, {"sessionUpdate": "user_message_chunk",
                                "content": {"type": "text", "text": text}})  # fmt: skip
        elif who == "tool":
            update(session_id, {"sessionUpdate": "tool_call", "toolCallId": f"t{n}",
                                "title": text, "kind": "read", "status": "completed"})  # fmt: skip
        else:
            chunk(session_id, text)
    title = TITLES.get(session_id)
    if title:
        update(session_id, {"sessionUpdate": "session_info_update", "title": title})


def handle(message: dict[str, Any]) -> None:
    method, rid, params = message.get("method"), message.get("id"), message.get("params") or {}
    if rpc.answered(message):
        return
    session_id = params.get("sessionId", "")
    if method == "initialize":
        send({"id": rid, "result": {
            "protocolVersion": 1,
            "agentCapabilities": capabilities(),
            "authMethods": [{"id": "browser", "name": "Sign in with a browser"}],
            "agentInfo": {"name": "sessions-2026", "version": "1.0.0"},
        }})  # fmt: skip
    elif method == "session/new":
        session_id = f"new-{time.monotonic_ns()}"
        open_sessions.add(session_id)
        send({"id": rid, "result": {"sessionId": session_id}})
    elif method == "session/list" and "no-list" not in FLAGS:
        if "list-fails" in FLAGS:
            send({"id": rid, "error": {"code": -32603, "message": "the session store is locked"}})
        else:
            send({"id": rid, "result": listed(params)})
    elif method == "session/load":
        if session_id not in HISTORIES:
            send({"id": rid, "error": {"code": -32002, "message": f"no session {session_id}"}})
            return
        replay(session_id)
        open_sessions.add(session_id)
        send({"id": rid, "result": {}})
    elif method == "session/resume" and "resume-fails" in FLAGS:
        send({"id": rid, "error": {"code": -32002, "message": f"no session {session_id}"}})
    elif method == "session/resume" and "no-resume" not in FLAGS:
        open_sessions.add(session_id)
        send({"id": rid, "result": {}})
    elif method == "session/close" and "no-close" not in FLAGS:
        open_sessions.discard(session_id)
        send({"id": rid, "result": {}})
    elif method == "logout" and "no-logout" not in FLAGS:
        send({"id": rid, "result": {}})
    elif method == "session/prompt":
        text = "".join(b.get("text", "") for b in params.get("prompt", []))
        last = text.splitlines()[-1] if text.strip() else ""
        words = last.split()
        if "title" in words:
            title = " ".join(words[words.index("title") + 1 :])
            update(session_id, {"sessionUpdate": "session_info_update", "title": title})
        chunk(session_id, f"echo: {last}")
        send({"id": rid, "result": {"stopReason": "end_turn"}})
    elif method == "session/cancel":
        pass
    elif rid is not None:
        send({"id": rid, "error": {"code": -32601, "message": f"unknown method {method}"}})


def main() -> None:
    rpc.serve(handle)


if __name__ == "__main__":
    main()
