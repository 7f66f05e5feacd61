"""The live answer and the stream of 2026 (issue 26): messageId splits and merges parts, plans
by id, compaction parts, sub-agent parts with their nested stream, prompt and reply."""

from __future__ import annotations

from app.acp.updates import (
    ChildEvent,
    CompactionChanged,
    CompactionChunk,
    PlanChanged,
    PlanContentChanged,
    PlanItem,
    PlanRemoved,
    SessionCost,
    SessionMessage,
    SubagentChanged,
    TextDelta,
    ToolChange,
    UsageChanged,
)
from app.acp.updates import RateLimit as RateLimitEvent
from app.channels.answer import Answer
from app.channels.streaming import usage_kept
from app.models.conversation import Message, Usage


def answer() -> Answer:
    return Answer(Message(id="m", channel="c", created_at="t", role="agent", done=False))


def shown(a: Answer) -> list[tuple[str, str]]:
    return [(p.kind, p.text) for p in a.message.parts]


def test_a_new_message_id_starts_a_part_and_a_known_one_goes_back_to_its_part() -> None:
    a = answer()
    a.apply(TextDelta("text", "one ", "m1"))
    a.apply(TextDelta("text", "two", "m2"))  # same kind, another message: split
    a.apply(TextDelta("thought", "hmm", "m3"))
    deltas = a.apply(TextDelta("text", "more", "m1"))  # merged back into m1
    assert shown(a) == [("text", "one more"), ("text", "two"), ("thought", "hmm")]
    assert [(d.index, d.text) for d in deltas] == [(0, "more")]
    assert [p.message_id for p in a.message.parts] == ["m1", "m2", "m3"]


def test_without_message_ids_text_joins_the_last_part_of_its_kind_as_before() -> None:
    a = answer()
    for text in ("a", "b"):
        a.apply(TextDelta("text", text))
    a.apply(TextDelta("text", "c", "m9"))  # the agent names the message it was writing
    assert shown(a) == [("text", "abc")]
    assert a.message.parts[0].message_id == "m9"


def test_plans_by_id_are_replaced_and_removed_beside_the_plan_of_old() -> None:
    a = answer()
    a.apply(PlanChanged((PlanItem("old"),)))
    a.apply(PlanContentChanged("p", entries=(PlanItem("a"),)))
    a.apply(PlanContentChanged("q", markdown="# Steps"))
    a.apply(PlanContentChanged("p", entries=(PlanItem("a", "completed"), PlanItem("b"))))
    parts = a.message.parts
    assert [p.plan_id for p in parts] == ["", "p", "q"]
    assert [(e.content, e.status) for e in parts[1].plan or []] == [
        ("a", "completed"),
        ("b", "pending"),
    ]
    assert parts[2].text == "# Steps"
    deltas = a.apply(PlanRemoved("p"))
    assert parts[1].removed and parts[1].plan == []
    assert [d.index for d in deltas] == [1]
    assert a.apply(PlanRemoved("never")) == []


def test_a_compaction_is_one_part_whose_summary_streams_then_ends() -> None:
    a = answer()
    a.apply(TextDelta("text", "before"))
    a.apply(CompactionChanged("c", "in_progress"))
    a.apply(CompactionChunk("c", "We "))
    a.apply(CompactionChunk("c", "did X."))
    deltas = a.apply(CompactionChanged("c", "completed"))
    part = a.message.parts[1]
    assert part.kind == "compaction" and part.compaction is not None
    assert (part.compaction.status, part.compaction.summary) == ("completed", "We did X.")
    assert deltas[-1].part == part
    a.apply(CompactionChanged("d", "failed", error="too big"))
    assert a.message.parts[2].compaction is not None
    assert a.message.parts[2].compaction.error == "too big"


def test_a_sub_agent_is_a_part_with_its_prompt_its_own_stream_its_state_and_its_reply() -> None:
    a = answer()
    a.apply(SubagentChanged("k", title="Explore", state="running", can_cancel=True))
    # the parent's outgoing view, then the child's incoming view of the same prompt
    a.apply(SessionMessage("t1", "Look around", sender="s", recipient="k"))
    a.apply(ChildEvent("k", SessionMessage("t1", "Look around", sender="s", recipient="k")))
    a.apply(ChildEvent("k", TextDelta("text", "Reading…")))
    a.apply(ChildEvent("k", ToolChange("r1", started=True, title="Read x", status="completed")))
    a.apply(ChildEvent("k", UsageChanged(1, 2)))  # not shown: nothing changes
    assert a.subagents.running() == ["k"]
    a.apply(SubagentChanged("k", state="idle", stop_reason="end_turn"))
    a.apply(SessionMessage("t1:reply", "Found it", sender="k", recipient="s"))
    [part] = a.message.parts
    sub = part.subagent
    assert sub is not None
    assert (sub.title, sub.state, sub.stop_reason, sub.can_cancel) == (
        "Explore",
        "idle",
        "end_turn",
        True,
    )
    assert (sub.prompt, sub.reply) == ("Look around", "Found it")
    assert [(p.kind, p.text) for p in sub.parts] == [("text", "Reading…"), ("tool", "")]
    assert sub.parts[1].tool is not None and sub.parts[1].tool.title == "Read x"
    assert a.subagents.running() == []


def test_a_message_between_sessions_nobody_announced_is_not_shown() -> None:
    a = answer()
    assert a.apply(SessionMessage("x", "hi", sender="a", recipient="b")) == []
    assert a.message.parts == []


def test_a_tool_call_names_the_sessions_it_runs() -> None:
    a = answer()
    a.apply(ToolChange("t", started=True, title="Agent", sessions=("k",)))
    tool = a.message.parts[0].tool
    assert tool is not None and tool.sessions == ["k"]


def test_usage_keeps_the_cost_and_each_rate_limit_window_an_update_leaves_out() -> None:
    first = usage_kept(
        None,
        UsageChanged(
            1, 10, SessionCost(0.5, "USD"), (RateLimitEvent("five_hour", utilization=0.4),)
        ),
    )
    later = usage_kept(
        first, UsageChanged(2, 10, None, (RateLimitEvent("seven_day", "allowed_warning", 0.9),))
    )
    assert isinstance(later, Usage)
    assert later.used == 2 and later.cost is not None and later.cost.amount == 0.5
    assert [(w.window, w.utilization) for w in later.rate_limits] == [
        ("five_hour", 0.4),
        ("seven_day", 0.9),
    ]
    again = usage_kept(later, UsageChanged(3, 10, SessionCost(0.75, "USD")))
    assert again.cost is not None and again.cost.amount == 0.75
    assert len(again.rate_limits) == 2


def test_when_the_answer_ends_a_sub_agent_still_at_work_and_its_tool_calls_are_ended() -> None:
    a = answer()
    a.apply(SubagentChanged("k", state="running"))
    a.apply(ChildEvent("k", ToolChange("r", started=True, title="Run", status="in_progress")))
    a.apply(SubagentChanged("done", state="idle", stop_reason="end_turn"))
    deltas = a.cancel_unfinished_tools()
    assert [d.index for d in deltas] == [0]
    running, finished = (p.subagent for p in a.message.parts)
    assert running is not None and finished is not None
    assert running.state == "unknown" and finished.state == "idle"
    tool = running.parts[0].tool
    assert tool is not None and tool.status == "failed"
