"""Just enough of the OpenAI Responses API for the scripted model server (scripted_http.py):
`POST …/responses` streamed as server-sent events (what Codex sends), and `GET …/models`
answered with an empty list (Codex then keeps the model families it ships with).

The script is a list of steps, each one output item of the Responses API: `Call(name, arguments)`
(a `function_call`, arguments a JSON object), `Custom(name, input)` (a `custom_tool_call`, a
freeform tool such as Codex's apply_patch) or `Say(text)` (an assistant `message`). A request
that offers the tool of the script's first step is the agent's loop: it gets step N where N is
the number of tool outputs its `input` carries since the last user message
(`function_call_output`, `custom_tool_call_output`); past the last step, the last one again, and
a second prompt in the same session plays the script again. Other requests (a title, a
summary) get a short text."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from tests.adapters.scripted_http import Reply, Request

OUTPUTS = ("function_call_output", "custom_tool_call_output", "local_shell_call_output")


@dataclass(frozen=True)
class Call:
    name: str
    arguments: dict[str, Any]


@dataclass(frozen=True)
class Custom:
    name: str
    input: str


@dataclass(frozen=True)
class Say:
    text: str


Step = Call | Custom | Say


def tool_outputs(body: dict[str, Any]) -> int:
    """How many tool outputs the request's `input` carries since the person's last message."""
    items = body.get("input")
    count = 0
    for item in items if isinstance(items, list) else []:
        if not isinstance(item, dict):
            continue
        if item.get("type") in OUTPUTS:
            count += 1
        elif item.get("type", "message") == "message" and item.get("role") == "user":
            count = 0
    return count


def tool_names(body: dict[str, Any]) -> list[str]:
    names = []
    for tool in body.get("tools") or []:
        if isinstance(tool, dict):
            # {"type": "function", "name": …} or, in Chat Completions' shape, {"function": {…}}
            names.append(str(tool.get("name") or (tool.get("function") or {}).get("name")))
    return names


@dataclass
class ResponsesDialect:
    steps: list[Step]
    side_text: str = "ok"
    loop_requests: list[dict[str, Any]] = field(default_factory=list)
    side_requests: list[dict[str, Any]] = field(default_factory=list)
    _ids: Iterator[int] = field(default_factory=lambda: iter(range(1, 1_000_000)))

    def __call__(self, request: Request) -> Reply | None:
        path = request.path.split("?", 1)[0]
        if request.method == "GET" and path.endswith("/models"):
            return Reply.json({"models": [], "data": [], "object": "list"})
        if request.method != "POST" or not path.endswith("/responses"):
            return None
        body = request.json()
        first = self.steps[0]
        if isinstance(first, Say) or first.name in tool_names(body):
            self.loop_requests.append(body)
            step = self.steps[min(tool_outputs(body), len(self.steps) - 1)]
        else:
            self.side_requests.append(body)
            step = Say(self.side_text)
        return Reply.events(self.events(body, step))

    def events(self, body: dict[str, Any], step: Step) -> list[tuple[str, Any]]:
        number = next(self._ids)
        response_id = f"resp_{number:04d}"
        if isinstance(step, Call):
            item: dict[str, Any] = {
                "type": "function_call",
                "id": f"fc_{number:04d}",
                "call_id": f"call_{number:04d}",
                "name": step.name,
                "arguments": json.dumps(step.arguments),
                "status": "completed",
            }
        elif isinstance(step, Custom):
            item = {
                "type": "custom_tool_call",
                "id": f"ctc_{number:04d}",
                "call_id": f"call_{number:04d}",
                "name": step.name,
                "input": step.input,
                "status": "completed",
            }
        else:
            item = {
                "type": "message",
                "id": f"msg_{number:04d}",
                "role": "assistant",
                "status": "completed",
                "content": [{"type": "output_text", "text": step.text, "annotations": []}],
            }
        model = str(body.get("model") or "scripted")
        response = {
            "id": response_id,
            "object": "response",
            "model": model,
            "status": "in_progress",
        }
        usage = {
            "input_tokens": 10,
            "input_tokens_details": {"cached_tokens": 0},
            "output_tokens": 5,
            "output_tokens_details": {"reasoning_tokens": 0},
            "total_tokens": 15,
        }
        events: list[tuple[str, Any]] = [
            ("response.created", {"type": "response.created", "response": response}),
            (
                "response.output_item.added",
                {"type": "response.output_item.added", "output_index": 0, "item": item},
            ),
        ]
        if isinstance(step, Say):
            events.append(
                (
                    "response.output_text.delta",
                    {
                        "type": "response.output_text.delta",
                        "item_id": item["id"],
                        "output_index": 0,
                        "content_index": 0,
                        "delta": step.text,
                    },
                )
            )
        events += [
            (
                "response.output_item.done",
                {"type": "response.output_item.done", "output_index": 0, "item": item},
            ),
            (
                "response.completed",
                {
                    "type": "response.completed",
                    "response": {
                        **response,
                        "status": "completed",
                        "output": [item],
                        "usage": usage,
                    },
                },
            ),
        ]
        return events
