"""The channels of the open history: each one's run-time state, its record and its messages."""

from __future__ import annotations

from app.channels.reading import no_channel
from app.channels.state import ChannelState
from app.history.base import History
from app.history.memory import MemoryHistory
from app.models.conversation import Channel, Message


class ChannelRegistry:
    def __init__(self) -> None:
        self.history: History = MemoryHistory()
        self.states: dict[str, ChannelState] = {}

    def attach(self, history: History) -> None:
        self.history = history
        self.states = {s.channel.id: ChannelState(s) for s in history.channels()}

    def detach(self) -> None:
        self.states = {}
        self.history.close()
        self.history = MemoryHistory()

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
        self.states[state.id] = state
        self.save(state)

    def remove(self, state: ChannelState) -> None:
        self.states.pop(state.id, None)
        self.history.delete_channel(state.id)

    def save(self, state: ChannelState) -> None:
        self.history.put_channel(state.stored)

    def keep(self, message: Message) -> None:
        self.history.add_message(message)
