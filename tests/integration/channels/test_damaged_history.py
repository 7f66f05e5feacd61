"""A damaged history through the app's API: what the page and the agents get, and the banner
(`ConfigService.Current().historyProblem`, announced by `config:changed`)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from app.core.errors import UserError
from app.core.ids import new_id
from app.history.base import StoredChannel
from app.history.lmdb_store import LmdbHistory
from app.models.conversation import Channel, Message
from app.paths import data_dir
from tests.integration.channels.conftest import Chat
from tests.integration.history.damage import (
    BAD_RECORDS,
    damage_channel_record,
    damage_record,
    zero_pages_holding,
)
from tests.unit.history.samples import add_messages
from tests.waiting import wait_for

MESSAGES = 150
DAMAGED = 120


def kept_channel(tmp_path: Path) -> tuple[str, list[Message]]:
    """The history the chat fixture's app opens, before it opens it: a channel of 150
    messages with alpha as member (who has seen none of them)."""
    history = LmdbHistory(data_dir(tmp_path / "chat.yaml"))
    channel = Channel(id=new_id(), name="kept", members=["alpha"])
    history.put_channel(StoredChannel(channel=channel))
    added = add_messages(history, channel.id, MESSAGES)
    history.close()
    return channel.id, added


def folder(tmp_path: Path) -> Path:
    return data_dir(tmp_path / "chat.yaml")


def test_a_damaged_record_shows_as_a_note_the_banner_says_so_and_agents_skip_it(
    tmp_path: Path, open_chat: Callable[..., Chat]
) -> None:
    channel_id, _added = kept_channel(tmp_path)
    damage_record(folder(tmp_path), channel_id, DAMAGED, BAD_RECORDS["not-utf8"])
    chat = open_chat()
    # Found by the first read: the page's, or the search index's catch-up at the start (issue
    # 17: it reads every message the index lacks, in the background).
    conversation = chat.channels.Conversation(channel_id)
    current = chat.sk.api.ConfigService.Current
    problem = wait_for(lambda: current().history_problem, timeout=10, what="the banner")
    assert problem.startswith(f"The history in {folder(tmp_path)} is damaged (")
    assert f"record {DAMAGED} of channel {channel_id}: it is not UTF-8 text" in problem

    messages = json.loads(conversation.text)["messages"]  # the text the page parses
    note = messages[DAMAGED - (MESSAGES - 100) - 1]
    assert (note["id"], note["role"]) == (f"damaged-{DAMAGED}", "system")
    assert f"(record {DAMAGED}: it is not UTF-8 text)" in note["error"]
    assert len(chat.channels.Older(channel_id, messages[0]["id"])["messages"]) == 50

    mark = chat.log.mark()
    chat.channels.Send(channel_id, "@alpha what did I miss?")
    answer = chat.finished(channel_id, "alpha", since=mark)
    assert answer["error"] == ""
    prompt = chat.prompts("alpha")[-1]
    assert "message 149" in prompt and "damaged" not in prompt


def test_a_damaged_channel_record_leaves_the_others_and_the_app_starts(
    tmp_path: Path, open_chat: Callable[..., Chat]
) -> None:
    channel_id, _added = kept_channel(tmp_path)
    broken = new_id()
    damage_channel_record(folder(tmp_path), broken, b"\x00\x01 not a channel")
    chat = open_chat()
    assert [c.id for c in chat.channels.List()] == [channel_id]
    problem = chat.sk.api.ConfigService.Current().history_problem
    assert f"(the record of channel {broken}: it is not valid JSON)" in problem


def test_a_zeroed_page_gives_the_conversation_a_clear_error_and_the_banner_says_why(
    tmp_path: Path, open_chat: Callable[..., Chat]
) -> None:
    channel_id, added = kept_channel(tmp_path)
    # Not in the first nor the last page: those are read at open, which would refuse the file.
    assert zero_pages_holding(folder(tmp_path), b'"message 30"') >= 1
    chat = open_chat()
    assert len(chat.channels.Conversation(channel_id)["messages"]) == 100  # other pages read
    with pytest.raises(UserError) as refused:
        chat.channels.Older(channel_id, added[45].id)
    assert str(refused.value).startswith(
        "this conversation's history is damaged and cannot be read (mdb_"
    )
    # Said by this read, or already by the search index's catch-up (it reads in the background).
    current = chat.sk.api.ConfigService.Current
    problem = wait_for(lambda: current().history_problem, timeout=10, what="the banner")
    assert problem.startswith(f"The history in {folder(tmp_path)} is damaged (mdb_")
