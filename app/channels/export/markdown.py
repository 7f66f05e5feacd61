"""A conversation as Markdown: a title, then each message under its author and UTC time; text
parts as the author wrote them (they are Markdown already), thoughts as a labelled blockquote,
tool calls as a line (kind, title, status) with their diffs in ```diff fences and commands'
output in plain fences, plans as checklists, attachments by name, system messages in italics,
errors and unusual stop reasons noted. Fences are longer than any backtick run they hold."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Iterator

from app.channels.export import labels
from app.channels.export.escaping import escape_heading, escape_inline, escape_paragraph
from app.i18n import _
from app.models.conversation import Channel, Diff, Message, Part, PlanEntry, Subagent, ToolCall

# Terminal output keeps its ANSI sequences (the window renders them); a document does not.
_ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]")
_BACKTICKS = re.compile(r"`+")


def document(channel: Channel, messages: Iterable[Message]) -> Iterator[str]:
    """The whole conversation, a piece per message (written as it is read)."""
    yield f"# {escape_heading(labels.title(channel))}\n\n"
    if channel.description:
        yield f"{escape_paragraph(channel.description)}\n\n"
    yield f"*{escape_inline(labels.exported_on())}*\n"
    for message in messages:
        yield "\n" + section(message)


def section(message: Message) -> str:
    """One message under its heading: author and time."""
    heading = f"{labels.author(message)} · {labels.when(message.created_at)}"
    return f"### {escape_heading(heading)}\n\n{message_markdown(message)}"


def message_markdown(message: Message) -> str:
    """One message's content as Markdown, without a heading: what "Copy" takes."""
    if message.role == "system":
        return f"*{escape_inline(labels.system_line(message))}*\n"
    blocks = [block for part in message.parts if (block := _part(part))]
    if message.attachments:
        names = ", ".join(code_span(a.name) for a in message.attachments)
        blocks.append(_("Attached: {names}").format(names=names))
    if message.error:
        blocks.append(quote(f"**{_('Error:')}** {message.error}"))
    if note := labels.stop_note(message):
        blocks.append(f"*{escape_inline(note)}*")
    return "\n\n".join(blocks) + "\n" if blocks else ""


def _part(part: Part) -> str:
    if part.kind == "text":
        return part.text.strip("\n")
    if part.kind == "thought":
        text = part.text.strip("\n")
        return quote(f"**{_('Thought')}**\n\n{text}") if text else ""
    if part.kind == "tool" and part.tool is not None:
        return tool_markdown(part.tool)
    if part.kind == "plan" and not part.removed:
        if part.plan:
            return plan_markdown(part.plan)
        if part.text.strip() or part.plan_uri:  # a plan_update's Markdown, or its file
            return quote(
                f"**{_('Plan')}**\n\n{part.text.strip() or escape_paragraph(part.plan_uri)}"
            )
        return ""
    if part.kind == "compaction" and part.compaction is not None:
        summary = part.compaction.summary.strip()
        head = f"*{escape_inline(_('Context compacted'))}*"
        return f"{head}\n\n{quote(summary)}" if summary else head
    if part.kind == "subagent" and part.subagent is not None:
        return subagent_markdown(part.subagent)
    return ""


def subagent_markdown(child: Subagent) -> str:
    """A sub-agent's card: its title, the prompt it was given, its own parts, its reply."""
    title = escape_inline(child.title or child.description or child.session_id)
    blocks = [f"**{_('Sub-agent')}** · {title}"]
    if child.prompt.strip():
        blocks.append(quote(child.prompt.strip()))
    blocks.extend(text for text in (_part(p) for p in child.parts) if text)
    if child.reply.strip():
        blocks.append(child.reply.strip())
    return "\n\n".join(blocks)


def tool_markdown(tool: ToolCall) -> str:
    title = escape_inline(tool.title) if tool.title else _("(untitled)")
    blocks = [f"**{_('Tool call')}** · {tool.kind} · {title} · {status_word(tool.status)}"]
    blocks.extend(fence(unified_diff(diff), "diff") for diff in tool.diffs)
    for terminal in tool.terminals:
        text = f"$ {terminal.command}\n{strip_ansi(terminal.output)}".rstrip("\n")
        blocks.append(fence(text, "console"))
        if terminal.exit_code is not None:
            blocks.append(_("Exit code: {code}").format(code=terminal.exit_code))
        elif terminal.signal:
            blocks.append(_("Ended by signal {signal}").format(signal=terminal.signal))
    if tool.output.strip() and not tool.terminals:
        blocks.append(fence(strip_ansi(tool.output).strip("\n"), ""))
    return "\n\n".join(blocks)


def status_word(status: str) -> str:
    return {
        "pending": _("pending"),
        "in_progress": _("in progress"),
        "completed": _("completed"),
        "failed": _("failed"),
    }.get(status, status)


def plan_markdown(entries: list[PlanEntry]) -> str:
    lines = [f"**{_('Plan')}**", ""]
    for entry in entries:
        box = "x" if entry.status == "completed" else " "
        doing = f" *({_('in progress')})*" if entry.status == "in_progress" else ""
        lines.append(f"- [{box}] {escape_inline(' '.join(entry.content.split()))}{doing}")
    return "\n".join(lines)


def unified_diff(diff: Diff) -> str:
    old = "/dev/null" if diff.new_file else f"a/{diff.path}"
    lines = difflib.unified_diff(
        diff.old_text.splitlines(),
        diff.new_text.splitlines(),
        fromfile=old,
        tofile=f"b/{diff.path}",
        lineterm="",
    )
    return "\n".join(lines) or f"--- {old}\n+++ b/{diff.path}"


def fence(text: str, info: str) -> str:
    """A fenced code block whose fence no backtick run inside can close."""
    longest = max((len(run) for run in _BACKTICKS.findall(text)), default=0)
    marks = "`" * max(3, longest + 1)
    return f"{marks}{info}\n{text}\n{marks}"


def code_span(text: str) -> str:
    longest = max((len(run) for run in _BACKTICKS.findall(text)), default=0)
    marks = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{marks}{pad}{text}{pad}{marks}"


def quote(text: str) -> str:
    return "\n".join(f"> {line}".rstrip() for line in text.split("\n"))


def strip_ansi(text: str) -> str:
    return _ANSI.sub("", text)
