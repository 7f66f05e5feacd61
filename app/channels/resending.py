"""Sending a message again (issue 17): what a resend of a kept message sends, found in history.

A user message is sent again as it was (same text, same attachments). An agent's answer is
retried: the user message it answered is sent again for that agent alone. That message is the
nearest user message kept before the answer: a channel answers one user message at a time, and
a message is kept when its turn comes (one that waited in the queue too), so everything kept
between a user message and the next one answers it.

The walk back through history runs on the caller's thread (the page's call), not on the core
loop: history's record reads may be called from any thread (app/history/base.py), and a message
far back, or an id that is not there, costs a walk through many pages.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from app.channels.reading import ViewSource, no_channel
from app.core.errors import UserError
from app.history.base import ID_OPENING, PAGE, History, HistoryClosed, RecordPage
from app.history.records import decode_messages
from app.i18n import _
from app.models.conversation import Message

ATTEMPTS = 3  # a history reopened meanwhile (another configuration): read the new one


@dataclass(frozen=True)
class Resending:
    """What to send again: this user message's text and attachments, for `agent` alone when an
    answer of that agent is retried ("" = routed as a new message)."""

    message: Message
    agent: str = ""


def find_kept(source: ViewSource, channel_id: str, message_id: str) -> Resending:
    """What resending the kept message `message_id` sends; a clear error for a system message,
    an id the conversation does not keep, or an answer whose message is gone. Any thread."""
    for _attempt in range(ATTEMPTS):
        view = source.view(channel_id)
        if view is None:
            break
        try:
            return _resending(_pages_newest_first(view.history, channel_id), message_id)
        except HistoryClosed:
            continue
    raise no_channel(channel_id)


def not_kept(message_id: str) -> UserError:
    return UserError(_("there is no message {id} in this conversation").format(id=message_id))


def _resending(pages: Iterator[RecordPage], message_id: str) -> Resending:
    target = message_id.encode()
    page = next((p for p in pages if target in p.ids()), None)
    if page is None:
        raise not_kept(message_id)
    messages = decode_messages(page.records)
    at = next(i for i, m in enumerate(messages) if m.id == message_id)
    found = messages[at]
    if found.role == "system":
        raise UserError(_("a system message cannot be sent again"))
    if found.role == "user":
        return Resending(found)
    answered = _last_user_message(messages[:at])
    while answered is None:  # the answer opens its page: its message is further back
        older = next(pages, None)
        if older is None:
            break
        answered = _last_user_message(decode_messages(older.records))
    if answered is None:
        raise UserError(_("the message this answer replied to is no longer in this conversation"))
    return Resending(answered, found.agent)


def _last_user_message(messages: list[Message]) -> Message | None:
    return next((m for m in reversed(messages) if m.role == "user"), None)


def _pages_newest_first(history: History, channel_id: str) -> Iterator[RecordPage]:
    """The channel's kept records, a page at a time, newest page first."""
    page = history.last_records(channel_id, PAGE)
    while page.records:
        yield page
        if not page.more:
            return
        page = history.records_before(channel_id, _first_id(page.records), PAGE)


def _first_id(records: list[bytes]) -> str:
    """The oldest record's id: a record begins with it (see RecordPage.ids)."""
    start = len(ID_OPENING)
    return records[0][start : records[0].index(b'"', start)].decode()


class DroppedMessages:
    """The queued messages Stop dropped, by channel: not kept in history (SPEC), they live here
    so that they can be resent, until then, the channel's deletion or the app's end. The last
    KEPT_DROPPED of each channel are kept."""

    KEPT_DROPPED = 50

    def __init__(self) -> None:
        self._by_channel: dict[str, dict[str, Resending]] = {}

    def add(self, channel_id: str, dropped: Resending) -> None:
        kept = self._by_channel.setdefault(channel_id, {})
        kept[dropped.message.id] = dropped
        while len(kept) > self.KEPT_DROPPED:
            del kept[next(iter(kept))]  # the oldest (dicts keep their order)

    def get(self, channel_id: str, message_id: str) -> Resending | None:
        return self._by_channel.get(channel_id, {}).get(message_id)

    def discard(self, channel_id: str, message_id: str) -> None:
        """Resent: once (the page shows it resent)."""
        self._by_channel.get(channel_id, {}).pop(message_id, None)

    def forget(self, channel_id: str) -> None:
        self._by_channel.pop(channel_id, None)
