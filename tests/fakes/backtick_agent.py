"""An ACP agent whose every sentence quotes names in backticks, as real ones do ("Run `opencode
auth login`", "Requires setting the `CODEX_API_KEY` environment variable."): for the window's
check that they show as code, never as raw backticks (issue 29).

    python tests/fakes/backtick_agent.py

`initialize` announces one `env_var` sign-in method with such a description; `session/new`
opens a session (the agent does not insist on the sign-in); a prompt runs a tool titled
"`npm test`" (as claude-agent-acp titles a command), then fails with -32603 and data "Run
`opencode auth login` first, then try `/retry`".
"""

from __future__ import annotations

import time
from typing import Any

import rpc  # tests/fakes/rpc.py: this script's folder is on sys.path
from rpc import send, update

AUTH_METHODS = [
    {
        "type": "env_var",
        "id": "codex-api-key",
        "name": "Use CODEX_API_KEY",
        "description": "Requires setting the `CODEX_API_KEY` environment variable.",
        "vars": [{"name": "CODEX_API_KEY"}],
    },
]
PROMPT_ERROR = "Run `opencode auth login` first, then try `/retry`"


def handle(message: dict[str, Any]) -> None:
    method, rid = message.get("method"), message.get("id")
    if rpc.answered(message):
        return
    if method == "initialize":
        send({"id": rid, "result": {
            "protocolVersion": 1,
            "agentCapabilities": {},
            "authMethods": AUTH_METHODS,
            "agentInfo": {"name": "backticks", "title": "Backticks", "version": "1.0.0"},
        }})  # fmt: skip
    elif method == "session/new":
        send({"id": rid, "result": {"sessionId": f"tick-{time.monotonic_ns()}"}})
    elif method == "session/prompt":
        update(message["params"]["sessionId"], {"sessionUpdate": "tool_call", "toolCallId": "t1",
               "title": "`npm test`", "kind": "execute", "status": "completed"})  # fmt: skip
        send({"id": rid, "error": {"code": -32603, "message": "Internal error",
                                   "data": PROMPT_ERROR}})  # fmt: skip
    elif rid is not None:
        send({"id": rid, "error": {"code": -32601, "message": f"unknown method {method}"}})


if __name__ == "__main__":
    rpc.serve(handle)
