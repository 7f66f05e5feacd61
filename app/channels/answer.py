"""An agent message being streamed: the agent's typed events applied to its parts.

Each event yields the `message:delta` payloads that tell the page what changed: `text` appended
to part `index` (text, thought), or `part` replacing it (tool, plan). A delta whose index equals
the number of parts the page has adds a part.

Agents that cut their text by UTF-16 position may end a chunk with the first half of a surrogate
pair: it is held until the next chunk of the same part brings the second half, and becomes
U+FFFD if the part ends first (another part starts, or the answer finishes).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from app.acp.updates import PlanChanged, TextDelta, ToolChange
from app.core.text import REPLACEMENT, is_high_surrogate, valid_text
from app.events.payloads import MessageDelta
from app.i18n import _
from app.models.conversation import (
    Diff,
    Location,
    Message,
    Part,
    PartKind,
    PlanEntry,
    TerminalView,
    ToolCall,
)


def merge_tool(tool: ToolCall, change: ToolChange) -> None:
    """Applies what a tool call start, update or permission request says of the tool."""
    if change.title:
        tool.title = change.title
    if change.kind:
        tool.kind = change.kind
    if change.status:
        tool.status = change.status
    if change.input is not None:
        tool.input = change.input
    if change.locations is not None:
        tool.locations = [Location(path=loc.path, line=loc.line) for loc in change.locations]
    if change.diffs is not None:
        tool.diffs = [
            Diff(
                path=d.path,
                old_text=d.old_text or "",
                new_text=d.new_text,
                new_file=d.old_text is None,
            )
            for d in change.diffs
        ]
    if change.texts:
        tool.output = "\n".join(change.texts)
    if change.output is not None and (change.texts is None or not tool.output):
        tool.output = change.output


UNFINISHED = ("pending", "in_progress")


def cancel_unfinished_tools(message: Message) -> list[int]:
    """An answer is over (stopped, failed, or kept by an older version that left them so):
    nothing will update its tool calls any more, so those still pending or running are
    `failed`, with a note saying they were cancelled. The indexes of the parts changed."""
    changed = []
    for index, part in enumerate(message.parts):
        tool = part.tool
        if tool is not None and tool.status in UNFINISHED:
            tool.status = "failed"
            note = _("Cancelled: the answer ended before this tool call finished.")
            tool.output = f"{tool.output}\n{note}" if tool.output else note
            changed.append(index)
    return changed


class Answer:
    def __init__(
        self,
        message: Message,
        terminal_view: Callable[[str], TerminalView] = lambda id: TerminalView(id=id),
    ) -> None:
        self.message = message
        self._terminal_view = terminal_view  # what a terminal a tool call names shows now
        self._tools: dict[str, int] = {}
        self._plan: int | None = None
        self._half: TextDelta | None = None  # a high surrogate waiting for its pair

    def _delta(self, index: int, **fields: Any) -> MessageDelta:
        part = self.message.parts[index]
        return MessageDelta(
            channel=self.message.channel,
            message_id=self.message.id,
            index=index,
            kind=part.kind,
            **fields,
        )

    def append_text(self, delta: TextDelta) -> list[MessageDelta]:
        text = delta.text
        deltas = []
        if self._half is not None:
            if self._half.kind == delta.kind:
                text = self._half.text + text
                self._half = None
            else:
                deltas += self.finish()
        if text and is_high_surrogate(text[-1]):
            self._half = TextDelta(delta.kind, text[-1])
            text = text[:-1]
        if text:
            deltas.append(self._append(delta.kind, valid_text(text)))
        return deltas

    def finish(self) -> list[MessageDelta]:
        """Ends the text in progress: a half still waiting for its pair is shown as U+FFFD."""
        if self._half is None:
            return []
        kind, self._half = self._half.kind, None
        return [self._append(kind, REPLACEMENT)]

    def _append(self, kind: PartKind, text: str) -> MessageDelta:
        parts = self.message.parts
        if parts and parts[-1].kind == kind:
            parts[-1].text += text
        else:
            parts.append(Part(kind=kind, text=text))
        return self._delta(len(parts) - 1, text=text)

    def tool(self, change: ToolChange) -> list[MessageDelta]:
        deltas = self.finish()
        tool_id = change.tool_call_id or f"tool-{len(self._tools)}"
        index = self._tools.get(tool_id)
        if index is None:
            index = len(self.message.parts)
            self._tools[tool_id] = index
            self.message.parts.append(Part(kind="tool", tool=ToolCall(id=tool_id)))
        tool = self.message.parts[index].tool
        assert tool is not None
        terminal_ids = change.terminals
        if terminal_ids is not None:
            # The terminal itself is shown: not the "[terminal id]" stand-in text.
            stand_ins = {f"[terminal {t}]" for t in terminal_ids}
            texts = tuple(t for t in change.texts or () if t not in stand_ins)
            change = dataclasses.replace(change, texts=texts)
            tool.terminals = [self._terminal_view(t) for t in terminal_ids]
        merge_tool(tool, change)
        return [*deltas, self._delta(index, part=self.message.parts[index])]

    def terminal(self, view: TerminalView) -> list[MessageDelta]:
        """A terminal shown in this answer changed (it ended): the tool calls showing it."""
        deltas = []
        for index, part in enumerate(self.message.parts):
            tool = part.tool
            if tool is not None and any(t.id == view.id for t in tool.terminals):
                tool.terminals = [view if t.id == view.id else t for t in tool.terminals]
                deltas.append(self._delta(index, part=part))
        return deltas

    def final_terminals(self) -> list[MessageDelta]:
        """The answer ends: each terminal shown gets its latest output (the final one for
        those that ended; what it printed so far for one still running)."""
        deltas = []
        for index, part in enumerate(self.message.parts):
            tool = part.tool
            if tool is not None and tool.terminals:
                views = [self._terminal_view(t.id) for t in tool.terminals]
                if views != tool.terminals:
                    tool.terminals = views
                    deltas.append(self._delta(index, part=part))
        return deltas

    def cancel_unfinished_tools(self) -> list[MessageDelta]:
        """The answer ends: its tool calls still pending or running are cancelled."""
        return [
            self._delta(i, part=self.message.parts[i])
            for i in cancel_unfinished_tools(self.message)
        ]

    def tool_call(self, tool_id: str) -> ToolCall | None:
        index = self._tools.get(tool_id)
        return self.message.parts[index].tool if index is not None else None

    def plan(self, changed: PlanChanged) -> list[MessageDelta]:
        deltas = self.finish()
        plan = [
            PlanEntry(content=e.content, status=e.status, priority=e.priority)
            for e in changed.entries
        ]
        if self._plan is None:
            self._plan = len(self.message.parts)
            self.message.parts.append(Part(kind="plan", plan=plan))
        else:
            self.message.parts[self._plan].plan = plan
        return [*deltas, self._delta(self._plan, part=self.message.parts[self._plan])]
