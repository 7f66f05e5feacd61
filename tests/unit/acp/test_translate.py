"""Golden tests of the ACP boundary: each `session/update` as agents send it on the wire (JSON),
parsed by the SDK, becomes exactly one typed event of app/acp/updates.py."""

from __future__ import annotations

from typing import Any

import pytest
from acp.schema import PermissionOption, SessionNotification, ToolCallUpdate

from app.acp.translate import MAX_TOOL_TEXT, permission_choices, session_event, tool_change
from app.acp.updates import (
    AgentCommand,
    CommandsChanged,
    ModeChanged,
    OptionChoice,
    OptionsChanged,
    PermissionChoice,
    PlanChanged,
    PlanItem,
    SessionOption,
    SessionTitled,
    TextDelta,
    ToolChange,
    ToolDiff,
    ToolLocation,
    UsageChanged,
    UserText,
)


def event_of(update: dict[str, Any]) -> object:
    notification = SessionNotification.model_validate({"sessionId": "s", "update": update})
    return session_event(notification.update)


GOLDEN: list[tuple[str, dict[str, Any], object]] = [
    (
        "a message chunk is a text delta",
        {"sessionUpdate": "agent_message_chunk", "content": {"type": "text", "text": "hé 🙂"}},
        TextDelta("text", "hé 🙂"),
    ),
    (
        "a thought chunk is a thought delta",
        {"sessionUpdate": "agent_thought_chunk", "content": {"type": "text", "text": "hmm"}},
        TextDelta("thought", "hmm"),
    ),
    (
        "a resource link in a chunk is shown by its name",
        {
            "sessionUpdate": "agent_message_chunk",
            "content": {"type": "resource_link", "name": "main.py", "uri": "file:///main.py"},
        },
        TextDelta("text", "[main.py]"),
    ),
    (
        "an embedded text resource is its text",
        {
            "sessionUpdate": "agent_message_chunk",
            "content": {
                "type": "resource",
                "resource": {"uri": "file:///a.txt", "text": "inside", "mimeType": "text/plain"},
            },
        },
        TextDelta("text", "inside"),
    ),
    (
        "an image in a chunk is a marker",
        {
            "sessionUpdate": "agent_message_chunk",
            "content": {"type": "image", "data": "AAAA", "mimeType": "image/png"},
        },
        TextDelta("text", "[image]"),
    ),
    (
        "a tool call start carries everything it says",
        {
            "sessionUpdate": "tool_call",
            "toolCallId": "t1",
            "title": "Edit a.py",
            "kind": "edit",
            "status": "pending",
            "rawInput": {"path": "/a.py", "n": 1},
            "locations": [{"path": "/a.py", "line": 3}],
            "content": [
                {"type": "diff", "path": "/a.py", "oldText": "x", "newText": "y"},
                {"type": "diff", "path": "/new.py", "newText": "z"},
                {"type": "content", "content": {"type": "text", "text": "done"}},
                {"type": "terminal", "terminalId": "term-1"},
            ],
        },
        ToolChange(
            tool_call_id="t1",
            started=True,
            title="Edit a.py",
            kind="edit",
            status="pending",
            input='{"path":"/a.py","n":1}',
            locations=(ToolLocation("/a.py", 3),),
            texts=("done", "[terminal term-1]"),
            diffs=(ToolDiff("/a.py", "x", "y"), ToolDiff("/new.py", None, "z")),
            terminals=("term-1",),
        ),
    ),
    (
        "a tool call update leaves out what it does not change",
        {"sessionUpdate": "tool_call_update", "toolCallId": "t1", "status": "completed"},
        ToolChange(tool_call_id="t1", status="completed"),
    ),
    (
        "a tool kind the core does not know is other",
        {"sessionUpdate": "tool_call", "toolCallId": "t2", "title": "Mode", "kind": "switch_mode"},
        ToolChange(tool_call_id="t2", started=True, title="Mode", kind="other"),
    ),
    (
        "a raw output that is not text is compact JSON",
        {"sessionUpdate": "tool_call_update", "toolCallId": "t1", "rawOutput": {"ok": True}},
        ToolChange(tool_call_id="t1", output='{"ok":true}'),
    ),
    (
        "a plan replaces the whole plan",
        {
            "sessionUpdate": "plan",
            "entries": [
                {"content": "read", "status": "completed", "priority": "high"},
                {"content": "write", "status": "pending", "priority": "low"},
            ],
        },
        PlanChanged((PlanItem("read", "completed", "high"), PlanItem("write", "pending", "low"))),
    ),
    (
        "announced commands keep their input hint",
        {
            "sessionUpdate": "available_commands_update",
            "availableCommands": [
                {"name": "echo", "description": "Repeat", "input": {"hint": "text"}},
                {"name": "help", "description": "Help"},
            ],
        },
        CommandsChanged((AgentCommand("echo", "Repeat", "text"), AgentCommand("help", "Help"))),
    ),
    (
        "usage is tokens used of the window",
        {"sessionUpdate": "usage_update", "used": 1200, "size": 200000},
        UsageChanged(1200, 200000),
    ),
    (
        "a mode change names the new mode",
        {"sessionUpdate": "current_mode_update", "currentModeId": "auto"},
        ModeChanged("auto"),
    ),
    (
        "config options are selects and booleans with their choices",
        {
            "sessionUpdate": "config_option_update",
            "configOptions": [
                {
                    "type": "select",
                    "id": "model",
                    "name": "Model",
                    "category": "model",
                    "currentValue": "gpt-5",
                    "options": [
                        {"value": "gpt-5", "name": "GPT-5"},
                        {"value": "o3", "name": "o3", "description": "reasoning"},
                    ],
                },
                {"type": "boolean", "id": "web", "name": "Web search", "currentValue": False},
            ],
        },
        OptionsChanged(
            (
                SessionOption(
                    id="model",
                    name="Model",
                    kind="select",
                    value="gpt-5",
                    category="model",
                    choices=(OptionChoice("gpt-5", "GPT-5"), OptionChoice("o3", "o3", "reasoning")),
                ),
                SessionOption(id="web", name="Web search", kind="boolean", value=False),
            )
        ),
    ),
    (
        "grouped choices are flattened in order",
        {
            "sessionUpdate": "config_option_update",
            "configOptions": [
                {
                    "type": "select",
                    "id": "effort",
                    "name": "Reasoning",
                    "currentValue": "high",
                    "options": [
                        {
                            "group": "fast",
                            "name": "Fast",
                            "options": [{"value": "low", "name": "Low"}],
                        },
                        {
                            "group": "deep",
                            "name": "Deep",
                            "options": [{"value": "high", "name": "High"}],
                        },
                    ],
                }
            ],
        },
        OptionsChanged(
            (
                SessionOption(
                    id="effort",
                    name="Reasoning",
                    kind="select",
                    value="high",
                    choices=(OptionChoice("low", "Low"), OptionChoice("high", "High")),
                ),
            )
        ),
    ),
    (
        "the user's own chunks (a session/load replay) are kept for a replayed conversation",
        {"sessionUpdate": "user_message_chunk", "content": {"type": "text", "text": "hi"}},
        UserText("hi"),
    ),
    (
        "a session's title, on one line",
        {"sessionUpdate": "session_info_update", "title": " Fix\nthe  parser "},
        SessionTitled("Fix the parser"),
    ),
    (
        "a title set to null is cleared",
        {"sessionUpdate": "session_info_update", "title": None},
        SessionTitled(""),
    ),
    (
        "an info update without a title leaves it",
        {"sessionUpdate": "session_info_update", "updatedAt": "2026-12-01T00:00:00Z"},
        SessionTitled(None),
    ),
]


@pytest.mark.parametrize(
    ("update", "expected"), [g[1:] for g in GOLDEN], ids=[g[0] for g in GOLDEN]
)
def test_each_update_becomes_its_typed_event(update: dict[str, Any], expected: object) -> None:
    assert event_of(update) == expected


def test_a_huge_tool_output_is_cut_and_says_so() -> None:
    change = event_of(
        {
            "sessionUpdate": "tool_call_update",
            "toolCallId": "t",
            "rawOutput": "x" * (MAX_TOOL_TEXT + 5),
        }
    )
    assert isinstance(change, ToolChange) and change.output is not None
    assert change.output.endswith("\n…")
    assert len(change.output) == MAX_TOOL_TEXT + 2


def test_a_permission_request_carries_its_tool_and_options() -> None:
    tool = ToolCallUpdate.model_validate({"toolCallId": "t9", "title": "rm -rf", "kind": "execute"})
    options = [
        PermissionOption.model_validate({"optionId": "y", "name": "Allow", "kind": "allow_once"}),
        PermissionOption.model_validate({"optionId": "n", "name": "No", "kind": "reject_once"}),
    ]
    assert tool_change(tool, started=False) == ToolChange(
        tool_call_id="t9", title="rm -rf", kind="execute"
    )
    assert permission_choices(options) == (
        PermissionChoice("y", "Allow", "allow_once"),
        PermissionChoice("n", "No", "reject_once"),
    )


def test_nothing_past_the_boundary_is_an_sdk_object() -> None:
    for _name, update, _expected in GOLDEN:
        event = event_of(update)
        assert type(event).__module__ == "app.acp.updates"
