"""An ACP agent that signs in in a terminal, as claude-agent-acp does (tests/fakes/transcripts/).

    python tests/fakes/claude_like.py            an agent
    python tests/fakes/claude_like.py --login    its login program, for a terminal
    python tests/fakes/claude_like.py --exits    an agent failing as claude-agent-acp without
                                                 credentials does (below)

As an agent, `initialize` announces claude's two `terminal` methods, each with
`_meta["terminal-auth"]` naming this script with `--login` (claude names its own node binary and
script with `--cli auth login`). `session/new` answers -32000 "Authentication required" until
the credentials file ($FAKE_CREDENTIALS) exists; then a prompt is answered `echo: <its text>`.
With `--exits`, `session/new` without credentials fails as claude-agent-acp's does when Claude
Code exits for want of a login: -32603 "Claude Code process exited with code 1" (no hint of a
sign-in in it).

As a login program it refuses to run without a terminal (stdin must be a tty, as claude's login
UI requires), prints $FAKE_LOGIN_URL when set (hard-wrapped at the terminal's width between
escape codes, as claude's login screen does), then `Paste your code: `, reads one line, writes
it to $FAKE_CREDENTIALS and exits 0 (1 for an empty line). It prints its window size first
(`size <cols>x<rows>`). When $FAKE_LOGIN_HELPERS names a file, it first starts two helpers
that leave its group and session (`setsid sleep 600`, and a Python child calling os.setsid())
and writes their pids there.
Every stdin line the agent receives is appended to $FAKE_LOG when it is set.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

CREDENTIALS = Path(os.environ.get("FAKE_CREDENTIALS", "credentials-not-set"))
HELPER = "import os, time; os.setsid(); print('left', flush=True); time.sleep(600)"


def start_helpers(pidfile: str) -> None:
    sleeper = subprocess.Popen(["setsid", "sleep", "600"], stdin=subprocess.DEVNULL)
    child = subprocess.Popen([sys.executable, "-c", HELPER], stdout=subprocess.PIPE)
    assert child.stdout is not None
    child.stdout.readline()  # it left its session
    Path(pidfile + ".tmp").write_text(f"{sleeper.pid} {child.pid}", encoding="utf-8")
    os.replace(pidfile + ".tmp", pidfile)  # the reader sees both pids or no file


def login() -> int:
    if not os.isatty(0):
        sys.stderr.write("error: the login needs a terminal\n")
        return 2
    if os.environ.get("FAKE_LOGIN_HELPERS"):
        start_helpers(os.environ["FAKE_LOGIN_HELPERS"])
    size = shutil.get_terminal_size((0, 0))
    sys.stdout.write(f"size {size.columns}x{size.lines}\r\n")
    url, width = os.environ.get("FAKE_LOGIN_URL", ""), max(size.columns, 20)
    if url:
        sys.stdout.write(
            "\x1b[1mBrowser didn't open? Use the url below to sign in:\x1b[22m\r\n\r\n"
        )
        for start in range(0, len(url), width):
            sys.stdout.write(f"\x1b[2m{url[start : start + width]}\x1b[22m\r\n")
        sys.stdout.write("\r\n")
    sys.stdout.write("Paste your code: ")
    sys.stdout.flush()
    line = sys.stdin.readline().strip()
    if not line:
        sys.stdout.write("no code: not signed in\r\n")
        return 1
    CREDENTIALS.write_text(line, encoding="utf-8")
    sys.stdout.write("Signed in ✓\r\n")
    sys.stdout.flush()
    return 0


def methods() -> list[dict[str, Any]]:
    me = [sys.executable, os.path.abspath(__file__)]
    return [
        {
            "id": method_id,
            "name": name,
            "description": description,
            "type": "terminal",
            "args": ["--login"],
            "_meta": {
                "terminal-auth": {"command": me[0], "args": [*me[1:], "--login"], "label": label}
            },
        }
        for method_id, name, description, label in [
            ("claude-ai-login", "Claude Subscription", "Use Claude subscription ", "Claude Login"),
            (
                "console-login",
                "Anthropic Console",
                "Use Anthropic Console (API usage billing)",
                "Anthropic Console Login",
            ),
        ]
    ]


def handle(message: dict[str, Any]) -> None:
    import rpc  # tests/fakes/rpc.py: this script's folder is on sys.path
    from rpc import chunk, send

    method, rid, params = message.get("method"), message.get("id"), message.get("params") or {}
    if rpc.answered(message):
        return
    if method == "initialize":
        send({"id": rid, "result": {
            "protocolVersion": 1,
            "agentCapabilities": {"loadSession": True},
            "authMethods": methods(),
            "agentInfo": {"name": "claude-like", "version": "0"},
        }})  # fmt: skip
    elif method == "session/new" and not CREDENTIALS.exists() and "--exits" in sys.argv:
        exited = "Claude Code process exited with code 1"
        send({"id": rid, "error": {"code": -32603, "message": exited}})
    elif method == "session/new" and not CREDENTIALS.exists():
        send({"id": rid, "error": {"code": -32000, "message": "Authentication required"}})
    elif method == "session/new":
        send({"id": rid, "result": {"sessionId": "claude-like-session"}})
    elif method == "session/prompt":
        text = "".join(b.get("text", "") for b in params.get("prompt", []))
        chunk(params["sessionId"], f"echo: {text.splitlines()[-1] if text.strip() else ''}")
        send({"id": rid, "result": {"stopReason": "end_turn"}})
    elif rid is not None:
        send({"id": rid, "error": {"code": -32601, "message": f"unknown method {method}"}})


def main() -> None:
    if "--login" in sys.argv[1:]:
        sys.exit(login())
    import rpc

    rpc.serve(handle)


if __name__ == "__main__":
    main()
