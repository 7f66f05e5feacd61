"""What the page reads of a channel (`Conversation`, `Older`) without waiting for the core loop.

Channel state belongs to the core loop thread, but opening a conversation should not wait for
it: the hop alone (70-100 µs) costs five times reading a page of records from the database, and
decoding those records into models and encoding them back for the page costs twenty times.
So the channels publish, at each change the page hears of (a message added or finished, a turn,
usage, a permission, members), an immutable `ChannelView`: the conversation's other fields
already encoded, the live answer and the messages shown after it. A read combines the latest
view with the history's records (kept as wire JSON), on the caller's thread, into the text the
page gets.

Consistency: a finished message is written to history before a view without it is published,
so a read that takes the view and then the records may see a message twice (live and stored)
but never miss it; the live copy is dropped when its id is among the records. The
events that follow bring the page up to date, as they always did.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol, TypeVar

from pydantic import Field

from app.channels.answer import cancel_unfinished_tools
from app.core.errors import UserError
from app.events.payloads import PermissionRequested
from app.history.base import PAGE, History, HistoryClosed, RecordPage, RecordWindow
from app.history.failures import HistoryUnreadable
from app.history.records import decode_messages, encode_message
from app.i18n import _
from app.models.conversation import Channel, Message, Usage
from app.models.finding import AroundPage, NewerPage
from app.models.sessions import MemberSession
from app.models.wire import WireJson, WireModel

# A read that meets a closed history (another configuration opened meanwhile) tries the new
# view; a few attempts cover any realistic run of reopenings.
ATTEMPTS = 3

R = TypeVar("R")


class ConversationHead(WireModel):
    """A conversation's fields other than its messages."""

    channel: Channel
    busy: bool
    queued: int
    answering: str
    # Issue 29: the recipients still to answer the message being answered, after `answering`.
    next: list[str] = Field(default_factory=list)
    usage: dict[str, Usage] = Field(default_factory=dict)
    permissions: list[PermissionRequested] = Field(default_factory=list)
    # Extension (issue 14): each member's session modes and options, by agent name.
    sessions: dict[str, MemberSession] = Field(default_factory=dict)


class Conversation(ConversationHead):
    messages: list[Message]
    more: bool


class Page(WireModel):
    messages: list[Message]
    more: bool


@dataclass(frozen=True, slots=True)
class ChannelView:
    channel_id: str
    history: History
    head: str  # ConversationHead's JSON, without its closing brace
    answer: Message | None  # live: encoded when read, since every delta changes it
    # Ids and JSON of the messages shown after the answer and not stored yet: those held
    # until the answer is kept, then the queued ones.
    after: tuple[tuple[bytes, str], ...]

    @classmethod
    def of(
        cls,
        head: ConversationHead,
        history: History,
        answer: Message | None,
        after: list[Message],
    ) -> ChannelView:
        """Built on the core thread from the channel's state at this moment."""
        return cls(
            channel_id=head.channel.id,
            history=history,
            head=head.model_dump_json(by_alias=True)[:-1],
            answer=answer,
            after=tuple((m.id.encode(), m.model_dump_json(by_alias=True)) for m in after),
        )


def no_channel(channel_id: str) -> UserError:
    return UserError(_("there is no channel with id {id}").format(id=channel_id))


def read_conversation(source: ViewSource, channel_id: str) -> WireJson[Conversation]:
    """The channel, its last 100 messages (stored, then live, held and queued) and the rest."""

    def read(view: ChannelView) -> WireJson[Conversation]:
        live = []
        answer = view.answer
        if answer is not None:  # before the records: see the module's note on consistency
            live.append((answer.id.encode(), answer.model_dump_json(by_alias=True)))
        live.extend(view.after)
        page = view.history.last_records(view.channel_id, PAGE)
        return WireJson(f'{view.head},"messages":[{_messages(page, live)}],"more":{_bool(page)}}}')

    return _with_view(source, channel_id, read)


def read_older(source: ViewSource, channel_id: str, before_id: str) -> WireJson[Page]:
    """The 100 stored messages before `before_id`."""
    if not before_id:
        raise UserError(_("beforeId must be a message id"))

    def read(view: ChannelView) -> WireJson[Page]:
        page = view.history.records_before(view.channel_id, before_id, PAGE)
        return WireJson(f'{{"messages":[{_messages(page, [])}],"more":{_bool(page)}}}')

    return _with_view(source, channel_id, read)


def read_around(source: ViewSource, channel_id: str, message_id: str) -> WireJson[AroundPage]:
    """The stored messages around `message_id` (50 before, it, 49 after), oldest first; when
    the page reaches the end, the live answer and the held and queued messages follow, as in
    `Conversation`."""

    def read(view: ChannelView) -> WireJson[AroundPage]:
        live = _live(view)  # before the records: see the module's note on consistency
        window = _found(view.history.records_around(view.channel_id, message_id))
        items = _messages(window.page(), [] if window.more_after else live)
        more, after = _bool(window.page()), _bool_of(window.more_after)
        return WireJson(f'{{"messages":[{items}],"more":{more},"moreAfter":{after}}}')

    return _with_view(source, channel_id, read)


def read_newer(source: ViewSource, channel_id: str, after_id: str) -> WireJson[NewerPage]:
    """The 100 stored messages after `after_id`; at the end, the live ones too."""
    if not after_id:
        raise UserError(_("afterId must be a message id"))

    def read(view: ChannelView) -> WireJson[NewerPage]:
        live = _live(view)
        window = _found(view.history.records_after(view.channel_id, after_id, PAGE))
        items = _messages(window.page(), [] if window.more_after else live)
        return WireJson(f'{{"messages":[{items}],"moreAfter":{_bool_of(window.more_after)}}}')

    return _with_view(source, channel_id, read)


def _live(view: ChannelView) -> list[tuple[bytes, str]]:
    """The live answer, then the held and queued messages: what the page shows after the
    stored ones."""
    live = []
    if view.answer is not None:
        live.append((view.answer.id.encode(), view.answer.model_dump_json(by_alias=True)))
    live.extend(view.after)
    return live


def _found(window: RecordWindow | None) -> RecordWindow:
    if window is None:
        raise UserError(_("this message is no longer in the history"))
    return window


class ViewSource(Protocol):
    """Where reads find a channel's latest view (the publisher), from any thread."""

    def view(self, channel_id: str) -> ChannelView | None: ...


def _with_view(source: ViewSource, channel_id: str, read: Callable[[ChannelView], R]) -> R:
    for _attempt in range(ATTEMPTS):
        view = source.view(channel_id)
        if view is None:
            break
        try:
            return read(view)
        except HistoryClosed:
            continue  # another configuration was opened meanwhile: its views now
    raise no_channel(channel_id)


def _messages(page: RecordPage, extra: list[tuple[bytes, str]]) -> str:
    """The records, then the live, held and queued messages not stored meanwhile, as the
    items of one JSON list."""
    records = [_settled(record) for record in page.records]
    try:
        items = [b",".join(records).decode()] if records else []
    except UnicodeDecodeError as err:  # records are checked when first read: not expected
        details = f"{type(err).__name__}: {err}"
        raise HistoryUnreadable(
            _("this conversation's history is damaged and cannot be read ({details})").format(
                details=details
            )
        ) from err
    if extra:
        stored = page.ids()
        items.extend(text for message_id, text in extra if message_id not in stored)
    return ",".join(items)


def _settled(record: bytes) -> bytes:
    """A kept answer whose tool calls were left pending or running (kept so by an older version
    after a Stop) shows them cancelled, as answers are kept now. Found without decoding: only
    such records (and those with a plan) are decoded."""
    if b'"status":"pending"' not in record and b'"status":"in_progress"' not in record:
        return record
    message = decode_messages([record])[0]
    if not cancel_unfinished_tools(message):
        return record
    return encode_message(message)


def _bool(page: RecordPage) -> str:
    return _bool_of(page.more)


def _bool_of(value: bool) -> str:
    return "true" if value else "false"
