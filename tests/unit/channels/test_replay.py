"""A `session/load` replay made into messages (issue 26, app/channels/replay.py)."""

from __future__ import annotations

from app.acp.updates import PlanChanged, PlanItem, TextDelta, ToolChange, UsageChanged, UserText
from app.channels.replay import Replay


def test_each_side_makes_its_own_messages_in_order() -> None:
    replay = Replay("c1", "keeper")
    for event in [
        UserText("why does "),
        UserText("it fail?"),
        ToolChange("t1", started=True, title="read parser.py", kind="read", status="completed"),
        TextDelta("thought", "looking"),
        TextDelta("text", "It skips "),
        TextDelta("text", "the last token."),
        UsageChanged(used=10, size=100),  # neither said nor done: not kept
        UserText("fix it"),
        PlanChanged((PlanItem("fix the loop", "completed"),)),
        TextDelta("text", "Fixed."),
    ]:
        replay.add(event)
    messages = replay.finished()
    assert [(m.role, m.agent) for m in messages] == [
        ("user", ""),
        ("agent", "keeper"),
        ("user", ""),
        ("agent", "keeper"),
    ]
    assert messages[0].parts[0].text == "why does it fail?"
    assert [p.kind for p in messages[1].parts] == ["tool", "thought", "text"]
    assert messages[1].parts[2].text == "It skips the last token."
    assert messages[1].stop_reason == "end_turn" and messages[0].stop_reason is None
    assert [p.kind for p in messages[3].parts] == ["plan", "text"]
    assert all(m.channel == "c1" and m.done for m in messages)
    assert [m.id for m in messages] == sorted(m.id for m in messages)


def test_empty_user_chunks_and_half_characters_are_made_right() -> None:
    replay = Replay("c1", "keeper")
    replay.add(UserText("   "))
    replay.add(TextDelta("text", "ok"))
    replay.add(UserText("half \ud83d"))
    messages = replay.finished()
    assert [m.role for m in messages] == ["agent", "user"]
    assert messages[1].parts[0].text == "half \ufffd"
