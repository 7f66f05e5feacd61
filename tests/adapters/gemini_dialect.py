"""Just enough of the Gemini API (generativelanguage v1beta) for gemini-cli's turn: a model that
answers `streamGenerateContent` (SSE) with one step of a script chosen from what the request
already holds (how many function responses), `generateContent` for the CLI's side questions
(routing, next-speaker and loop checks: a plain JSON answer), `countTokens`, and the models list.

A step is a text or a function call; `GeminiScript([...])` plays them in order for each message of
the person: the request with no function response since the person's last message gets step 0,
with one gets step 1, … (so a second message plays the script again)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from tests.adapters.scripted_http import Reply, Request

MODEL_PATH = re.compile(r"^/v1(?:beta|alpha)?/models/(?P<model>[^:/?]+):(?P<verb>\w+)")


@dataclass(frozen=True)
class Call:
    """A function call of the model: `name` is the CLI's tool name, `args` its arguments."""

    name: str
    args: dict[str, Any]


@dataclass
class GeminiScript:
    """A dialect: `ScriptedServer([GeminiScript([Call(...), "done"])])`."""

    steps: list[Call | str]
    # Every streamGenerateContent body the script answered, in order (the test reads them).
    turns: list[dict[str, Any]] = field(default_factory=list)

    def __call__(self, request: Request) -> Reply | None:
        path = request.path.split("?", 1)[0]
        if request.method == "GET" and re.match(r"^/v1(beta|alpha)?/models/?$", path):
            return Reply.json({"models": [{"name": "models/gemini-2.5-flash"}]})
        match = MODEL_PATH.match(path)
        if match is None:
            return None
        verb = match["verb"]
        if verb == "countTokens":
            return Reply.json({"totalTokens": len(request.body) // 4})
        if verb == "generateContent":
            return Reply.json(side_answer(request.json()))
        if verb == "streamGenerateContent":
            body = request.json()
            self.turns.append(body)
            step = self.steps[min(function_responses(body), len(self.steps) - 1)]
            return Reply(
                200, {"content-type": "text/event-stream"}, chunks=sse(candidate_events(step))
            )
        return None


def function_responses(body: dict[str, Any]) -> int:
    """How many tool results (`functionResponse` parts) follow the person's last message (the
    last user content with text and no function response)."""
    count = 0
    for content in body.get("contents") or []:
        parts = content.get("parts") or []
        if any("functionResponse" in part for part in parts):
            count += sum(1 for part in parts if "functionResponse" in part)
        elif content.get("role") == "user" and any("text" in part for part in parts):
            count = 0
    return count


def usage() -> dict[str, int]:
    return {"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15}


def candidate_events(step: Call | str) -> Iterator[dict[str, Any]]:
    if isinstance(step, Call):
        part: dict[str, Any] = {"functionCall": {"name": step.name, "args": step.args}}
        yield {
            "candidates": [
                {"content": {"role": "model", "parts": [part]}, "finishReason": "STOP", "index": 0}
            ],
            "usageMetadata": usage(),
        }
        return
    # Text in two chunks, the second one carrying the finish reason.
    half = len(step) // 2
    for index, piece in enumerate((step[:half], step[half:])):
        candidate: dict[str, Any] = {
            "content": {"role": "model", "parts": [{"text": piece}]},
            "index": 0,
        }
        if index == 1:
            candidate["finishReason"] = "STOP"
        yield {"candidates": [candidate], "usageMetadata": usage()}


def sse(events: Iterator[dict[str, Any]]) -> Iterator[bytes]:
    for data in events:
        yield f"data: {json.dumps(data)}\r\n\r\n".encode()


def side_answer(body: dict[str, Any]) -> dict[str, Any]:
    """The CLI's own questions (a JSON schema in generationConfig): the classifier routing a
    model, "who speaks next", loop detection. Answered with the least eventful choice."""
    config = body.get("generationConfig") or {}
    schema = config.get("responseJsonSchema") or config.get("responseSchema") or {}
    props = set((schema.get("properties") or {}).keys())
    answer: dict[str, Any]
    if "next_speaker" in props:
        answer = {"reasoning": "the model answered", "next_speaker": "user"}
    elif "model_choice" in props:
        answer = {"reasoning": "simple", "model_choice": "flash"}
    elif props:
        answer = {
            name: default_for(spec) for name, spec in (schema.get("properties") or {}).items()
        }
    else:
        answer = {}
    text = json.dumps(answer) if props else "ok"
    return {
        "candidates": [
            {"content": {"role": "model", "parts": [{"text": text}]}, "finishReason": "STOP"}
        ],
        "usageMetadata": usage(),
    }


def default_for(spec: dict[str, Any]) -> Any:
    kind = str(spec.get("type", "string")).lower()
    if "enum" in spec:
        return spec["enum"][0]
    return {"boolean": False, "number": 0, "integer": 0, "array": [], "object": {}}.get(kind, "")
