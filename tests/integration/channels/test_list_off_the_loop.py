"""`ChannelService.List` answers without waiting for the core loop (8 agents streaming at once
kept it busy for 0.68 s at p99: bench/list_while_streaming.py), and still says every change a
call made once that call returned."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator

from app.models.conversation import Channel
from tests.integration.channels.conftest import Chat


@contextlib.contextmanager
def held_loop(chat: Chat) -> Iterator[threading.Event]:
    """The core loop held busy (as a flood of deltas holds it) until the event is set."""
    holding, release = threading.Event(), threading.Event()

    def hold() -> None:
        holding.set()
        release.wait(30)

    chat.sk._core.call_soon(hold)
    try:
        assert holding.wait(5), "the loop never ran the hold"
        yield release
    finally:
        release.set()


def answered_within(call: Callable[[], list[Channel]], timeout: float) -> list[Channel] | None:
    """What `call` answered on a thread of its own (as the page calls), None if it waited."""
    result: list[list[Channel]] = []
    worker = threading.Thread(target=lambda: result.append(call()), daemon=True)
    worker.start()
    worker.join(timeout)
    return result[0] if result else None


def test_list_answers_while_the_core_loop_is_busy(chat: Chat) -> None:
    room = chat.channels.Create("busy")
    direct = chat.channels.Direct("alpha")
    with held_loop(chat) as release:
        listed = answered_within(chat.channels.List, timeout=5)
        assert listed is not None, "List waited for the core loop"
        assert [c.id for c in listed] == [room.id, direct.id]
        assert not release.is_set()  # the loop was still held when List answered


def test_list_says_each_change_once_the_call_that_made_it_returned(chat: Chat) -> None:
    room = chat.channels.Create("first", "", ["alpha"])
    assert [(c.name, c.members) for c in chat.channels.List()] == [("first", ["alpha"])]
    chat.channels.Rename(room.id, "renamed", "now described")
    chat.channels.AddMember(room.id, "beta")
    listed = chat.channels.List()
    assert [(c.name, c.description, c.members) for c in listed] == [
        ("renamed", "now described", ["alpha", "beta"])
    ]
    chat.channels.RemoveMember(room.id, "alpha")
    assert [c.members for c in chat.channels.List()] == [["beta"]]
    direct = chat.channels.Direct("alpha")
    assert [c.id for c in chat.channels.List()] == [room.id, direct.id]
    chat.channels.Delete(room.id)
    assert [c.id for c in chat.channels.List()] == [direct.id]
    assert listed[0].members == ["alpha", "beta"]  # an earlier answer is not changed after
