"""An ACP agent that signs in with a web address and a code on its stdio, as gemini-cli's "Log in
with Google" does without a browser (its bundle: authWithUserCode).

    python tests/fakes/gemini_like.py

`initialize` announces one `agent` method, `oauth-personal` ("Log in with Google").
`authenticate` with it prints, on stdout between the JSON-RPC lines, "Please visit the following
URL to authorize the application:", a blank line, the address ($FAKE_AUTH_URL or a Google-like
one), a blank line, then "Enter the authorization code: " without a newline, and reads the next
stdin line as the code — whatever it is: like gemini's readline on the same stdin, a JSON-RPC
message sent meanwhile is taken as the code. The right code ($FAKE_AUTH_CODE, by default
`4/right-code`) signs in (authenticate answers {}); any other fails authenticate with -32603 as
gemini does ("Failed to authenticate with authorization code"). `session/new` and prompts fail
with -32000 "Authentication required" until then; a prompt is answered `echo: <its text>`.
Every stdin line received is appended to $FAKE_LOG when it is set.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

import rpc  # tests/fakes/rpc.py: this script's folder is on sys.path
from rpc import chunk, send

URL = os.environ.get(
    "FAKE_AUTH_URL",
    "https://accounts.google.com/o/oauth2/v2/auth?redirect_uri=https%3A%2F%2Fcodeassist.google"
    ".com%2Fauthcode&access_type=offline&scope=https%3A%2F%2Fwww.googleapis.com%2Fauth%2Fcloud"
    "-platform&code_challenge_method=S256&code_challenge=fake-challenge&state=fake-state"
    "&response_type=code&client_id=681255809395-fake.apps.googleusercontent.com",
)
CODE = os.environ.get("FAKE_AUTH_CODE", "4/right-code")
AUTH_METHODS = [
    {"id": "oauth-personal", "name": "Log in with Google", "description": "Log in with Google"}
]
signed_in = False
waiting_code: Any = None  # the id of the authenticate request waiting for its code


def raw(text: str) -> None:
    with rpc.out_lock:
        sys.stdout.write(text)
        sys.stdout.flush()


def handle(message: dict[str, Any]) -> None:
    global waiting_code
    method, rid, params = message.get("method"), message.get("id"), message.get("params") or {}
    if rpc.answered(message):
        return
    if method == "initialize":
        send({"id": rid, "result": {
            "protocolVersion": 1,
            "agentCapabilities": {"loadSession": False},
            "authMethods": AUTH_METHODS,
            "agentInfo": {"name": "gemini-cli", "version": "0.fake"},
        }})  # fmt: skip
    elif method == "authenticate" and params.get("methodId") == "oauth-personal":
        raw(f"Please visit the following URL to authorize the application:\n\n{URL}\n\n")
        raw("Enter the authorization code: ")
        waiting_code = rid
    elif method == "authenticate":
        send({"id": rid, "error": {"code": -32602, "message": "Invalid params"}})
    elif method in ("session/new", "session/prompt") and not signed_in:
        send({"id": rid, "error": {"code": -32000, "message": "Authentication required"}})
    elif method == "session/new":
        send({"id": rid, "result": {"sessionId": "gemini-like-session"}})
    elif method == "session/prompt":
        text = "".join(b.get("text", "") for b in params.get("prompt", []))
        chunk(params["sessionId"], f"echo: {text.splitlines()[-1] if text.strip() else ''}")
        send({"id": rid, "result": {"stopReason": "end_turn"}})
    elif rid is not None:
        send({"id": rid, "error": {"code": -32601, "message": f"unknown method {method}"}})


def take_code(line: str) -> None:
    """The line readline got: the code (or whatever came), then authenticate's answer."""
    global signed_in, waiting_code
    rid, waiting_code = waiting_code, None
    raw("\n")  # readline ends the prompt's line on Enter
    if line.strip() == CODE:
        signed_in = True
        send({"id": rid, "result": {}})
        return
    sys.stderr.write("Failed to authenticate with authorization code: invalid_grant\n")
    send({"id": rid, "error": {"code": -32603, "message": "Internal error", "data": {
        "details": "Failed to authenticate with authorization code: invalid_grant"}}})  # fmt: skip


def main() -> None:
    log = os.environ.get("FAKE_LOG")
    for line in sys.stdin:
        if log:
            with open(log, "a", encoding="utf-8", newline="") as f:
                f.write(line)
        if waiting_code is not None:
            take_code(line)
            continue
        try:
            message = json.loads(line)
        except ValueError:
            continue
        handle(message)


if __name__ == "__main__":
    main()
