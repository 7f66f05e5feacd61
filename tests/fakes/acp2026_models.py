"""An ACP agent offering its models the older way, and failing the way the real adapters fail.

    python tests/fakes/acp2026_models.py FLAVOUR

FLAVOUR:
  gemini   gemini-cli 0.61: modes default/autoEdit/yolo, and its models only in the older
           `models` field of `session/new` and `session/load` (`availableModels`,
           `currentModelId`), set with `session/set_model` (answers {}; an unknown model is an
           error). No configOptions.
  both     the `models` field AND a config option `model_id` of category "model" (which wins),
           plus a boolean option `web_search`.
  broken   `models` that do not parse (the session still opens).
  refuses  gemini's answer to `session/new` with a key the API refuses: a -32603 whose message
           is "error: " and the API's JSON error body.

A prompt is answered `model=<model> <option>=<value>...`. A prompt ending `fail SHAPE` fails the
turn with an error as a real adapter sends it:
  claude      the sentence streamed as answer text, then a -32603 with the same sentence
  kinds       -32603 "Internal error", data {details, errorKind: "other"}
  reset       "fetch failed (ECONNRESET)", data {kind: "unknown"}
  json        gemini: "error: {"error":{"code":401,"message":...}}" as the message
  session     opencode: "Internal error", data {message, kind: "session", name: "APIError"}
Every stdin line is appended to $FAKE_LOG.
"""

from __future__ import annotations

import json
import sys
import time
from typing import Any

import rpc  # tests/fakes/rpc.py: this script's folder is on sys.path
from rpc import chunk, send

FLAVOUR = sys.argv[1] if len(sys.argv) > 1 else "gemini"

GEMINI_MODES = [
    {"id": "default", "name": "Default", "description": "Prompts for approval"},
    {"id": "autoEdit", "name": "Auto Edit", "description": "Auto-approves edit tools"},
    {"id": "yolo", "name": "YOLO", "description": "Auto-approves all tools"},
]
GEMINI_MODELS = [
    {"modelId": "auto-gemini-2.5", "name": "Auto (Gemini 2.5)",
     "description": "Let Gemini CLI decide the best model for the task"},
    {"modelId": "gemini-2.5-pro", "name": "gemini-2.5-pro"},
    {"modelId": "gemini-2.5-flash", "name": "gemini-2.5-flash"},
    {"modelId": "gemini-2.5-flash-lite", "name": "gemini-2.5-flash-lite"},
]  # fmt: skip
CONFIG_MODELS = ["big-model", "small-model"]
INVALID_KEY = (
    "Request had invalid authentication credentials. Expected OAuth 2 access token, login "
    "cookie or other valid authentication credential."
)
FAILURES: dict[str, dict[str, Any]] = {
    "claude": {"code": -32603, "message": "Internal error: API Error: 529 Overloaded"},
    "kinds": {"code": -32603, "message": "Internal error",
              "data": {"details": "The model stopped answering", "errorKind": "other"}},
    "reset": {"code": -32603, "message": "fetch failed (ECONNRESET)",
              "data": {"kind": "unknown"}},
    "json": {"code": -32603, "message": "error: " + json.dumps(
        {"error": {"code": 401, "message": INVALID_KEY, "status": "UNAUTHENTICATED"}})},
    "session": {"code": -32603, "message": "Internal error",
                "data": {"message": "Rate limit reached", "kind": "session",
                         "name": "APIError"}},
}  # fmt: skip

sessions: dict[str, dict[str, Any]] = {}


def initial_state() -> dict[str, Any]:
    state: dict[str, Any] = {"mode": "default", "model": "auto-gemini-2.5"}
    if FLAVOUR == "both":
        state.update(model_id="big-model", web_search=False)
    return state


def setup(session_id: str) -> dict[str, Any]:
    state = sessions[session_id]
    result: dict[str, Any] = {
        "modes": {"currentModeId": state["mode"], "availableModes": GEMINI_MODES},
        "models": {"availableModels": GEMINI_MODELS, "currentModelId": state["model"]},
    }
    if FLAVOUR == "broken":
        result["models"] = {"availableModels": "all of them"}
    if FLAVOUR == "both":
        result["configOptions"] = options(state)
    return result


def options(state: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        {"id": "model_id", "name": "Model", "category": "model", "type": "select",
         "currentValue": state["model_id"],
         "options": [{"value": m, "name": m} for m in CONFIG_MODELS]},
        {"id": "web_search", "name": "Web search", "type": "boolean",
         "currentValue": state["web_search"]},
    ]  # fmt: skip


def invalid(rid: object, message: str) -> None:
    send({"id": rid, "error": {"code": -32602, "message": "Invalid params",
                               "data": {"message": message}}})  # fmt: skip


def answer(rid: object, session_id: str, text: str) -> None:
    state = sessions[session_id]
    words = text.split()
    if len(words) >= 2 and words[-2] == "fail" and words[-1] in FAILURES:
        failure = FAILURES[words[-1]]
        if words[-1] == "claude":  # claude-agent-acp says it as text first
            chunk(session_id, "API Error: 529 Overloaded")
        send({"id": rid, "error": failure})
        return
    chunk(session_id, " ".join(f"{k}={v}" for k, v in state.items()))
    send({"id": rid, "result": {"stopReason": "end_turn"}})


def handle(message: dict[str, Any]) -> None:
    method, rid, params = message.get("method"), message.get("id"), message.get("params") or {}
    if rpc.answered(message):
        return
    session_id = params.get("sessionId", "")
    if method == "initialize":
        send({"id": rid, "result": {
            "protocolVersion": 1,
            "agentCapabilities": {"loadSession": True},
            "agentInfo": {"name": f"{FLAVOUR}-models", "version": "1.0.0"},
        }})  # fmt: skip
    elif method == "session/new" and FLAVOUR == "refuses":
        send({"id": rid, "error": FAILURES["json"]})
    elif method == "session/new":
        session_id = f"{FLAVOUR}-session-{time.monotonic_ns()}"
        sessions[session_id] = initial_state()
        send({"id": rid, "result": {"sessionId": session_id, **setup(session_id)}})
    elif method == "session/load":
        sessions[session_id] = initial_state()
        send({"id": rid, "result": setup(session_id)})
    elif method == "session/set_model" and session_id in sessions:
        model = params.get("modelId")
        if model not in [m["modelId"] for m in GEMINI_MODELS]:
            invalid(rid, f"unknown model {model}")
            return
        sessions[session_id]["model"] = model
        send({"id": rid, "result": {}})
    elif method == "session/set_mode" and session_id in sessions:
        sessions[session_id]["mode"] = params.get("modeId")
        send({"id": rid, "result": {}})
    elif method == "session/set_config_option" and FLAVOUR == "both" and session_id in sessions:
        state, option_id, value = sessions[session_id], params.get("configId"), params.get("value")
        if option_id not in ("model_id", "web_search"):
            invalid(rid, f"unknown config option {option_id}")
            return
        state[option_id] = value
        send({"id": rid, "result": {"configOptions": options(state)}})
    elif method == "session/prompt":
        text = "".join(b.get("text", "") for b in params.get("prompt", []))
        answer(rid, session_id, text.splitlines()[-1] if text.strip() else "")
    elif rid is not None:
        send({"id": rid, "error": {"code": -32601, "message": f"unknown method {method}"}})


def main() -> None:
    rpc.serve(handle)


if __name__ == "__main__":
    main()
