"""An ACP agent that needs a sign-in, answering as codex-acp does (tests/fakes/transcripts/).

    python tests/fakes/auth_agent.py

`initialize` announces codex's three sign-in methods: `chatgpt` (no type: the agent signs in by
itself) and two `env_var` ones. `session/new` and prompts fail with -32000 "Authentication
required" until `authenticate` succeeded; then sessions open and a prompt is answered
`echo: <its last line>`. `authenticate` with `openai-api-key` or `codex-api-key` succeeds only
when that variable is in its environment, and fails as codex-acp 0.16.0 does otherwise (-32603
"Internal error", data "OPENAI_API_KEY is not set"). Unlike codex, which does not check the key,
a key starting with `rejected` is refused, quoting it (as some services do). A prompt's answer
ends with `[key <variable> <first 7 characters>]` while signed in with a key.
Every stdin line received is appended to $FAKE_LOG when it is set.
"""

from __future__ import annotations

import os
import time
from typing import Any

import rpc  # tests/fakes/rpc.py: this script's folder is on sys.path
from rpc import chunk, send

AUTH_METHODS = [
    {
        "id": "chatgpt",
        "name": "Login with ChatGPT",
        "description": "Use your ChatGPT login with Codex CLI "
        "(requires a paid ChatGPT subscription)",
    },
    {
        "type": "env_var",
        "id": "codex-api-key",
        "name": "Use CODEX_API_KEY",
        "description": "Requires setting the `CODEX_API_KEY` environment variable.",
        "vars": [{"name": "CODEX_API_KEY"}],
    },
    {
        "type": "env_var",
        "id": "openai-api-key",
        "name": "Use OPENAI_API_KEY",
        "description": "Requires setting the `OPENAI_API_KEY` environment variable.",
        "vars": [{"name": "OPENAI_API_KEY"}],
    },
]
AUTH_REQUIRED = {"code": -32000, "message": "Authentication required"}
KEY_METHODS = {"openai-api-key": "OPENAI_API_KEY", "codex-api-key": "CODEX_API_KEY"}
signed_in = False
key_used = ""


def handle(message: dict[str, Any]) -> None:
    global signed_in, key_used
    method, rid, params = message.get("method"), message.get("id"), message.get("params") or {}
    if rpc.answered(message):
        return
    if method == "initialize":
        send({"id": rid, "result": {
            "protocolVersion": 1,
            "agentCapabilities": {"loadSession": True, "auth": {"logout": {}}},
            "authMethods": AUTH_METHODS,
            "agentInfo": {"name": "codex-acp", "title": "Codex", "version": "0.16.0"},
        }})  # fmt: skip
    elif method == "logout":  # as codex-acp does: it forgets its own sign-in
        signed_in = False
        send({"id": rid, "result": {}})
    elif method == "authenticate":
        variable = KEY_METHODS.get(params.get("methodId", ""))
        key = os.environ.get(variable or "", "")
        if params.get("methodId") == "chatgpt":
            signed_in = True
            send({"id": rid, "result": {}})
        elif variable and key.startswith("rejected"):
            send({"id": rid, "error": {"code": -32603, "message": "Internal error",
                                       "data": f"invalid api key: {key}"}})  # fmt: skip
        elif variable and key:
            signed_in, key_used = True, f" [key {variable} {key[:7]}]"
            send({"id": rid, "result": {}})
        elif variable:
            send({"id": rid, "error": {"code": -32603, "message": "Internal error",
                                       "data": f"{variable} is not set"}})  # fmt: skip
        else:
            send({"id": rid, "error": {"code": -32603, "message": "Internal error",
                                       "data": "unsupported authentication method"}})  # fmt: skip
    elif method in ("session/new", "session/prompt") and not signed_in:
        send({"id": rid, "error": AUTH_REQUIRED})
    elif method == "session/new":
        send({"id": rid, "result": {"sessionId": f"auth-session-{time.monotonic_ns()}"}})
    elif method == "session/prompt":
        text = "".join(b.get("text", "") for b in params.get("prompt", []))
        last = text.splitlines()[-1] if text.strip() else ""
        chunk(params["sessionId"], f"echo: {last}{key_used}")
        send({"id": rid, "result": {"stopReason": "end_turn"}})
    elif rid is not None:
        send({"id": rid, "error": {"code": -32601, "message": f"unknown method {method}"}})


def main() -> None:
    rpc.serve(handle)


if __name__ == "__main__":
    main()
