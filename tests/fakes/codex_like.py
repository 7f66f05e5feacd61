"""An agent that fails like codex-acp: `session/new` answers a generic "Internal error" whose
explanation, coloured for a terminal, is in `data.message`. Raw JSON-RPC on stdio, no SDK.

    python tests/fakes/codex_like.py [dies-coloured]

It also writes a coloured line on stderr, as agents do, for the Logs. With `dies-coloured`,
`session/new` works and a prompt makes it write a coloured error on stderr and exit 1.
"""

from __future__ import annotations

import sys
from typing import Any

import rpc
from rpc import send  # tests/fakes/rpc.py: this script's folder is on sys.path

DIES_COLOURED = "dies-coloured" in sys.argv[1:]
EXPLANATION = "\x1b[31mmodel gpt-x not available\x1b[0m"


def handle(message: dict[str, Any]) -> None:
    method, rid = message.get("method"), message.get("id")
    if method == "initialize":
        send({"id": rid, "result": {
            "protocolVersion": 1,
            "agentCapabilities": {},
            "agentInfo": {"name": "codex-like", "version": "0"},
        }})  # fmt: skip
    elif method == "session/new" and DIES_COLOURED:
        send({"id": rid, "result": {"sessionId": "codex-like-session"}})
    elif method == "session/prompt" and DIES_COLOURED:
        sys.stderr.write("\x1b[1;31merror:\x1b[0m stream disconnected \x1b]0;codex\x07\n")
        sys.stderr.flush()
        sys.exit(1)
    elif method == "session/new":
        error = {"code": -32603, "message": "Internal error", "data": {"message": EXPLANATION}}
        send({"id": rid, "error": error})
    elif rid is not None:
        send({"id": rid, "error": {"code": -32601, "message": f"unknown method {method}"}})


def main() -> None:
    sys.stderr.write("\x1b[33mWARN\x1b[0m codex-like ready\n")
    sys.stderr.flush()
    rpc.serve(handle)


if __name__ == "__main__":
    main()
