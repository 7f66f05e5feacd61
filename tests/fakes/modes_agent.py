"""An ACP agent offering session modes and config options like the real adapters do.

    python tests/fakes/modes_agent.py FLAVOUR [no-load]

FLAVOUR:
  codex     codex-acp: modes read-only/auto/full-access (starts read-only), configOptions
            `model` (category model) and `reasoning_effort` (thought_level), whose choices
            depend on the model.
  opencode  opencode: no `modes`, its exact configOptions (tests/fakes/transcripts/opencode.jsonl):
            `model` and `mode` (category "mode": build/plan).
  claude    claude-agent-acp: modes default/acceptEdits/plan/dontAsk (starts default), and
            configOptions mode, model, effort (dist/acp-agent.js buildConfigOptions).
  switches  codex's modes and model, plus a boolean option `web_search` (off).

`session/set_mode` answers {} then confirms with a `current_mode_update`; an unknown mode is an
error. `session/set_config_option` answers with every option (a model change may change the
reasoning choices); unknown ids or values are errors. A prompt is answered
`mode=<mode> <option>=<value>...`; a prompt `go MODE` makes the agent switch itself (a
`current_mode_update`), `pick OPTION VALUE` makes it push a `config_option_update`.
`no-load`: the agent cannot `session/load`; `load-fails`: it says it can, then fails to.
Every stdin line is appended to $FAKE_LOG.
"""

from __future__ import annotations

import sys
import time
from typing import Any

import rpc  # tests/fakes/rpc.py: this script's folder is on sys.path
from rpc import chunk, send, update

FLAVOUR = sys.argv[1] if len(sys.argv) > 1 else "codex"
CAN_LOAD = "no-load" not in sys.argv[2:]
LOAD_FAILS = "load-fails" in sys.argv[2:]  # says it can load, then cannot find the session

CODEX_MODES = [
    {"id": "read-only", "name": "Read Only",
     "description": "Codex can read files and answer questions."},
    {"id": "auto", "name": "Auto",
     "description": "Codex can read files, make edits, and run commands in the workspace."},
    {"id": "full-access", "name": "Full Access",
     "description": "Codex can edit files outside this workspace and access the internet."},
]  # fmt: skip
CLAUDE_MODES = [
    {"id": "default", "name": "Default",
     "description": "Standard behavior, prompts for dangerous operations"},
    {"id": "acceptEdits", "name": "Accept Edits",
     "description": "Auto-accept file edit operations"},
    {"id": "plan", "name": "Plan Mode", "description": "Planning mode, no actual tool execution"},
    {"id": "dontAsk", "name": "Don't Ask",
     "description": "Don't prompt for permissions, deny if not pre-approved"},
]  # fmt: skip
# Reasoning efforts by codex model: the smaller model has fewer.
CODEX_EFFORTS = {"gpt-5.2-codex": ["low", "medium", "high"], "gpt-5.1-codex-mini": ["medium"]}
OPENCODE_MODELS = [
    ("opencode/big-pickle", "OpenCode Zen/Big Pickle"),
    ("opencode/ling-3.0-flash-fin-free", "OpenCode Zen/Ling 3.0 Flash Fin Free"),
    ("opencode/longcat-2.5-preview-free", "OpenCode Zen/LongCat 2.5 Preview Free"),
    ("opencode/mimo-v2.6-flash-free", "OpenCode Zen/MiMo-V2.6-Flash Free"),
    ("opencode/muse-spark-1.3-contributor-free", "OpenCode Zen/Muse Spark 1.3 Free"),
    ("opencode/nemotron-3-ultra-free", "OpenCode Zen/Nemotron 3 Ultra Free"),
    ("opencode/nemotron-3.5-lightning-free", "OpenCode Zen/Nemotron 3.5 Lightning Free"),
    ("opencode/space-bunny-free", "OpenCode Zen/Space Bunny Free"),
]
OPENCODE_MODES = [
    ("build", "The default agent. Executes tools based on configured permissions."),
    ("plan", "Plan mode. Disallows all edit tools."),
]
CLAUDE_MODELS = [("default", "Default (recommended)"), ("opus", "Opus"), ("haiku", "Haiku")]


def initial_state() -> dict[str, Any]:
    if FLAVOUR == "opencode":
        return {"mode": "", "model": "opencode/big-pickle", "opencode_mode": "build"}
    if FLAVOUR == "claude":
        return {"mode": "default", "model": "default", "effort": "default"}
    state: dict[str, Any] = {"mode": "read-only", "model": "gpt-5.2-codex"}
    state["reasoning_effort"] = "medium"
    if FLAVOUR == "switches":
        state["web_search"] = False
    return state


def modes() -> list[dict[str, str]]:
    return {"codex": CODEX_MODES, "switches": CODEX_MODES, "claude": CLAUDE_MODES}.get(FLAVOUR, [])


def select(
    option_id: str, name: str, category: str, value: str, choices: list[dict[str, str]]
) -> dict[str, Any]:
    return {"id": option_id, "name": name, "category": category, "type": "select",
            "currentValue": value, "options": choices}  # fmt: skip


def options(state: dict[str, Any]) -> list[dict[str, Any]]:
    if FLAVOUR == "opencode":
        return [
            select("model", "Model", "model", state["model"],
                   [{"value": v, "name": n} for v, n in OPENCODE_MODELS]),
            select("mode", "Session Mode", "mode", state["opencode_mode"],
                   [{"value": v, "name": v, "description": d} for v, d in OPENCODE_MODES]),
        ]  # fmt: skip
    if FLAVOUR == "claude":
        return [
            select("mode", "Mode", "mode", state["mode"],
                   [{"value": m["id"], "name": m["name"]} for m in CLAUDE_MODES]),
            select("model", "Model", "model", state["model"],
                   [{"value": v, "name": n} for v, n in CLAUDE_MODELS]),
            select("effort", "Effort", "thought_level", state["effort"],
                   [{"value": v, "name": v.title()} for v in ("default", "low", "high")]),
        ]  # fmt: skip
    found = [
        select("model", "Model", "model", state["model"],
               [{"value": m, "name": m} for m in CODEX_EFFORTS]),
        select("reasoning_effort", "Reasoning Effort", "thought_level",
               state["reasoning_effort"],
               [{"value": e, "name": e.title()} for e in CODEX_EFFORTS[state["model"]]]),
    ]  # fmt: skip
    if FLAVOUR == "switches":
        found.append({"id": "web_search", "name": "Web search", "type": "boolean",
                      "currentValue": state["web_search"]})  # fmt: skip
    return found


sessions: dict[str, dict[str, Any]] = {}


def setup(session_id: str) -> dict[str, Any]:
    state = sessions[session_id]
    result: dict[str, Any] = {"configOptions": options(state)}
    if modes():
        result["modes"] = {"currentModeId": state["mode"], "availableModes": modes()}
    return result


def set_option(state: dict[str, Any], option_id: str, value: Any) -> str:
    """The error for an unacceptable value, or "" once set."""
    offered = {o["id"]: o for o in options(state)}
    option = offered.get(option_id)
    if option is None:
        return f"unknown config option {option_id}"
    if option["type"] == "boolean":
        if not isinstance(value, bool):
            return f"{option_id} takes a boolean"
    elif value not in [c["value"] for c in option["options"]]:
        return f"invalid value {value} for {option_id}"
    key = "opencode_mode" if FLAVOUR == "opencode" and option_id == "mode" else option_id
    state[key] = value
    if option_id == "model" and FLAVOUR in ("codex", "switches"):
        efforts = CODEX_EFFORTS[value]
        if state["reasoning_effort"] not in efforts:
            state["reasoning_effort"] = efforts[0]
    return ""


def answer(session_id: str, text: str) -> None:
    state = sessions[session_id]
    words = text.split()  # the last words: the line may start with who wrote it
    if len(words) >= 2 and words[-2] == "go":
        state["mode"] = words[-1]
        update(session_id, {"sessionUpdate": "current_mode_update", "currentModeId": words[-1]})
    elif len(words) >= 3 and words[-3] == "pick":
        set_option(state, words[-2], words[-1])
        update(session_id, {"sessionUpdate": "config_option_update",
                            "configOptions": options(state)})  # fmt: skip
    said = " ".join(f"{k}={v}" for k, v in state.items() if v != "")
    chunk(session_id, said)


def handle(message: dict[str, Any]) -> None:
    method, rid, params = message.get("method"), message.get("id"), message.get("params") or {}
    if rpc.answered(message):
        return
    session_id = params.get("sessionId", "")
    if method == "initialize":
        send({"id": rid, "result": {
            "protocolVersion": 1,
            "agentCapabilities": {"loadSession": CAN_LOAD},
            "agentInfo": {"name": f"{FLAVOUR}-modes", "version": "1.0.0"},
        }})  # fmt: skip
    elif method == "session/new":
        session_id = f"{FLAVOUR}-session-{time.monotonic_ns()}"
        sessions[session_id] = initial_state()
        send({"id": rid, "result": {"sessionId": session_id, **setup(session_id)}})
    elif method == "session/load" and LOAD_FAILS:
        send({"id": rid, "error": {"code": -32002, "message": "Resource not found",
                                   "data": {"message": f"no session {session_id}"}}})  # fmt: skip
    elif method == "session/load" and CAN_LOAD:
        sessions[session_id] = initial_state()  # as the agent restores it
        send({"id": rid, "result": setup(session_id)})
    elif method == "session/set_mode" and session_id in sessions:
        mode = params.get("modeId")
        if mode not in [m["id"] for m in modes()]:
            send({"id": rid, "error": {"code": -32602, "message": "Invalid params",
                                       "data": {"message": f"unknown mode {mode}"}}})  # fmt: skip
            return
        sessions[session_id]["mode"] = mode
        send({"id": rid, "result": {}})
        update(session_id, {"sessionUpdate": "current_mode_update", "currentModeId": mode})
    elif method == "session/set_config_option" and session_id in sessions:
        state = sessions[session_id]
        error = set_option(state, params.get("configId", ""), params.get("value"))
        if error:
            send({"id": rid, "error": {"code": -32602, "message": "Invalid params",
                                       "data": {"message": error}}})  # fmt: skip
        else:
            send({"id": rid, "result": {"configOptions": options(state)}})
    elif method == "session/prompt":
        text = "".join(b.get("text", "") for b in params.get("prompt", []))
        answer(session_id, text.splitlines()[-1] if text.strip() else "")
        send({"id": rid, "result": {"stopReason": "end_turn"}})
    elif rid is not None:
        send({"id": rid, "error": {"code": -32601, "message": f"unknown method {method}"}})


def main() -> None:
    rpc.serve(handle)


if __name__ == "__main__":
    main()
