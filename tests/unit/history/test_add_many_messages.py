"""`History.add_messages` (a fork's copied history, issue 28), against both implementations:
the messages kept in order after those already there, paged like any others, one already kept
replaced where it stands."""

from __future__ import annotations

from app.core.ids import new_id
from app.history.base import History
from tests.unit.history.samples import add_messages, ids, text_message


def test_many_messages_are_kept_in_order_after_the_others(history: History) -> None:
    channel = new_id()
    before = add_messages(history, channel, 3)
    many = [text_message(channel, f"copied {n}") for n in range(150)]
    history.add_messages(many)
    page, more = history.last_messages(channel)
    assert more and ids(page) == ids((before + many)[-100:])
    older, more = history.messages_before(channel, page[0].id)
    assert not more and ids(older) == ids(before + many[:50])
    assert history.messages_after(channel, before[-1].id, 1000) == many


def test_a_message_already_kept_is_replaced_where_it_stands(history: History) -> None:
    channel = new_id()
    first, second = add_messages(history, channel, 2)
    changed = text_message(channel, "changed", message_id=first.id)
    added = text_message(channel, "added")
    history.add_messages([changed, added])
    assert history.last_messages(channel)[0] == [changed, second, added]


def test_nothing_to_add_changes_nothing(history: History) -> None:
    channel = new_id()
    kept = add_messages(history, channel, 1)
    history.add_messages([])
    assert history.last_messages(channel) == (kept, False)
