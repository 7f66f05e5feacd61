"""An ACP agent that asks the person things (elicitation) and cancels its own requests
(`$/cancel_request`), as agents of 2026 do (issue 26).

    python tests/fakes/acp2026_elicit.py

What a prompt's last word asks for:
  form          an `elicitation/create` form with every kind of field; answers
                `answer=<the client's JSON result>`
  url           a url-mode elicitation (https); answers `answer=<result>`
  url-file      a url-mode elicitation with a file: address; answers `answer=<result>`
  request-form  a request-scoped form (it names the prompt's JSON-RPC id, no session)
  withdraw      a form, then once $FAKE_GO/withdraw exists, a `$/cancel_request` for it;
                answers `withdrawn=<the client's JSON answer>`
  withdraw-permission  the same with session/request_permission
  complete      a url-mode elicitation, then once $FAKE_GO/complete exists, an
                `elicitation/complete` for it; answers `answer=<result>`
  flood         70 forms at once; answers `answered=<n> cancelled=<n>` once all are answered
  hang          ignores session/cancel (the prompt never ends; `$/cancel_request` for it is
                logged and ends it with stopReason cancelled)
Every stdin line is appended to $FAKE_LOG.
"""

from __future__ import annotations

import json
import os
import threading
import time
from pathlib import Path
from typing import Any

import rpc  # tests/fakes/rpc.py: this script's folder is on sys.path
from rpc import chunk, send

SCHEMA = {
    "type": "object",
    "title": "Deployment <b>settings</b>",
    "description": "Where to deploy",
    "properties": {
        "name": {"type": "string", "title": "Name", "minLength": 2, "default": "demo"},
        "email": {"type": "string", "format": "email", "description": "For the report"},
        "region": {"type": "string", "enum": ["eu", "us"], "default": "eu"},
        "size": {
            "type": "string",
            "oneOf": [{"const": "s", "title": "Small"}, {"const": "l", "title": "Large"}],
        },
        "replicas": {"type": "integer", "minimum": 1, "maximum": 5, "default": 2},
        "ratio": {"type": "number", "minimum": 0, "maximum": 1},
        "confirm": {"type": "boolean", "title": "Confirm", "default": False},
        "features": {
            "type": "array",
            "items": {"anyOf": [{"const": "a", "title": "Alpha"}, {"const": "b", "title": "Beta"}]},
            "maxItems": 2,
        },
        "strange": {"type": "x-unknown"},
    },
    "required": ["name", "region", "replicas"],
}
SMALL = {"type": "object", "properties": {"ok": {"type": "boolean"}}}
GO = Path(os.environ.get("FAKE_GO", "."))
prompts: dict[str, Any] = {}  # session → the prompt's request id


def form(session_id: str, schema: dict[str, Any] = SCHEMA) -> dict[str, Any]:
    return {"sessionId": session_id, "mode": "form", "message": "Please fill <i>this</i> in",
            "requestedSchema": schema}  # fmt: skip


def url_mode(session_id: str, url: str, elicitation_id: str = "el-1") -> dict[str, Any]:
    return {"sessionId": session_id, "mode": "url", "message": "Sign in to the service",
            "elicitationId": elicitation_id, "url": url}  # fmt: skip


def wait_file(name: str) -> None:
    while not (GO / name).exists():  # the test creates it once it saw the prompt
        time.sleep(0.01)


def said(result: dict[str, Any]) -> str:
    return json.dumps(result.get("result", result.get("error")), sort_keys=True)


def prompt(session_id: str, rid: Any, word: str) -> None:
    if word == "form":
        chunk(session_id, "answer=" + said(rpc.request("elicitation/create", form(session_id))))
    elif word == "request-form":
        params = {"requestId": rid, "mode": "form", "message": "About this prompt",
                  "requestedSchema": SMALL}  # fmt: skip
        chunk(session_id, "answer=" + said(rpc.request("elicitation/create", params)))
    elif word == "url":
        params = url_mode(session_id, "https://example.com/login?x=1")
        chunk(session_id, "answer=" + said(rpc.request("elicitation/create", params)))
    elif word == "url-file":
        params = url_mode(session_id, "file:///etc/passwd")
        chunk(session_id, "answer=" + said(rpc.request("elicitation/create", params)))
    elif word in ("withdraw", "withdraw-permission"):
        if word == "withdraw":
            asked = rpc.send_request("elicitation/create", form(session_id, SMALL))
        else:
            asked = rpc.send_request("session/request_permission", {
                "sessionId": session_id,
                "toolCall": {"toolCallId": "t1", "title": "Delete everything", "kind": "delete",
                             "status": "pending"},
                "options": [{"optionId": "y", "name": "Allow", "kind": "allow_once"},
                            {"optionId": "n", "name": "Reject", "kind": "reject_once"}],
            })  # fmt: skip
        wait_file(word)
        send({"method": "$/cancel_request", "params": {"requestId": asked}})
        chunk(session_id, "withdrawn=" + said(rpc.answer_to(asked)))
    elif word == "complete":
        asked = rpc.send_request("elicitation/create", url_mode(session_id, "https://example.com"))
        wait_file("complete")
        send({"method": "elicitation/complete", "params": {"elicitationId": "el-1"}})
        chunk(session_id, "answer=" + said(rpc.answer_to(asked)))
    elif word == "flood":
        ids = [rpc.send_request("elicitation/create", form(session_id, SMALL)) for _ in range(70)]
        actions = [rpc.answer_to(i).get("result", {}).get("action") for i in ids]
        cancelled = actions.count("cancel")
        chunk(session_id, f"answered={len(actions) - cancelled} cancelled={cancelled}")
    elif word == "hang":
        prompts[session_id] = rid
        return  # answered when Sidekicks cancels the request
    else:
        chunk(session_id, "ok")
    send({"id": rid, "result": {"stopReason": "end_turn"}})


def handle(message: dict[str, Any]) -> None:
    method, rid, params = message.get("method"), message.get("id"), message.get("params") or {}
    if rpc.answered(message):
        return
    session_id = params.get("sessionId", "")
    if method == "initialize":
        send({"id": rid, "result": {
            "protocolVersion": 1,
            "agentCapabilities": {"loadSession": False},
            "agentInfo": {"name": "elicit", "version": "1.0.0"},
            "_meta": {"clientCapabilities": params.get("clientCapabilities")},
        }})  # fmt: skip
    elif method == "session/new":
        send({"id": rid, "result": {"sessionId": f"elicit-{time.monotonic_ns()}"}})
    elif method == "session/prompt":
        text = "".join(b.get("text", "") for b in params.get("prompt", []))
        word = text.split()[-1] if text.split() else ""
        threading.Thread(target=prompt, args=(session_id, rid, word), daemon=True).start()
    elif method == "$/cancel_request":
        cancelled = params.get("requestId")
        for session, prompt_id in list(prompts.items()):
            if prompt_id == cancelled:
                del prompts[session]
                send({"id": prompt_id, "error": {"code": -32800, "message": "Request cancelled"}})
    elif method == "session/cancel":
        pass  # `hang` ignores it; the others end by themselves
    elif rid is not None:
        send({"id": rid, "error": {"code": -32601, "message": f"unknown method {method}"}})


def main() -> None:
    rpc.serve(handle)


if __name__ == "__main__":
    main()
