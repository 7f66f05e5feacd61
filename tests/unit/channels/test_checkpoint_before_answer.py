"""A command asked about is checkpointed before the agent hears the answer (streaming.py): the
person's (or a rule's) answer waits for the snapshot step, then goes on unchanged."""

from __future__ import annotations

import asyncio

from app.channels.streaming import _relayed


def test_the_answer_waits_for_the_checkpoint_then_goes_on() -> None:
    async def scenario() -> None:
        loop = asyncio.get_running_loop()
        reply: asyncio.Future[str | None] = loop.create_future()
        snapshot: asyncio.Future[None] = loop.create_future()
        relay = _relayed(reply, snapshot)
        relay.set_result("allow")
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        assert not reply.done()  # the snapshot is not taken yet
        snapshot.set_result(None)
        assert await asyncio.wait_for(reply, 5) == "allow"

    asyncio.run(scenario())


def test_a_cancelled_request_is_answered_none_after_the_checkpoint() -> None:
    async def scenario() -> None:
        loop = asyncio.get_running_loop()
        reply: asyncio.Future[str | None] = loop.create_future()
        snapshot: asyncio.Future[None] = loop.create_future()
        relay = _relayed(reply, snapshot)
        relay.cancel()
        snapshot.set_exception(RuntimeError("the snapshot failed"))
        assert await asyncio.wait_for(reply, 5) is None  # a failed snapshot never blocks it

    asyncio.run(scenario())
