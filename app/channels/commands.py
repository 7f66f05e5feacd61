"""The slash commands each agent announced, kept from one launch to the next (history)."""

from __future__ import annotations

from app.acp.updates import CommandsChanged
from app.channels.registry import ChannelRegistry
from app.events import names
from app.events.bus import EventBus
from app.events.payloads import CommandsChanged as CommandsChangedEvent
from app.models.conversation import Command


class CommandCatalog:
    def __init__(self, bus: EventBus, registry: ChannelRegistry) -> None:
        self._bus = bus
        self._registry = registry
        self._known: dict[str, list[Command]] = {}

    def clear(self) -> None:
        self._known = {}

    def announce(self, agent: str, announced: CommandsChanged) -> None:
        commands = [
            Command(name=c.name, description=c.description, hint=c.hint) for c in announced.commands
        ]
        self._known[agent] = commands
        history = self._registry.history
        if history.commands(agent) != commands:
            history.put_commands(agent, commands)
        self._bus.emit(names.COMMANDS_CHANGED, CommandsChangedEvent(agent=agent, commands=commands))

    def of(self, agent: str) -> list[Command]:
        if agent not in self._known:
            self._known[agent] = self._registry.history.commands(agent)
        return self._known[agent]
