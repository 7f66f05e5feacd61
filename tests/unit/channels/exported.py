"""A rich conversation for the export tests: text, a thought, a tool call with a diff and a
command, a plan, an attachment, system messages, an error and a stop."""

from __future__ import annotations

from app.models.conversation import (
    Attachment,
    Channel,
    Diff,
    Message,
    Part,
    PlanEntry,
    TerminalView,
    ToolCall,
)

CHANNEL = Channel(id="01JCHANNEL0000000000000000", name="dev", members=["alpha", "beta"])


def rich_conversation() -> list[Message]:
    def message(n: int, role: str, **fields: object) -> Message:
        return Message.model_validate(
            {
                "id": f"01JMESSAGE00000000000000{n:02d}",
                "channel": CHANNEL.id,
                "createdAt": f"2026-12-01T06:3{n % 10}:05.123Z",
                "role": role,
                **fields,
            }
        )

    edit = ToolCall(
        id="t1",
        title="Edit notes.md",
        kind="edit",
        status="completed",
        diffs=[Diff(path="notes.md", old_text="one\ntwo\n", new_text="one\n```\n2\n")],
    )
    run = ToolCall(
        id="t2",
        title="Run tests",
        kind="execute",
        status="failed",
        terminals=[
            TerminalView(
                id="term", command="pytest", output="\x1b[31mFAILED\x1b[0m x\n", exit_code=1
            )
        ],
    )
    plan = [
        PlanEntry(content="Read the notes", status="completed"),
        PlanEntry(content="Fix *the* tests", status="in_progress"),
        PlanEntry(content="Ship"),
    ]
    attachment = Attachment(id="a1", kind="file", name="spec.md", path="/tmp/spec.md")
    return [
        message(1, "system", agent="alpha", code="agent-joined"),
        message(
            2, "user", parts=[Part(kind="text", text="@alpha fix **it**")], attachments=[attachment]
        ),
        message(
            3,
            "agent",
            agent="alpha",
            parts=[
                Part(kind="thought", text="Let me look.\nThe notes first."),
                Part(kind="tool", tool=edit),
                Part(kind="plan", plan=plan),
                Part(kind="tool", tool=run),
                Part(kind="text", text="Done: see `notes.md`."),
            ],
            stopReason="end_turn",
        ),
        message(4, "system", code="new-session"),
        message(
            5, "agent", agent="beta", parts=[Part(kind="text", text="Half")], stopReason="cancelled"
        ),
        message(6, "agent", agent="beta", error="the agent stopped"),
    ]
