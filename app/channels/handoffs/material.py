"""What a hand-off gives its receiver besides the message: the previous answer's changes (its
checkpoint diffs, app/workspace/answer_changes.py) and its plan, as `PromptResource`s, which go
as ACP `resource` blocks to an agent that takes embedded context and as text otherwise
(app/acp/prompt_content.py). The unseen messages go as for any message (app/channels/context.py)."""

from __future__ import annotations

from app.acp.prompts import PromptResource
from app.channels.context import message_text
from app.i18n import _
from app.models.changes import FileChange
from app.models.conversation import Message, PlanEntry

MATERIAL_CHARS = 200_000  # diffs past this are cut: the receiver can read the files itself
MARKS = {"pending": " ", "in_progress": "~", "completed": "x"}


def handoff_text(answer: Message) -> str:
    """What the receiver is asked: the answer that mentioned it, said to be a hand-off."""
    header = _("@{agent} handed this over to you:").format(agent=answer.agent)
    return f"{header}\n{message_text(answer)}"


def material(answer: Message, changes: list[FileChange]) -> list[PromptResource]:
    blocks: list[PromptResource] = []
    diffs = [_file_diff(c) for c in changes if c.message_id == answer.id and not c.reverted]
    if diffs:
        text = "\n".join(diffs)
        if len(text) > MATERIAL_CHARS:
            text = text[:MATERIAL_CHARS] + "\n" + _("[the rest of the changes is cut]") + "\n"
        blocks.append(
            PromptResource(
                uri=f"sidekicks://changes/{answer.id}",
                text=text,
                title=_("The changes of @{agent}'s answer:").format(agent=answer.agent),
                mime="text/x-diff",
            )
        )
    plan = _plan(answer)
    if plan:
        blocks.append(
            PromptResource(
                uri=f"sidekicks://plan/{answer.id}",
                text=plan,
                title=_("The plan of @{agent}'s answer:").format(agent=answer.agent),
                mime="text/markdown",
            )
        )
    return blocks


def _file_diff(change: FileChange) -> str:
    if change.binary or not change.diff:
        return (
            _("{path}: {status}, no text difference to show").format(
                path=change.path, status=change.status
            )
            + "\n"
        )
    return change.diff if change.diff.endswith("\n") else change.diff + "\n"


def _plan(answer: Message) -> str:
    """The answer's last plan still shown: its entries as a checklist, or its Markdown."""
    plans = [p for p in answer.parts if p.kind == "plan" and not p.removed]
    if not plans:
        return ""
    last = plans[-1]
    if last.plan:
        return "\n".join(_entry(e) for e in last.plan) + "\n"
    return last.text or last.plan_uri


def _entry(entry: PlanEntry) -> str:
    return f"- [{MARKS.get(entry.status, ' ')}] {entry.content}"
