"""A command's kept output: the tail within the limit, whole characters, `truncated` once
anything was dropped, a default cap; and its live output: coalesced, bounded, skips said."""

from __future__ import annotations

import asyncio
import itertools

from app.workspace import live_output
from app.workspace.live_output import MAX_EVENT_BYTES, LiveOutput
from app.workspace.output_tail import DEFAULT_LIMIT, OutputTail


def tail_of(chunks: list[bytes], limit: int | None) -> OutputTail:
    tail = OutputTail(limit)
    for chunk in chunks:
        tail.feed(chunk)
    return tail


def test_output_within_the_limit_is_kept_whole_and_not_truncated() -> None:
    tail = tail_of([b"hello ", b"world"], limit=11)
    assert tail.text() == "hello world"
    assert not tail.truncated


def test_output_past_the_limit_keeps_the_tail_and_says_truncated() -> None:
    tail = tail_of([b"0123456789", b"abcdef"], limit=8)
    assert tail.text() == "89abcdef"
    assert tail.truncated


def test_one_read_larger_than_the_limit_keeps_its_end() -> None:
    tail = tail_of([b"x" * 100 + b"end"], limit=5)
    assert tail.text() == "xxend"
    assert tail.truncated


def test_the_tail_starts_on_a_whole_character_when_the_cut_falls_inside_one() -> None:
    # "é€😀" is 2 + 3 + 4 bytes; keeping 8 bytes would start inside "é".
    tail = tail_of(["é€😀".encode()], limit=8)
    assert tail.text() == "€😀"
    assert tail.truncated
    assert len(tail.text().encode()) <= 8


def test_multi_byte_characters_split_across_reads_and_cut_by_the_limit_stay_whole() -> None:
    data = ("aé€😀" * 50).encode()
    chunks = [data[i : i + 3] for i in range(0, len(data), 3)]  # every character split
    tail = tail_of(chunks, limit=37)
    text = tail.text()
    assert "\ufffd" not in text
    assert ("aé€😀" * 50).endswith(text)
    assert 37 - 3 <= len(text.encode()) <= 37


def test_a_character_half_read_is_not_replaced_while_the_command_runs() -> None:
    tail = tail_of([b"price: \xe2\x82"], limit=None)
    assert tail.text() == "price: "
    tail.feed(b"\xac!")
    assert tail.text() == "price: €!"


def test_bytes_that_are_not_utf8_become_replacement_characters_within_the_limit() -> None:
    tail = tail_of([b"ok \xff\xfe\xfd"], limit=6)
    text = tail.text()
    assert text.endswith("\ufffd")
    assert len(text.encode()) <= 6


def test_a_character_never_finished_is_replaced_once_the_command_ended() -> None:
    tail = tail_of([b"end \xe2\x82"], limit=None)
    assert tail.text(final=True) == "end \ufffd"


def test_without_a_limit_the_output_kept_is_capped_at_the_default() -> None:
    tail = tail_of([b"y\n" * 400_000] * 3, limit=None)  # 2.4 MB
    assert tail.size == DEFAULT_LIMIT
    assert tail.truncated
    assert tail.text().endswith("y\n")


def test_a_limit_of_zero_keeps_nothing_and_says_truncated() -> None:
    tail = tail_of([b"abc"], limit=0)
    assert tail.text() == ""
    assert tail.truncated


# ---- live output -------------------------------------------------------------------------------


def live(feed: list[bytes]) -> list[str]:
    events: list[str] = []

    async def main() -> None:
        output = LiveOutput(events.append)
        for chunk in feed:
            output.feed(chunk)
        output.close()

    asyncio.run(main())
    return events


def test_reads_close_together_go_out_as_one_event_with_characters_whole() -> None:
    events = live([b"price: \xe2\x82", b"\xac", b" ok"])
    assert events == ["price: € ok"]


def test_output_faster_than_the_page_takes_keeps_the_tail_and_says_what_was_skipped() -> None:
    big = ("é" * (MAX_EVENT_BYTES)).encode()  # 128 KiB of 2-byte characters, in one go
    events = live([big, b"the end"])
    assert len(events) == 1
    assert "not shown here" in events[0]
    assert events[0].endswith("é" * 10 + "the end")
    assert "\ufffd" not in events[0]
    body = events[0].rsplit("\r\n", 1)[1]
    assert len(body.encode()) <= MAX_EVENT_BYTES


def test_no_more_than_one_event_per_interval_under_a_steady_stream() -> None:
    async def main() -> list[float]:
        loop = asyncio.get_running_loop()
        times: list[float] = []
        output = LiveOutput(lambda text: times.append(loop.time()))
        start = loop.time()
        while loop.time() - start < 0.3:
            output.feed(b"line\n")
            await asyncio.sleep(0.002)
        output.close()
        return times

    times = asyncio.run(main())
    gaps = [b - a for a, b in itertools.pairwise(times[:-1])]  # the last: the end's flush
    assert len(times) <= 0.3 / live_output.INTERVAL + 2
    assert all(gap >= live_output.INTERVAL * 0.9 for gap in gaps)


def test_nothing_is_emitted_after_the_command_ended() -> None:
    events: list[str] = []

    async def main() -> None:
        output = LiveOutput(events.append)
        output.feed(b"last")
        output.close()
        output.feed(b"late")
        await asyncio.sleep(live_output.INTERVAL * 2)

    asyncio.run(main())
    assert events == ["last"]
