"""A channel's stored messages for an export, read off the core loop (the history's record reads
may be called from any thread, see app/history/base.py).

The history pages backwards (the last 100, the 100 before those, …) and an export goes forwards.
A first walk notes only where each page begins (one id per 100 messages); the second reads the
pages again oldest first, decoding one at a time. A 1,000,000-message channel is read twice from
the database but holds 10,000 ids and a single page of messages at once."""

from __future__ import annotations

from collections.abc import Iterator

from app.channels.reading import ChannelView
from app.core.errors import UserError
from app.history.base import ID_OPENING, PAGE, History
from app.history.records import decode_messages
from app.i18n import _
from app.models.conversation import Message


def stored_messages(history: History, channel_id: str) -> Iterator[Message]:
    """Every stored message of the channel, oldest first."""
    for records in _pages_oldest_first(history, channel_id):
        yield from decode_messages(records)


def _pages_oldest_first(history: History, channel_id: str) -> Iterator[list[bytes]]:
    """The pages as they were when the export began (messages kept meanwhile are left out)."""
    page = history.last_records(channel_id, PAGE)
    if not page.more:
        yield page.records
        return
    newest, newest_count = page.records[-1], len(page.records)
    starts: list[str] = []  # the oldest message id of each page, newest page first
    while page.more and page.records:
        starts.append(_id(page.records[0]))
        page = history.records_before(channel_id, starts[-1], PAGE)
    yield page.records  # the oldest page, still at hand
    for index in range(len(starts) - 1, 0, -1):
        yield history.records_before(channel_id, starts[index - 1], PAGE).records
    # The newest page again, up to the message that was newest when the export began.
    before = history.records_before(channel_id, _id(newest), newest_count - 1).records
    yield [*before, newest]


def _id(record: bytes) -> str:
    """A record's message id, read without decoding (records begin with it)."""
    start = len(ID_OPENING)
    return record[start : record.index(b'"', start)].decode()


def find_message(view: ChannelView, message_id: str) -> Message:
    """A message of the conversation: the live answer, one shown after it, or a stored one
    (looked for from the newest page back: the one copied is usually recent)."""
    answer = view.answer
    if answer is not None and answer.id == message_id:
        return answer.model_copy(deep=True)
    wanted = message_id.encode()
    for held_id, text in view.after:
        if held_id == wanted:
            return Message.model_validate_json(text)
    history, channel_id = view.history, view.channel_id
    page = history.last_records(channel_id, PAGE)
    while page.records:
        if wanted in page.ids():
            return next(m for m in decode_messages(page.records) if m.id == message_id)
        if not page.more:
            break
        page = history.records_before(channel_id, _id(page.records[0]), PAGE)
    raise UserError(_("there is no message {id} in this conversation").format(id=message_id))
