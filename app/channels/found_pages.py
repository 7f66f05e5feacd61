"""The conversations as search sees them (app/search/service.py's `Conversations`, which sits
below the channels): the open history's index, and the pages a message found opens at, read
from the published views off the loop (reading.py)."""

from __future__ import annotations

from app.channels.parts import ChannelParts
from app.channels.reading import no_channel, read_around, read_newer
from app.models.finding import AroundPage, NewerPage
from app.models.wire import WireJson
from app.search.index import SearchIndex


class FoundPages:
    def __init__(self, parts: ChannelParts) -> None:
        self._registry = parts.registry
        self._publisher = parts.publisher

    def index(self) -> SearchIndex:
        return self._registry.search  # replaced when another configuration's history opens

    def require(self, channel_id: str) -> None:
        if self._publisher.view(channel_id) is None:
            raise no_channel(channel_id)

    def around(self, channel_id: str, message_id: str) -> WireJson[AroundPage]:
        return read_around(self._publisher, channel_id, message_id)

    def newer(self, channel_id: str, after_id: str) -> WireJson[NewerPage]:
        return read_newer(self._publisher, channel_id, after_id)
