"""An agent message being streamed: ACP session updates applied to its parts.

Each update yields the `message:delta` payloads that tell the page what changed: `text` appended
to part `index` (text, thought), or `part` replacing it (tool, plan). A delta whose index equals
the number of parts the page has adds a part.
"""

from __future__ import annotations

import json
from typing import Any

from app.events.payloads import MessageDelta
from app.models.conversation import Diff, Location, Message, Part, PlanEntry, ToolCall

TOOL_KINDS = {"read", "edit", "delete", "move", "search", "execute", "think", "fetch", "other"}
TOOL_STATUSES = {"pending", "in_progress", "completed", "failed"}
MAX_TOOL_TEXT = 100_000  # characters of a tool's input or output kept (history stays small)


def content_text(block: Any) -> str:
    """The text of an ACP content block; a short marker for what is not text."""
    kind = getattr(block, "type", "")
    if kind == "text":
        return str(getattr(block, "text", ""))
    if kind == "resource_link":
        return f"[{getattr(block, 'name', '') or getattr(block, 'uri', '')}]"
    if kind == "resource":
        resource = getattr(block, "resource", None)
        return str(getattr(resource, "text", "") or f"[{getattr(resource, 'uri', 'resource')}]")
    return f"[{kind or 'content'}]"


def _cut(text: str) -> str:
    return text if len(text) <= MAX_TOOL_TEXT else text[:MAX_TOOL_TEXT] + "\n…"


def compact_json(value: Any) -> str:
    if value is None:
        return ""
    try:
        return _cut(json.dumps(value, separators=(",", ":"), ensure_ascii=False, default=str))
    except (TypeError, ValueError):
        return _cut(str(value))


def merge_tool(tool: ToolCall, update: Any) -> None:
    """Applies the fields an ACP tool_call / tool_call_update / permission request carries."""
    title = getattr(update, "title", None)
    if title:
        tool.title = str(title)
    kind = getattr(update, "kind", None)
    if kind:
        tool.kind = kind if kind in TOOL_KINDS else "other"
    status = getattr(update, "status", None)
    if status in TOOL_STATUSES:
        tool.status = status
    raw_input = getattr(update, "raw_input", None)
    if raw_input is not None:
        tool.input = compact_json(raw_input)
    locations = getattr(update, "locations", None)
    if locations is not None:
        tool.locations = [
            Location(path=str(loc.path), line=getattr(loc, "line", None)) for loc in locations
        ]
    content = getattr(update, "content", None)
    if content is not None:
        texts, diffs = [], []
        for item in content:
            if getattr(item, "type", "") == "diff":
                old = getattr(item, "old_text", None)
                diffs.append(
                    Diff(
                        path=str(item.path),
                        old_text=_cut(old or ""),
                        new_text=_cut(str(getattr(item, "new_text", ""))),
                        new_file=old is None,
                    )
                )
            elif getattr(item, "type", "") == "content":
                texts.append(content_text(item.content))
            elif getattr(item, "type", "") == "terminal":
                texts.append(f"[terminal {getattr(item, 'terminal_id', '')}]")
        tool.diffs = diffs
        if texts:
            tool.output = _cut("\n".join(texts))
    raw_output = getattr(update, "raw_output", None)
    if raw_output is not None and (content is None or not tool.output):
        tool.output = raw_output if isinstance(raw_output, str) else compact_json(raw_output)
        tool.output = _cut(tool.output)


class Answer:
    def __init__(self, message: Message) -> None:
        self.message = message
        self._tools: dict[str, int] = {}
        self._plan: int | None = None

    def _delta(self, index: int, **fields: Any) -> MessageDelta:
        part = self.message.parts[index]
        return MessageDelta(
            channel=self.message.channel,
            message_id=self.message.id,
            index=index,
            kind=part.kind,
            **fields,
        )

    def apply(self, update: Any) -> list[MessageDelta]:
        kind = getattr(update, "session_update", "")
        if kind in ("agent_message_chunk", "agent_thought_chunk"):
            part_kind = "text" if kind == "agent_message_chunk" else "thought"
            return [self.append_text(part_kind, content_text(update.content))]
        if kind in ("tool_call", "tool_call_update"):
            return [self.tool(update)]
        if kind == "plan":
            return [self.plan(update.entries)]
        return []

    def append_text(self, kind: str, text: str) -> MessageDelta:
        parts = self.message.parts
        if parts and parts[-1].kind == kind:
            parts[-1].text += text
        else:
            parts.append(Part(kind=kind))
            parts[-1].text = text
        return self._delta(len(parts) - 1, text=text)

    def tool(self, update: Any) -> MessageDelta:
        tool_id = str(getattr(update, "tool_call_id", "") or f"tool-{len(self._tools)}")
        index = self._tools.get(tool_id)
        if index is None:
            index = len(self.message.parts)
            self._tools[tool_id] = index
            self.message.parts.append(Part(kind="tool", tool=ToolCall(id=tool_id)))
        tool = self.message.parts[index].tool
        assert tool is not None
        merge_tool(tool, update)
        return self._delta(index, part=self.message.parts[index])

    def tool_call(self, tool_id: str) -> ToolCall | None:
        index = self._tools.get(tool_id)
        return self.message.parts[index].tool if index is not None else None

    def plan(self, entries: Any) -> MessageDelta:
        plan = [
            PlanEntry(
                content=str(getattr(e, "content", "")),
                status=getattr(e, "status", "pending"),
                priority=getattr(e, "priority", "medium"),
            )
            for e in entries or []
        ]
        if self._plan is None:
            self._plan = len(self.message.parts)
            self.message.parts.append(Part(kind="plan", plan=plan))
        else:
            self.message.parts[self._plan].plan = plan
        return self._delta(self._plan, part=self.message.parts[self._plan])

    def text(self) -> str:
        """The answer's Markdown text (what other agents see of it)."""
        return "".join(p.text for p in self.message.parts if p.kind == "text")
