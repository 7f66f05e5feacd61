"""When the history cannot be written (a full disk): no message is lost silently, the channel
never stays busy, and the reason reads as a sentence ("the disk is full"), not LMDB's words."""

from __future__ import annotations

import gc
import logging
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from app.core.errors import UserError
from app.history.lmdb_store import LmdbHistory
from tests.integration.channels.conftest import Chat
from tests.integration.channels.full_disk import (
    TINY_DISK_MARK,
    FullDisk,
    InjectedDisk,
    TinyDisk,
    tiny_disk_on,
)

NOT_SAVED = "this message could not be saved, so it was not sent: the disk is full"
ANSWER_NOT_SAVED = "this answer could not be saved: the disk is full"
LMDB_WORDS = ("mdb_txn_commit", "DiskError", "No space left")
# The writes meant to fail are large: on a real full disk LMDB may still fit a small write in
# pages it freed earlier (the file does not grow), so only a write that grows the file fails.
LARGE = " " + "x" * 300_000


@pytest.fixture(params=[pytest.param("tmpfs", marks=TINY_DISK_MARK), "injected"])
def disk_kind(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def tiny_disk(disk_kind: str, user_config_dir: Path) -> Iterator[TinyDisk | None]:
    """A real 1 MiB disk under the history for the "tmpfs" runs (skipped where it cannot be
    mounted); unmounted after the app closed (this fixture is set up before the app)."""
    if disk_kind != "tmpfs":
        yield None
        return
    yield from tiny_disk_on(user_config_dir)


@pytest.fixture
def full_disk_chat(
    tiny_disk: TinyDisk | None, open_chat: Callable[..., Chat]
) -> tuple[Chat, FullDisk]:
    chat = open_chat()
    if tiny_disk is not None:
        return chat, tiny_disk
    history = chat.sk._parts.history
    assert isinstance(history, LmdbHistory)
    return chat, InjectedDisk(history)


def message_with_id(chat: Chat, message_id: str, since: int) -> Callable[[], Any]:
    def wait(where: Callable[[dict[str, Any]], bool] = lambda m: True) -> Any:
        return chat.log.wait(
            "message:updated",
            lambda p: p["message"]["id"] == message_id and where(p["message"]),
            since=since,
            timeout=20,
        )["message"]

    return wait


def test_a_queued_message_that_cannot_be_kept_says_so_and_the_next_one_is_answered(
    full_disk_chat: tuple[Chat, FullDisk], caplog: pytest.LogCaptureFixture
) -> None:
    chat, disk = full_disk_chat
    caplog.set_level(logging.ERROR, logger="asyncio")
    room = chat.channels.Direct("perm")
    mark = chat.log.mark()
    chat.channels.Send(room.id, "edit" + LARGE)  # kept; the agent then waits for a permission
    asked = chat.log.wait("permission:requested", since=mark)
    disk.fill()
    first = chat.channels.Send(room.id, "first" + LARGE)  # both wait, not written yet
    second = chat.channels.Send(room.id, "second")

    def free_once_first_failed(name: str, payload: dict[str, Any]) -> None:
        # Runs on the core loop, before the worker takes the next message: only the answer to
        # "edit" and "first" meet the full disk.
        message = payload.get("message", {})
        if name == "message:updated" and message.get("id") == first and message.get("error"):
            disk.free()

    chat.sk.events.subscribe(free_once_first_failed)
    chat.channels.AnswerPermission(asked["id"], "allow")

    answer = chat.finished(room.id, "perm", since=mark)
    assert answer["error"].startswith(ANSWER_NOT_SAVED)
    shown = message_with_id(chat, first, mark)(lambda m: bool(m["error"]))
    assert shown["error"].startswith(NOT_SAVED)
    assert not shown["queued"]
    assert not any(words in shown["error"] + answer["error"] for words in LMDB_WORDS)

    # The worker went on: "second" is kept and answered (after its own permission request).
    kept = message_with_id(chat, second, mark)(lambda m: not m["queued"])
    assert kept["error"] == ""
    again = chat.log.wait("permission:requested", lambda p: p["id"] != asked["id"], since=mark)
    chat.channels.AnswerPermission(again["id"], "allow")
    answered = chat.log.wait(
        "message:updated",
        lambda p: (
            p["message"]["role"] == "agent"
            and p["message"]["done"]
            and p["message"]["parts"][-1]["text"].endswith("echo: second")
        ),
        since=mark,
        timeout=20,
    )["message"]
    assert answered["error"] == ""
    chat.idle(room.id, since=mark)
    conversation = chat.channels.Conversation(room.id)
    assert (conversation["busy"], conversation["queued"]) == (False, 0)
    texts = [m["parts"][-1]["text"] for m in conversation["messages"] if m["parts"]]
    assert texts[0] == "edit" + LARGE and "first" + LARGE not in texts
    assert texts[-2:] == ["second", answered["parts"][-1]["text"]]
    gc.collect()  # a task that died with its exception logs it when collected
    assert "Task exception was never retrieved" not in caplog.text


def test_a_message_sent_while_idle_that_cannot_be_kept_is_refused_and_nothing_waits(
    full_disk_chat: tuple[Chat, FullDisk],
) -> None:
    chat, disk = full_disk_chat
    room = chat.channels.Direct("alpha")
    disk.fill()
    mark = chat.log.mark()
    with pytest.raises(UserError) as refused:
        chat.channels.Send(room.id, "lost?" + LARGE)
    assert str(refused.value).startswith(NOT_SAVED)
    assert not any(words in str(refused.value) for words in LMDB_WORDS)
    assert chat.log.named("message:updated", since=mark) == []
    conversation = chat.channels.Conversation(room.id)
    assert (conversation["busy"], conversation["queued"], conversation["messages"]) == (
        False,
        0,
        [],
    )

    disk.free()  # the text the page gave back, sent again, goes through
    chat.channels.Send(room.id, "lost?" + LARGE)
    answer = chat.finished(room.id, "alpha", since=mark)
    assert answer["parts"][-1]["text"] == "echo: lost?" + LARGE
