"""A long conversation found by search and opened at the message (issue 17), headless: the
history was written before the app ever indexed it, so the app's start catches the index up."""

from __future__ import annotations

from pathlib import Path

import pytest

from app import Sidekicks
from app.core.errors import UserError
from app.core.ids import new_id
from app.history.base import StoredChannel
from app.history.lmdb_store import LmdbHistory
from app.models.conversation import Channel
from app.paths import data_dir
from tests.unit.history.samples import add_messages
from tests.waiting import wait_for

MESSAGES = 250


def test_a_message_found_in_a_long_history_opens_in_the_middle_of_its_page_and_reads_on(
    tmp_path: Path,
) -> None:
    config = tmp_path / "pages.yaml"
    config.write_text("agents: []\n", encoding="utf-8")
    history = LmdbHistory(data_dir(config))
    channel = Channel(id=new_id(), name="long")
    history.put_channel(StoredChannel(channel=channel))
    added = add_messages(history, channel.id, MESSAGES)  # "message 0" … "message 249"
    history.close()

    with Sidekicks(config=config) as sk:
        channels = sk.api.ChannelService
        wait_for(
            lambda: not sk.api.SearchService.Search("x").indexing, timeout=20, what="caught up"
        )
        (hit,) = sk.api.SearchService.Search('"message 120"').results
        assert (hit.message_id, hit.channel_name) == (added[120].id, "long")

        page = sk.api.SearchService.Around(channel.id, hit.message_id)
        ids = [m["id"] for m in page["messages"]]
        assert ids == [m.id for m in added[70:170]]  # 50 before it, it, 49 after
        assert (page["more"], page["moreAfter"]) == (True, True)

        newer = sk.api.SearchService.Newer(channel.id, ids[-1])
        assert [m["id"] for m in newer["messages"]] == [m.id for m in added[170:250]]
        assert newer["moreAfter"] is False
        older = channels.Older(channel.id, ids[0])
        assert [m["id"] for m in older["messages"]] == [m.id for m in added[0:70]]

        with pytest.raises(UserError, match="this message is no longer in the history"):
            sk.api.SearchService.Around(channel.id, new_id())
