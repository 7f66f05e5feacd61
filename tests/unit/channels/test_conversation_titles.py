"""A conversation's title from a message, and the times of records kept before issue 28."""

from __future__ import annotations

from app.channels.conversation_times import dated, id_time
from app.channels.conversations import TITLE_MAX, short_title
from app.channels.publishing import now_iso
from app.channels.registry import ChannelRegistry
from app.channels.state import ChannelState
from app.core.ids import new_id
from app.history.base import StoredChannel
from app.models.conversation import Channel


def test_a_title_is_the_first_non_empty_line_collapsed() -> None:
    assert short_title("\n  \n  Fix   the\tparser  \nand more") == "Fix the parser"
    assert short_title("   \n ") == ""


def test_a_long_title_is_cut_at_a_word_and_says_so() -> None:
    title = short_title("alpha " * 30)
    assert len(title) <= TITLE_MAX and title.endswith("…")
    assert title[:-1].split() == ["alpha"] * len(title[:-1].split())  # no half word
    one_word = short_title("x" * 200)
    assert len(one_word) == TITLE_MAX and one_word.endswith("…")


def test_an_id_says_when_it_was_made() -> None:
    before = now_iso()
    made = id_time(new_id())
    after = now_iso()
    assert before <= made <= after
    assert id_time("not-an-id") == ""
    assert id_time("!" * 26) == ""


def test_an_old_record_is_dated_by_its_id() -> None:
    channel = Channel(id=new_id(), direct="demo", members=["demo"])
    dated(channel)
    assert channel.created_at and channel.last_activity == channel.created_at
    kept = Channel(id=new_id(), created_at="2026-01-01T00:00:00.000Z")
    dated(kept)
    assert kept.created_at == "2026-01-01T00:00:00.000Z" == kept.last_activity


def test_a_channel_added_without_its_times_gets_them_from_its_id() -> None:
    registry = ChannelRegistry()
    channel = Channel(id=new_id(), name="made elsewhere")
    registry.add(ChannelState(StoredChannel(channel=channel)))
    assert channel.created_at == id_time(channel.id) == channel.last_activity
    registry.detach()


def test_a_title_is_the_text_its_markdown_shows() -> None:
    # The header showed "Hi! Show me a **plan**, … some `code`." as typed.
    assert short_title("Hi! Show me a **plan**, a tool call and some `code`.") == (
        "Hi! Show me a plan, a tool call and some code."
    )
    assert short_title("## Fix the [parser](https://example.com)\nand more") == "Fix the parser"
    assert short_title("> 1. ~~old~~ new_name_here") == "old new_name_here"
    # A fence's opening line shows nothing: the next line is the title.
    assert short_title("```python\nprint('hi')\n```") == "print('hi')"
    assert short_title(r"2 \* 3 is not *emphasis*") == "2 * 3 is not emphasis"
