"""Just enough of OpenAI Chat Completions (`POST …/chat/completions`, streamed) for a turn of an
adapter whose provider speaks it (opencode's "@ai-sdk/openai-compatible" provider): a model that
answers with one step of a script chosen from what the request already holds, and `GET …/models`.

A step is a text or a tool call; `ChatScript([...])` plays them in order for each message of the
person: the request with no tool result (`role: "tool"`) since the last user message gets step 0,
with one gets step 1, … (so a second message plays the script again). A request without tools
(an adapter's own side question, e.g. a title for the session) gets `side_text`."""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from tests.adapters.scripted_http import Reply, Request

_ids = itertools.count(1)


@dataclass(frozen=True)
class ToolCall:
    """A function call of the model: `name` is the adapter's tool name, `args` its arguments."""

    name: str
    args: dict[str, Any]


@dataclass
class ChatScript:
    """A dialect: `ScriptedServer([ChatScript([ToolCall(...), "done"])])`."""

    steps: list[ToolCall | str]
    model: str = "scripted-model"
    side_text: str = "Scripted turn"
    # Every chat/completions body the script answered with a step, in order.
    turns: list[dict[str, Any]] = field(default_factory=list)

    def __call__(self, request: Request) -> Reply | None:
        path = request.path.split("?", 1)[0].rstrip("/")
        if request.method == "GET" and path.endswith("/models"):
            return Reply.json({"object": "list", "data": [{"id": self.model, "object": "model"}]})
        if request.method != "POST" or not path.endswith("/chat/completions"):
            return None
        body = request.json()
        if body.get("tools"):
            self.turns.append(body)
            step = self.steps[min(tool_results(body), len(self.steps) - 1)]
        else:
            step = self.side_text
        if not body.get("stream"):
            return Reply.json(completion(step, self.model))
        return Reply(200, {"content-type": "text/event-stream"}, chunks=stream(step, self.model))


def tool_results(body: dict[str, Any]) -> int:
    """How many tool results follow the last user message."""
    count = 0
    for message in body.get("messages") or []:
        if message.get("role") == "user":
            count = 0
        elif message.get("role") == "tool":
            count += 1
    return count


def usage() -> dict[str, int]:
    return {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}


def tool_call(step: ToolCall, index: int = 0) -> dict[str, Any]:
    return {
        "index": index,
        "id": f"call_{next(_ids)}",
        "type": "function",
        "function": {"name": step.name, "arguments": json.dumps(step.args)},
    }


def completion(step: ToolCall | str, model: str) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": None}
    if isinstance(step, ToolCall):
        call = tool_call(step)
        del call["index"]
        message["tool_calls"] = [call]
        reason = "tool_calls"
    else:
        message["content"] = step
        reason = "stop"
    return {
        "id": f"chatcmpl-{next(_ids)}",
        "object": "chat.completion",
        "created": 0,
        "model": model,
        "choices": [{"index": 0, "message": message, "finish_reason": reason}],
        "usage": usage(),
    }


def stream(step: ToolCall | str, model: str) -> Iterator[bytes]:
    ident = f"chatcmpl-{next(_ids)}"

    def chunk(delta: dict[str, Any], reason: str | None = None, **extra: Any) -> bytes:
        data = {
            "id": ident,
            "object": "chat.completion.chunk",
            "created": 0,
            "model": model,
            "choices": [{"index": 0, "delta": delta, "finish_reason": reason}],
            **extra,
        }
        return f"data: {json.dumps(data)}\n\n".encode()

    if isinstance(step, ToolCall):
        yield chunk({"role": "assistant", "content": None, "tool_calls": [tool_call(step)]})
        yield chunk({}, "tool_calls", usage=usage())
    else:
        half = len(step) // 2
        yield chunk({"role": "assistant", "content": step[:half]})
        yield chunk({"content": step[half:]})
        yield chunk({}, "stop", usage=usage())
    yield b"data: [DONE]\n\n"
