"""Just enough of the Anthropic Messages API for the scripted model server (scripted_http.py):
`POST /v1/messages` streamed (server-sent events) or not, and `POST /v1/messages/count_tokens`.

The script is a list of steps, `ToolUse(name, input)` or `Text(text)`. A request of the agent's
loop (one that offers the tool of the script's first step) gets step N where N is the number of
tool results the request carries since the person's last prompt: the first request gets the first
tool call, the request carrying its result the second, and so on; past the last step, the last
one again. A second prompt in the same session plays the script again. Any other
request (a title, a summary, a quota check the client makes on the side) gets a short text."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from tests.adapters.scripted_http import Reply, Request


@dataclass(frozen=True)
class ToolUse:
    name: str
    input: dict[str, Any]


@dataclass(frozen=True)
class Text:
    text: str


Step = ToolUse | Text


def tool_results(body: dict[str, Any]) -> int:
    """How many tool results the request carries since the person's last prompt (the last user
    message that carries no tool result): a second prompt in the same session starts again."""
    count = 0
    for message in body.get("messages") or []:
        if message.get("role") != "user":
            continue
        content = message.get("content")
        blocks = content if isinstance(content, list) else []
        results = sum(1 for b in blocks if isinstance(b, dict) and b.get("type") == "tool_result")
        count = count + results if results else 0
    return count


def tool_names(body: dict[str, Any]) -> list[str]:
    return [str(t.get("name")) for t in body.get("tools") or [] if isinstance(t, dict)]


@dataclass
class AnthropicDialect:
    """`AnthropicDialect(steps)` is a dialect for ScriptedServer. `loop_requests` keeps the
    bodies of the agent loop's requests (the ones the script answered), `side_requests` the
    others."""

    steps: list[Step]
    side_text: str = "ok"
    loop_requests: list[dict[str, Any]] = field(default_factory=list)
    side_requests: list[dict[str, Any]] = field(default_factory=list)
    _ids: Iterator[int] = field(default_factory=lambda: iter(range(1, 1_000_000)))

    def __call__(self, request: Request) -> Reply | None:
        path = request.path.split("?", 1)[0]
        if request.method != "POST":
            return None
        if path.endswith("/v1/messages/count_tokens"):
            return Reply.json({"input_tokens": 100})
        if not path.endswith("/v1/messages"):
            return None
        body = request.json()
        first = self.steps[0]
        is_loop = not isinstance(first, ToolUse) or first.name in tool_names(body)
        if is_loop:
            self.loop_requests.append(body)
            step = self.steps[min(tool_results(body), len(self.steps) - 1)]
        else:
            self.side_requests.append(body)
            step = Text(self.side_text)
        return self.reply(body, step)

    def reply(self, body: dict[str, Any], step: Step) -> Reply:
        number = next(self._ids)
        if isinstance(step, ToolUse):
            block: dict[str, Any] = {
                "type": "tool_use",
                "id": f"toolu_{number:04d}",
                "name": step.name,
                "input": step.input,
            }
            stop = "tool_use"
        else:
            block = {"type": "text", "text": step.text}
            stop = "end_turn"
        model = str(body.get("model") or "claude-scripted")
        usage = {"input_tokens": 10, "output_tokens": 5}
        message = {
            "id": f"msg_{number:04d}",
            "type": "message",
            "role": "assistant",
            "model": model,
            "content": [block],
            "stop_reason": stop,
            "stop_sequence": None,
            "usage": usage,
        }
        if not body.get("stream"):
            return Reply.json(message)
        return Reply.events(stream_events(message, block))


def stream_events(message: dict[str, Any], block: dict[str, Any]) -> list[tuple[str, Any]]:
    start = {**message, "content": [], "stop_reason": None, "usage": {**message["usage"]}}
    if block["type"] == "tool_use":
        opened = {**block, "input": {}}
        delta: dict[str, Any] = {
            "type": "input_json_delta",
            "partial_json": json.dumps(block["input"]),
        }
    else:
        opened = {"type": "text", "text": ""}
        delta = {"type": "text_delta", "text": block["text"]}
    events: list[tuple[str, Any]] = [
        ("message_start", {"type": "message_start", "message": start}),
        (
            "content_block_start",
            {"type": "content_block_start", "index": 0, "content_block": opened},
        ),
        ("ping", {"type": "ping"}),
        ("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": delta}),
        ("content_block_stop", {"type": "content_block_stop", "index": 0}),
        (
            "message_delta",
            {
                "type": "message_delta",
                "delta": {"stop_reason": message["stop_reason"], "stop_sequence": None},
                "usage": {"output_tokens": message["usage"]["output_tokens"]},
            },
        ),
        ("message_stop", {"type": "message_stop"}),
    ]
    return events
