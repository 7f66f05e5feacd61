"""The agents' transport (app/acp/lines.py) gives the core loop a turn while it hands out the
messages of one read: the SDK's receive loop would otherwise take them all back to back, and a
service call waiting for the loop waited behind thousands of them."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from app.acp import lines
from app.acp.lines import JsonLines
from app.acp.notices import Notices


def test_the_loop_gets_a_turn_within_yield_every_messages_of_one_read() -> None:
    async def run() -> int:
        reader = asyncio.StreamReader()
        payload = b"".join(json.dumps({"n": i}).encode() + b"\n" for i in range(1000))
        reader.feed_data(payload)  # one read holds them all
        reader.feed_eof()
        transport = JsonLines(reader, None, Notices(lambda _text: None))  # type: ignore[arg-type]
        handed: list[dict[str, Any]] = []
        seen_at: list[int] = []
        asyncio.get_running_loop().call_soon(lambda: seen_at.append(len(handed)))
        while (message := await transport.receive()) is not None:  # as the SDK's loop does
            handed.append(message)
        assert [m["n"] for m in handed] == list(range(1000))
        return seen_at[0]

    assert asyncio.run(run()) <= lines.YIELD_EVERY
