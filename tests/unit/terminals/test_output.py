"""A terminal's output on its way to the page: whole characters, bounded events, a runaway
producer paused rather than dropped."""

from __future__ import annotations

import asyncio

import pytest

from app.terminals import output
from app.terminals.output import MAX_EVENT_BYTES, OutputBatcher


def run(feed: list[bytes], rate: int | None = None) -> tuple[list[str], list[str]]:
    """Feeds the chunks in one go; the events and the pause/resume calls."""
    events: list[str] = []
    calls: list[str] = []

    async def main() -> None:
        batcher = OutputBatcher(events.append, lambda: calls.append("pause"),
                                lambda: calls.append("resume"))  # fmt: skip
        for chunk in feed:
            batcher.feed(chunk)
        batcher.flush(final=True)

    if rate is None:
        asyncio.run(main())
    else:
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(output, "RATE_BYTES", rate)
            asyncio.run(main())
    return events, calls


def test_a_character_split_across_reads_arrives_whole_and_bad_bytes_are_replaced() -> None:
    events, _ = run([b"price: \xe2\x82", b"\xac \xff!"])
    assert "".join(events) == "price: € \ufffd!"


def test_reads_close_together_go_out_as_one_event() -> None:
    events, _ = run([b"one ", b"two ", b"three"])
    assert events == ["one two three"]


def test_no_event_carries_more_than_64_kib_and_nothing_is_lost() -> None:
    chunks = [bytes([65 + i % 26]) * 10_000 for i in range(40)]  # 400 kB
    events, _ = run(chunks)
    assert all(len(e.encode()) <= MAX_EVENT_BYTES for e in events)
    assert "".join(events) == b"".join(chunks).decode()
    assert len(events) > 1


def test_a_producer_past_the_rate_is_paused_not_dropped() -> None:
    chunks = [b"x" * 4096] * 10
    events, calls = run(chunks, rate=16 * 1024)
    assert calls == ["pause"]  # reads stop for the rest of the second (flush cancels the resume)
    assert "".join(events) == "x" * 40960
