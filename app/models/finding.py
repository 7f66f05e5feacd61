"""Search, export, attention and permission rules (issue 17), with camelCase wire names."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from app.models.conversation import Message, Role, ToolKind
from app.models.wire import WireModel

ExportFormat = Literal["markdown", "html", "json"]


class SearchHit(WireModel):
    """One message found. `snippet` is plain text (never HTML) around the matches;
    `highlights` are the [start, end) ranges of the matched words in it, in code points (an
    emoji counts one)."""

    channel: str
    channel_name: str = ""  # extension: the channel's name, or the agent's for a direct one
    message_id: str
    agent: str = ""
    role: Role
    created_at: str
    snippet: str
    highlights: list[list[int]] = Field(default_factory=list)


class SearchResults(WireModel):
    """Newest first; `more` when the query matched more messages than were returned;
    `indexing` while the index catches up with the history (results may lack some messages)."""

    results: list[SearchHit]
    more: bool
    indexing: bool = False


class AroundPage(WireModel):
    """Messages around one message (it included), oldest first: `more` = older ones exist,
    `moreAfter` = newer ones exist (load them with `Newer`)."""

    messages: list[Message]
    more: bool
    more_after: bool


class NewerPage(WireModel):
    """Messages after one, oldest first; `moreAfter` when newer ones still exist."""

    messages: list[Message]
    more_after: bool


class AttentionCounts(WireModel):
    """What waits for the person: unfinished reading (answers finished in a conversation that
    was not on screen in a focused window) by channel, and pending permission requests."""

    unread: dict[str, int] = Field(default_factory=dict)
    permissions: int = 0
    total: int = 0


class NotificationOpened(WireModel):
    """The person clicked a notification: show this conversation (at this message)."""

    channel: str
    message_id: str = ""


class PermissionRule(WireModel):
    """An "always allow" the person gave: the agent's requests for this kind of tool are
    allowed without asking, in every channel, until revoked."""

    id: str
    agent: str
    kind: ToolKind
    created_at: str
    channel: str = ""  # where it was given (shown; the rule holds everywhere)
    example: str = ""  # the tool call's title when it was given


class PermissionRulesChanged(WireModel):
    rules: list[PermissionRule]
