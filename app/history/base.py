"""What the conversations (app/channels) need from a history, whatever keeps it (LMDB or
memory)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, Protocol

from pydantic import Field

from app.history.change_records import ChangeTexts
from app.history.records import decode_messages
from app.models.changes import FileChange
from app.models.conversation import Channel, Command, Message, Usage
from app.models.sessions import MemberSession as SessionOffer
from app.models.wire import WireModel

PAGE = 100
# A page opened at a message (a search result): it, 50 before and 49 after, so it stands in the
# middle of a page as long as a normal one.
AROUND_BEFORE = 50
AROUND_AFTER = 49
ID_OPENING = b'{"id":"'  # how every stored message begins


class PendingFork(WireModel):
    """A fork's member session still to fork: the source channel, the member's session there,
    and the last message that session had seen when the fork was made (it is forked only if
    it still has seen nothing newer: app/channels/forked_sessions.py)."""

    channel: str
    session_id: str
    seen: str


class MemberSession(WireModel):
    """An agent's ACP session in one channel, and the last message of the channel it saw."""

    session_id: str = ""
    last_seen: str = ""  # a message id; "" = has seen nothing of this channel
    usage: Usage | None = None
    # The modes and options its session last offered (shown before the session reopens), and
    # what the person chose (applied again when a new session has to be opened).
    offer: SessionOffer | None = None
    chosen_mode: str = ""
    chosen_options: dict[str, str | bool] = Field(default_factory=dict)
    # Issue 28, a fork's member (app/channels/forking.py): the source's session to fork with
    # `session/fork` when this member's session first opens; `replay_own` once it starts anew
    # instead, so its own answers are in the context it is given (app/channels/context.py).
    fork: PendingFork | None = None
    replay_own: bool = False


class StoredChannel(WireModel):
    channel: Channel
    last_responder: str = ""
    sessions: dict[str, MemberSession] = Field(default_factory=dict)  # by agent name
    # Opened from one of the agent's own sessions (ChannelService.OpenSession): that agent's
    # session titles (`session_info_update`) name the channel. "" for the person's channels.
    titled_by: str = ""
    # Who gave a direct conversation its title (app/channels/conversations.py): "" none yet,
    # "message" its first message, "agent" its session title, "person" a rename.
    title_by: Literal["", "message", "agent", "person"] = ""


class HistoryClosed(RuntimeError):
    """A read met a history closed meanwhile (another configuration was opened)."""


@dataclass(frozen=True, slots=True)
class RecordPage:
    """Stored messages as they are kept: each one's wire JSON (what `Message.wire()` gives,
    encoded), oldest first, and whether older ones exist."""

    records: list[bytes]
    more: bool

    def decoded(self) -> tuple[list[Message], bool]:
        """The page as `last_messages` and `messages_before` answer it."""
        return decode_messages(self.records), self.more

    def ids(self) -> set[bytes]:
        """The records' message ids, read without decoding: a record begins with its id
        (`id` is `Message`'s first field, and ids hold no quote)."""
        start = len(ID_OPENING)
        return {record[start : record.index(b'"', start)] for record in self.records}


@dataclass(frozen=True, slots=True)
class RecordWindow:
    """Stored messages around a point, undecoded, oldest first: whether older ones exist
    (`more`) and newer ones (`more_after`)."""

    records: list[bytes]
    more: bool
    more_after: bool

    def page(self) -> RecordPage:
        return RecordPage(self.records, self.more)


class History(Protocol):
    """Every method but the record reads is called on the core loop thread. Writes are durable
    when they return (one transaction each): a crash never loses a finished message nor leaves
    half of one.

    `last_records`, `records_before`, `records_around` and `records_after` may be called from
    any thread at any time, even while
    the core thread writes or closes the history (they raise `HistoryClosed` then): the page's
    history reads take them directly, without waiting for the core loop."""

    @property
    def problem(self) -> str:
        """ "" when the history is on disk and sound; otherwise why it only lives in memory,
        or what damage a read or write found in the file."""

    def on_problem(self, listener: Callable[[str], None]) -> None:
        """`listener(problem)` is called (from any thread) when a problem appears after the
        history was opened; it must be quick."""

    def channels(self) -> list[StoredChannel]:
        """Every channel, oldest first (ids sort by creation time)."""

    def put_channel(self, stored: StoredChannel) -> None:
        """Creates or replaces a channel's record (name, members, sessions, last responder)."""

    def delete_channel(self, channel_id: str) -> None:
        """Deletes the channel, all its messages and its file changes."""

    def add_message(self, message: Message) -> None:
        """Keeps a finished message after the channel's others (a message already kept, same
        id, is replaced where it stands). A channel's messages are in the order they were
        kept, which is the order the page showed them in, not their ids' order."""

    def add_messages(self, messages: list[Message]) -> None:
        """`add_message` of each, in order, in one transaction: all of them kept or none (a
        fork's copied history, issue 28)."""

    def last_messages(self, channel_id: str, limit: int = PAGE) -> tuple[list[Message], bool]:
        """The channel's last `limit` messages, oldest first, and whether older ones exist."""

    def messages_before(
        self, channel_id: str, before_id: str, limit: int = PAGE
    ) -> tuple[list[Message], bool]:
        """The `limit` messages just before `before_id`, oldest first, and whether more exist;
        nothing for an id that is not kept."""

    def last_records(self, channel_id: str, limit: int = PAGE) -> RecordPage:
        """`last_messages`, undecoded; any thread."""

    def records_before(self, channel_id: str, before_id: str, limit: int = PAGE) -> RecordPage:
        """`messages_before`, undecoded; any thread."""

    def records_around(
        self,
        channel_id: str,
        message_id: str,
        before: int = AROUND_BEFORE,
        after: int = AROUND_AFTER,
    ) -> RecordWindow | None:
        """The `before` messages before `message_id`, it, and the `after` ones after it,
        undecoded, oldest first; None for an id that is not kept. Any thread."""

    def records_after(
        self, channel_id: str, after_id: str, limit: int = PAGE
    ) -> RecordWindow | None:
        """The `limit` messages just after `after_id`, undecoded, oldest first (`more` is
        always true: `after_id` is older); None for an id that is not kept. Any thread."""

    def messages_after(self, channel_id: str, after_id: str, limit: int) -> list[Message]:
        """The last `limit` messages kept after `after_id` ("", or an id not kept: from the
        start), oldest first: what an agent has not seen yet."""

    def commands(self, agent: str) -> list[Command]:
        """The agent's last announced slash commands ([] if it never announced any)."""

    def put_commands(self, agent: str, commands: list[Command]) -> None: ...

    def add_change(self, change: FileChange, texts: ChangeTexts) -> None:
        """Keeps (replaces) a file change of the channel `change.channel` and the texts a
        revert needs (deleted with the channel)."""

    def put_change(self, change: FileChange) -> None:
        """Replaces a kept change's record (e.g. marked reverted); its texts stay."""

    def delete_change(self, channel_id: str, change_id: str) -> None:
        """Forgets a kept change and its texts (merged into another record of its answer)."""

    def put_checkpoint(self, channel_id: str, answer_id: str, record: bytes) -> None:
        """Keeps (replaces) the checkpoint record of an answer (deleted with the channel)."""

    def checkpoint_records(self, channel_id: str) -> list[tuple[str, bytes]]:
        """The channel's answers' checkpoint records by answer id, oldest answer first."""

    def changes(self, channel_id: str) -> list[FileChange]:
        """The channel's file changes, oldest first (change ids sort by creation time)."""

    def change_texts(self, channel_id: str, change_id: str) -> ChangeTexts | None:
        """The texts before and after a kept change; None for a change not kept."""

    def value(self, key: str) -> bytes | None:
        """A small value the app keeps with the history under `key` (e.g. the "always allow"
        rules, the conversation last on screen); None when never kept."""

    def put_value(self, key: str, value: bytes) -> None:
        """Keeps (replaces) a small value under `key` (at most 200 characters)."""

    def close(self) -> None:
        """Releases the files and the lock; the object is not used afterwards."""
