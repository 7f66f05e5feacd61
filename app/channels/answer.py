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

from app.acp.updates import (
    ChildEvent,
    CompactionChanged,
    CompactionChunk,
    PlanChanged,
    PlanContentChanged,
    PlanRemoved,
    SessionMessage,
    SubagentChanged,
    TextDelta,
    ToolChange,
)
from app.core.text import REPLACEMENT, is_high_surrogate, valid_text
from app.events.payloads import MessageDelta
from app.i18n import _
from app.models.conversation import (
    Compaction,
    Diff,
    Location,
    Message,
    Part,
    PartKind,
    PlanEntry,
    Subagent,
    TerminalView,
    ToolCall,
)

# What an answer shows of the agent's stream (streaming.py hands these to `Answer.apply`).
AnswerEvent = (
    TextDelta
    | ToolChange
    | PlanChanged
    | PlanContentChanged
    | PlanRemoved
    | CompactionChanged
    | CompactionChunk
    | SubagentChanged
    | SessionMessage
    | ChildEvent
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
    if change.sessions is not None:
        tool.sessions = list(change.sessions)


UNFINISHED = ("pending", "in_progress")


def cancel_unfinished_tools(message: Message) -> list[int]:
    """An answer is over (stopped, failed, or kept by an older version that left them so):
    nothing will update its tool calls any more, so those still pending or running are
    `failed`, with a note saying they were cancelled. The indexes of the parts changed."""
    changed = []
    for index, part in enumerate(message.parts):
        if _cancel_unfinished(part):
            changed.append(index)
    return changed


def _cancel_unfinished(part: Part) -> bool:
    """The same for one part: a tool call, or a sub-agent's (its own tool calls, and its state:
    nothing will say it any more, so `unknown` if it was still at work)."""
    tool, sub = part.tool, part.subagent
    if tool is not None and tool.status in UNFINISHED:
        tool.status = "failed"
        if not tool.rejected:  # a rejected one was not cancelled: the person said no
            note = _("Cancelled: the answer ended before this tool call finished.")
            tool.output = f"{tool.output}\n{note}" if tool.output else note
        return True
    if sub is None:
        return False
    changed = [_cancel_unfinished(p) for p in sub.parts]
    if sub.state in ("running", "requires_action"):
        sub.state = "unknown"
        changed.append(True)
    return any(changed)


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
        self._messages: dict[tuple[PartKind, str], int] = {}  # (kind, ACP messageId) → part
        self._plans: dict[str, int] = {}  # plan_update's plan id → part
        self._compactions: dict[str, int] = {}
        self.subagents = SubagentParts(self)

    def apply(self, event: AnswerEvent) -> list[MessageDelta]:
        """What one event of the agent's stream changes in this answer."""
        match event:
            case TextDelta():
                return self.append_text(event)
            case ToolChange():
                return self.tool(event)
            case PlanChanged():
                return self.plan(event)
            case PlanContentChanged():
                return self.plan_content(event)
            case PlanRemoved():
                return self.plan_removed(event)
            case CompactionChanged() | CompactionChunk():
                return self.compaction(event)
            case SubagentChanged():
                return self.subagents.changed(event)
            case SessionMessage():
                return self.subagents.message(event, None)
            case ChildEvent():
                return self.subagents.child(event)

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
            if self._half.kind == delta.kind and self._half.message_id == delta.message_id:
                text = self._half.text + text
                self._half = None
            else:
                deltas += self.finish()
        if text and is_high_surrogate(text[-1]):
            self._half = TextDelta(delta.kind, text[-1], delta.message_id)
            text = text[:-1]
        if text:
            deltas.append(self._append(delta.kind, valid_text(text), delta.message_id))
        return deltas

    def finish(self) -> list[MessageDelta]:
        """Ends the text in progress: a half still waiting for its pair is shown as U+FFFD."""
        if self._half is None:
            return []
        half, self._half = self._half, None
        return [self._append(half.kind, REPLACEMENT, half.message_id)]

    def _append(self, kind: PartKind, text: str, message_id: str | None = None) -> MessageDelta:
        """Text joins the last part of its kind; with an ACP `messageId`, the part of that
        message (a new id starts a new part, a known one goes back to its part)."""
        parts = self.message.parts
        index = self._messages.get((kind, message_id)) if message_id else None
        if index is None and parts and parts[-1].kind == kind and not message_id:
            index = len(parts) - 1
        last = parts[-1] if parts else None
        if index is None and message_id and last and last.kind == kind and not last.message_id:
            index = len(parts) - 1  # the agent names the message it was writing
            last.message_id = message_id
            self._messages[(kind, message_id)] = index
        if index is None:
            parts.append(Part(kind=kind, text="", message_id=message_id or ""))
            index = len(parts) - 1
            if message_id:
                self._messages[(kind, message_id)] = index
        parts[index].text += text
        return self._delta(index, text=text)

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

    def answered(self, tool_id: str, rejected: bool) -> list[MessageDelta]:
        """The person answered a permission request about this tool call (or a sub-agent's):
        it is marked rejected, or no longer, and the page hears of it."""
        index = self._tools.get(tool_id)
        tool = self.message.parts[index].tool if index is not None else None
        if index is None or tool is None:
            return self.subagents.answered(tool_id, rejected)
        if tool.rejected == rejected:
            return []
        tool.rejected = rejected
        return [self._delta(index, part=self.message.parts[index])]

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

    def plan_content(self, changed: PlanContentChanged) -> list[MessageDelta]:
        """`plan_update`: the plan of that id is replaced (added the first time)."""
        deltas = self.finish()
        index = self._plans.get(changed.plan_id)
        if index is None:
            index = self._plans[changed.plan_id] = len(self.message.parts)
            self.message.parts.append(Part(kind="plan", plan_id=changed.plan_id))
        part = self.message.parts[index]
        part.plan = [
            PlanEntry(content=e.content, status=e.status, priority=e.priority)
            for e in changed.entries
        ]
        part.text, part.plan_uri = changed.markdown or "", changed.uri or ""
        part.removed = False
        return [*deltas, self._delta(index, part=part)]

    def plan_removed(self, removed: PlanRemoved) -> list[MessageDelta]:
        index = self._plans.get(removed.plan_id)
        if index is None:
            return []
        part = self.message.parts[index]
        part.removed, part.plan, part.text, part.plan_uri = True, [], "", ""
        return [self._delta(index, part=part)]

    def compaction(self, event: CompactionChanged | CompactionChunk) -> list[MessageDelta]:
        """The agent compacts its context: one part per compaction, its summary folded."""
        deltas = self.finish()
        index = self._compactions.get(event.compaction_id)
        if index is None:
            index = self._compactions[event.compaction_id] = len(self.message.parts)
            compaction = Compaction(id=event.compaction_id)
            self.message.parts.append(Part(kind="compaction", compaction=compaction))
        part = self.message.parts[index]
        assert part.compaction is not None
        if isinstance(event, CompactionChunk):
            part.compaction.summary += event.text
        else:
            part.compaction.status = event.status
            if event.summary is not None:
                part.compaction.summary = event.summary
            if event.error is not None:
                part.compaction.error = event.error
        return [*deltas, self._delta(index, part=part)]


CHILD_EVENTS = (
    TextDelta,
    ToolChange,
    PlanChanged,
    PlanContentChanged,
    PlanRemoved,
    CompactionChanged,
    CompactionChunk,
)


class SubagentParts:
    """An answer's sub-agent sessions (`subagent_update`), one part each: its state, the prompt
    it was given and its reply (`session_message`), its own stream nested in its `parts`."""

    def __init__(self, answer: Answer) -> None:
        self._answer = answer
        self._index: dict[str, int] = {}
        self._streams: dict[str, Answer] = {}
        self._seen: dict[str, set[str]] = {}  # session_message ids shown, per sub-agent

    def running(self) -> list[str]:
        """The sub-agents still at work (Stop cancels them)."""
        return [
            sid
            for sid, sub in ((s, self._sub(s)) for s in self._index)
            if sub.state in ("running", "requires_action")
        ]

    def changed(self, event: SubagentChanged) -> list[MessageDelta]:
        deltas = self._answer.finish()
        sub = self._sub(event.session_id)
        for name in ("title", "description", "cwd", "state", "stop_reason", "error"):
            value = getattr(event, name)
            if value is not None:
                setattr(sub, name, value)
        if event.state is not None and event.stop_reason is None:
            sub.stop_reason = ""
        if event.can_cancel is not None:
            sub.can_cancel = event.can_cancel
        return [*deltas, self._part_delta(event.session_id)]

    def message(self, event: SessionMessage, child: str | None) -> list[MessageDelta]:
        """A message between sessions: a sub-agent's prompt (to it) or its reply (from it)."""
        if child is None:  # seen in the parent: it names the sub-agent it went to or came from
            known = [s for s in (event.sender, event.recipient) if s in self._index]
            if not known:
                return []
            child = known[0]
        seen = self._seen.setdefault(child, set())
        if event.message_id in seen or not event.text:
            return []
        seen.add(event.message_id)
        sub = self._sub(child)
        if event.sender == child:
            sub.reply = f"{sub.reply}\n\n{event.text}" if sub.reply else event.text
        else:
            sub.prompt = f"{sub.prompt}\n\n{event.text}" if sub.prompt else event.text
        return [self._part_delta(child)]

    def child(self, event: ChildEvent) -> list[MessageDelta]:
        """An event of a sub-agent's own session: its nested parts grow."""
        inner, child = event.event, event.session_id
        if isinstance(inner, SessionMessage):
            return self.message(inner, child)
        if isinstance(inner, SubagentChanged):
            return self.changed(inner)
        if not isinstance(inner, CHILD_EVENTS):
            return []  # its usage, commands, options: the parent's are shown
        stream = self._streams.get(child)
        if stream is None:
            parent = self._answer.message
            message = parent.model_copy(update={"id": f"{parent.id}/{child}", "parts": []})
            stream = self._streams[child] = Answer(message, self._answer._terminal_view)
        stream.apply(inner)
        self._sub(child).parts = stream.message.parts
        return [self._part_delta(child)]

    def tool_call(self, child: str, tool_id: str) -> ToolCall | None:
        stream = self._streams.get(child)
        return stream.tool_call(tool_id) if stream is not None else None

    def answered(self, tool_id: str, rejected: bool) -> list[MessageDelta]:
        """Answer.answered for the sub-agents' tool calls: the one with this id, if any."""
        for child, stream in self._streams.items():
            if stream.tool_call(tool_id) is not None:
                if not stream.answered(tool_id, rejected):
                    return []
                self._sub(child).parts = stream.message.parts
                return [self._part_delta(child)]
        return []

    def _sub(self, child: str) -> Subagent:
        index = self._index.get(child)
        parts = self._answer.message.parts
        if index is None:
            index = self._index[child] = len(parts)
            parts.append(Part(kind="subagent", subagent=Subagent(session_id=child)))
        sub = parts[index].subagent
        assert sub is not None
        return sub

    def _part_delta(self, child: str) -> MessageDelta:
        index = self._index[child]
        return self._answer._delta(index, part=self._answer.message.parts[index])
