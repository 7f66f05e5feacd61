"""SearchService (extension, issue 17): full-text search of the conversations, and the pages a
message found opens at, as the page calls them. Everything here runs on the caller's thread:
the index is searched from any thread (index.py), the pages are read from the channels'
published views, as `Conversation` is.

Search sits below the channels in the layers (the channels keep the index in step), so it
reaches them through `Conversations`, which app/channels/found_pages.py gives it."""

from __future__ import annotations

from typing import Protocol

from app.core.expose import exposed
from app.models.finding import AroundPage, NewerPage, SearchResults
from app.models.wire import WireJson
from app.search.index import SearchIndex


class Conversations(Protocol):
    """What search needs of the conversations, from any thread."""

    def index(self) -> SearchIndex:
        """The open history's index."""
        ...

    def require(self, channel_id: str) -> None:
        """Raises the person's error when there is no such conversation."""
        ...

    def around(self, channel_id: str, message_id: str) -> WireJson[AroundPage]: ...

    def newer(self, channel_id: str, after_id: str) -> WireJson[NewerPage]: ...


class SearchService:
    def __init__(self, conversations: Conversations) -> None:
        self._conversations = conversations

    @exposed
    def Search(self, query: str, channel: str = "", limit: int = 50) -> SearchResults:
        """Extension: full-text search of every conversation's messages (words, prefixes,
        "quoted phrases"; accents and case folded), newest first; only `channel`'s if given.
        The last word matches as a prefix while typed; `indexing` while the index catches up."""
        if channel:
            self._conversations.require(channel)
        return self._conversations.index().search(query, channel, limit)

    @exposed
    def Around(self, id: str, messageId: str) -> WireJson[AroundPage]:
        """Extension: the page of messages around `messageId` (it included), to open a
        conversation at a message found. 50 before it, it, 49 after it; at the end of the
        conversation the live answer and queued messages follow, as in `Conversation`."""
        return self._conversations.around(id, messageId)

    @exposed
    def Newer(self, id: str, afterId: str) -> WireJson[NewerPage]:
        """Extension: the 100 messages after `afterId` (after an `Around` page)."""
        return self._conversations.newer(id, afterId)
