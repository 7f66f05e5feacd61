"""The live answer: typed events applied to its parts, text halves joined across chunks."""

from __future__ import annotations

from app.acp.updates import PlanChanged, PlanItem, TextDelta, ToolChange
from app.channels.answer import Answer
from app.core.text import valid_text
from app.models.conversation import Message

HIGH, LOW, EMOJI = "\ud83d", "\ude00", "\U0001f600"


def answer() -> Answer:
    return Answer(Message(id="m", channel="c", created_at="t", role="agent", done=False))


def texts(a: Answer) -> list[tuple[str, str]]:
    return [(p.kind, p.text) for p in a.message.parts if p.kind in ("text", "thought")]


def test_a_pair_split_across_two_chunks_is_joined_and_streamed_whole() -> None:
    a = answer()
    first = a.append_text(TextDelta("text", "hi " + HIGH))
    second = a.append_text(TextDelta("text", LOW + "!"))
    assert [d.text for d in first + second] == ["hi ", EMOJI + "!"]
    assert texts(a) == [("text", f"hi {EMOJI}!")]


def test_a_chunk_that_is_only_a_half_shows_nothing_until_its_pair_comes() -> None:
    a = answer()
    assert a.append_text(TextDelta("text", HIGH)) == []
    assert a.message.parts == []
    assert [d.text for d in a.append_text(TextDelta("text", LOW))] == [EMOJI]


def test_a_half_left_alone_becomes_a_replacement_character_when_its_part_ends() -> None:
    a = answer()
    a.append_text(TextDelta("text", "a" + HIGH))
    a.append_text(TextDelta("thought", "b"))  # another part starts: the half is lost
    a.append_text(TextDelta("text", "c" + HIGH))
    a.tool(ToolChange(tool_call_id="t", title="x"))
    a.append_text(TextDelta("text", "d" + HIGH))
    a.plan(PlanChanged((PlanItem("p"),)))
    a.append_text(TextDelta("text", "e" + HIGH))
    end = a.finish()
    assert [d.text for d in end] == ["\ufffd"]
    assert texts(a) == [
        ("text", "a\ufffd"), ("thought", "b"), ("text", "c\ufffd"), ("text", "d\ufffd"),
        ("text", "e\ufffd"),
    ]  # fmt: skip
    assert a.finish() == []


def test_a_low_half_without_its_high_half_is_replaced_at_once() -> None:
    a = answer()
    assert [d.text for d in a.append_text(TextDelta("text", LOW + "x"))] == ["\ufffd" + "x"]


def test_every_answer_can_be_encoded_whatever_the_halves() -> None:
    a = answer()
    for chunk in (HIGH, HIGH, LOW, LOW, "a", HIGH, "b" + LOW + HIGH):
        a.append_text(TextDelta("text", chunk))
    a.finish()
    a.message.model_dump_json()  # raises on any lone surrogate
    assert valid_text(a.message.parts[0].text) == a.message.parts[0].text
