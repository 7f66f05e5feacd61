"""Text the agent prints for a person on stdout (app/acp/lines.py `on_text`): each line that is not
JSON and the unfinished one (a prompt without newline) reach the listener; an object written
after such text on the same line still reaches the SDK."""

from __future__ import annotations

import asyncio
from typing import Any

from app.acp.lines import JsonLines
from app.acp.notices import Notices


def read_all(chunks: list[bytes]) -> tuple[list[dict[str, Any]], list[tuple[str, bool]], list[str]]:
    async def run() -> tuple[list[dict[str, Any]], list[tuple[str, bool]], list[str]]:
        reader = asyncio.StreamReader()
        logged: list[str] = []
        transport = JsonLines(reader, None, Notices(logged.append))  # type: ignore[arg-type]
        texts: list[tuple[str, bool]] = []
        transport.on_text = lambda text, complete: texts.append((text, complete))
        messages: list[dict[str, Any]] = []

        async def consume() -> None:
            while (message := await transport.receive()) is not None:
                messages.append(message)

        consumer = asyncio.create_task(consume())
        for chunk in chunks:  # one read each: the consumer reads before the next comes
            reader.feed_data(chunk)
            for _ in range(5):
                await asyncio.sleep(0)
        reader.feed_eof()
        await consumer
        return messages, texts, logged

    return asyncio.run(run())


def test_lines_and_the_unfinished_prompt_reach_the_listener() -> None:
    messages, texts, _logged = read_all(
        [b"Please visit:\n\nhttps://x.test/a\n\nEnter the code: ", b'{"id": 1}\n']
    )
    assert texts[:4] == [
        ("Please visit:", True),
        ("", True),
        ("https://x.test/a", True),
        ("", True),
    ]
    # The prompt, unfinished when the first read ended, then with the object after it.
    assert ("Enter the code: ", False) in texts and texts[-1] == ("Enter the code: ", True)
    assert messages == [{"id": 1}]


def test_an_object_after_text_on_its_line_is_read_and_the_text_noted() -> None:
    messages, _texts, logged = read_all([b'Enter the code: {"id": 2, "result": {}}\r\n'])
    assert messages == [{"id": 2, "result": {}}]
    assert logged == ["[sidekicks] a line on stdout that is not JSON was skipped: Enter the code:"]


def test_an_object_being_streamed_is_not_handed_out_as_text() -> None:
    messages, texts, _logged = read_all([b'{"id": 3, "res', b'ult": {}}\n'])
    assert messages == [{"id": 3, "result": {}}] and texts == []
