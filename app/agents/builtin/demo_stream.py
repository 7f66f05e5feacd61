"""One turn of the demo agent on the wire: updates sent in order, paced, the answer recorded."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterable, Iterator

from acp import update_agent_message_text, update_agent_thought_text
from acp.interfaces import Client
from acp.schema import (
    AgentMessageChunk,
    AgentPlanUpdate,
    AgentThoughtChunk,
    AvailableCommandsUpdate,
    CurrentModeUpdate,
    ToolCallProgress,
    ToolCallStart,
    UsageUpdate,
    UserMessageChunk,
)

Update = (
    AgentMessageChunk
    | AgentThoughtChunk
    | AgentPlanUpdate
    | ToolCallStart
    | ToolCallProgress
    | AvailableCommandsUpdate
    | UserMessageChunk
    | UsageUpdate
    | CurrentModeUpdate
)

WORDS_PER_CHUNK = 3
_TOKEN = re.compile(r"\S+\s*|\s+")


def word_groups(text: str, size: int = WORDS_PER_CHUNK) -> Iterator[str]:
    """`text` cut into groups of `size` words; joined back, the groups give `text` exactly."""
    tokens = _TOKEN.findall(text)
    for start in range(0, len(tokens), size):
        yield "".join(tokens[start : start + size])


class Stream:
    """Sends one session's updates, waiting `delay` seconds after each paced one.

    Every send is awaited until written, so the order on the wire is the order of the calls, and a
    cancelled turn stops at the next send or pause.
    """

    def __init__(self, client: Client, session_id: str, delay: float) -> None:
        self.client = client
        self.session_id = session_id
        self.delay = delay
        self._answer: list[str] = []

    @property
    def answer(self) -> str:
        """The agent text of this turn so far: what the session remembers of it."""
        return "".join(self._answer)

    async def send(self, update: Update) -> None:
        await self.client.session_update(session_id=self.session_id, update=update)

    async def pause(self) -> None:
        # A person should see the answer arrive; tests set the delay to 0 and skip the sleep.
        if self.delay > 0:
            await asyncio.sleep(self.delay)

    async def step(self, update: Update) -> None:
        """A paced update (plan, tool call…)."""
        await self.send(update)
        await self.pause()

    async def think(self, text: str) -> None:
        for chunk in word_groups(text):
            await self.step(update_agent_thought_text(chunk))

    async def say(self, text: str) -> None:
        for chunk in word_groups(text):
            self._answer.append(chunk)
            await self.step(update_agent_message_text(chunk))

    async def burst(self, chunks: Iterable[str]) -> None:
        """Text chunks as fast as the pipe takes them, unrecorded (benchmarks)."""
        for chunk in chunks:
            await self.send(update_agent_message_text(chunk))

    def remember(self, text: str) -> None:
        """Adds `text` to what the session remembers of this answer without sending it."""
        self._answer.append(text)
