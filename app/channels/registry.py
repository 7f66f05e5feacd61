"""The channels of the open history: each one's run-time state, its record and its messages,
and the search index kept in step with them (app/search/)."""

from __future__ import annotations

import logging
from collections.abc import Callable

from app.channels.conversation_times import dated
from app.channels.reading import no_channel
from app.channels.state import ChannelState
from app.history.base import History
from app.history.memory import MemoryHistory
from app.models.conversation import Channel, Message
from app.search.index import SearchIndex

log = logging.getLogger(__name__)


class ChannelRegistry:
    def __init__(self) -> None:
        self.history: History = MemoryHistory()
        self.search = SearchIndex(self.history, {})
        self.states: dict[str, ChannelState] = {}
        self.on_remove: list[Callable[[str], None]] = []  # called with a channel being deleted

    def attach(self, history: History) -> None:
        self.search.close()
        self.history = history
        self.states = {s.channel.id: ChannelState(s) for s in history.channels()}
        for state in self.states.values():
            dated(state.channel)  # kept before issue 28: the times its id and creation say
        # Opens the index file and starts its catch-up in the background: never waits for it.
        self.search = SearchIndex(
            history, {i: _shown_name(s.channel) for i, s in self.states.items()}
        )

    def detach(self) -> None:
        self.states = {}
        self.search.close()  # first: its catch-up reads the history
        self.history.close()
        self.history = MemoryHistory()
        self.search = SearchIndex(self.history, {})

    def channels(self) -> list[Channel]:
        return [s.channel for s in self.states.values()]

    def get(self, channel_id: str) -> ChannelState:
        state = self.states.get(channel_id)
        if state is None:
            raise no_channel(channel_id)
        return state

    def find(self, channel_id: str) -> ChannelState | None:
        return self.states.get(channel_id)

    def is_current(self, state: ChannelState) -> bool:
        """False once the channel is deleted (its state may still be finishing an answer)."""
        return self.states.get(state.id) is state

    def add(self, state: ChannelState) -> None:
        dated(state.channel)  # one made without its times (a fork…): when its id was made
        self.states[state.id] = state
        self.save(state)

    def remove(self, state: ChannelState) -> None:
        for forget in self.on_remove:  # what is kept of the channel elsewhere (checkpoints)
            try:
                forget(state.id)
            except Exception:
                log.exception("could not forget what channel %s kept", state.id)
        self.states.pop(state.id, None)
        self.history.delete_channel(state.id)
        self.search.delete_channel(state.id)

    def save(self, state: ChannelState) -> None:
        self.history.put_channel(state.stored)
        self.search.set_name(state.id, _shown_name(state.channel))

    def keep(self, message: Message) -> None:
        """Stores a finished message, then indexes it in the same moment (an index write that
        fails loses nothing: the history has the message, the index catches up)."""
        self.history.add_message(message)
        self.search.add(message)

    def add_holding(self, state: ChannelState, messages: list[Message]) -> None:
        """Adds a channel that holds `messages` from the start (a fork, issue 28): they are
        stored first, in one transaction, then its record, then they are indexed — a crash
        in between never leaves a channel with part of them."""
        self.history.add_messages(messages)
        self.add(state)
        self.search.add_all(state.id, messages)


def _shown_name(channel: Channel) -> str:
    """What search results call the conversation: the channel's name, or the agent's."""
    return channel.name or channel.direct
