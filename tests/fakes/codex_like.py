"""An agent that fails like codex-acp: `session/new` answers a generic "Internal error" whose
explanation, coloured for a terminal, is in `data.message`. Raw JSON-RPC on stdio, no SDK.

    python tests/fakes/codex_like.py

It also writes a coloured line on stderr, as agents do, for the Logs.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from rpc import send  # tests/fakes/rpc.py: this script's folder is on sys.path

EXPLANATION = "\x1b[31mmodel gpt-x not available\x1b[0m"


def handle(message: dict[str, Any]) -> None:
    method, rid = message.get("method"), message.get("id")
    if method == "initialize":
        send({"id": rid, "result": {
            "protocolVersion": 1,
            "agentCapabilities": {},
            "agentInfo": {"name": "codex-like", "version": "0"},
        }})  # fmt: skip
    elif method == "session/new":
        error = {"code": -32603, "message": "Internal error", "data": {"message": EXPLANATION}}
        send({"id": rid, "error": error})
    elif rid is not None:
        send({"id": rid, "error": {"code": -32601, "message": f"unknown method {method}"}})


def main() -> None:
    sys.stderr.write("\x1b[33mWARN\x1b[0m codex-like ready\n")
    sys.stderr.flush()
    for raw in sys.stdin:
        try:
            handle(json.loads(raw))
        except ValueError:
            continue


if __name__ == "__main__":
    main()
