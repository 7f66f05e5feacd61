"""Channels and who is in them: create, rename, direct conversations, members joining and
leaving. Argument types are checked once, by the service; this checks values."""

from __future__ import annotations

from collections.abc import Sequence

from app.agents.supervisor import Supervisor
from app.channels.conversations import Conversations
from app.channels.publishing import Publisher, now_iso
from app.channels.registry import ChannelRegistry
from app.channels.state import ChannelState
from app.core.errors import UserError
from app.core.ids import new_id
from app.history.base import StoredChannel
from app.i18n import _
from app.models.conversation import Channel

CHANNEL_NAME_MAX = 64
CHANNEL_DESCRIPTION_MAX = 64


class Membership:
    def __init__(
        self,
        registry: ChannelRegistry,
        publisher: Publisher,
        supervisor: Supervisor,
    ) -> None:
        self._registry = registry
        self._publisher = publisher
        self._supervisor = supervisor
        self.conversations = Conversations(registry, publisher)  # an agent's several (issue 28)

    def agent(self, name: str) -> str:
        """`name` if it is an agent of the configuration in force; a UserError otherwise."""
        self._supervisor.runtime(name)
        return name

    def create(self, name: str, description: str = "", members: Sequence[str] = ()) -> Channel:
        """A new channel with `members` invited (all checked first: an unknown agent creates
        nothing)."""
        name, description = self._check(name, description)
        invited: list[str] = []
        for agent in members:
            known = self.agent(agent)
            if known not in invited:
                invited.append(known)
        now = now_iso()
        channel = Channel(
            id=new_id(), name=name, description=description, created_at=now, last_activity=now
        )
        state = ChannelState(StoredChannel(channel=channel))
        self._registry.add(state)
        for agent in invited:
            self.join(state, agent)
        self._publisher.channels()
        return channel

    def rename(self, channel_id: str, name: str, description: str = "") -> Channel:
        state = self._registry.get(channel_id)
        if state.channel.direct:  # its title, not a channel name (issue 28)
            return self.conversations.rename(state, name, description)
        state.channel.name, state.channel.description = self._check(
            name, description, skip=state.id
        )
        self._registry.save(state)
        self._publisher.channels()
        return state.channel

    def direct(self, agent: str) -> Channel:
        """The agent's oldest direct conversation (the states are in creation order), created
        when it has none."""
        name = self.agent(agent)
        for state in self._registry.states.values():
            if state.channel.direct == name:
                return state.channel
        return self.conversations.new(name)

    def add_member(self, channel_id: str, agent: str) -> Channel:
        state = self._registry.get(channel_id)
        name = self.agent(agent)
        if state.channel.direct:
            raise UserError(_("a direct conversation has a single member"))
        if name in state.channel.members:
            raise UserError(_("{agent} is already a member").format(agent=name))
        self.join(state, name)
        return state.channel

    def check_leaving(self, channel_id: str, agent: str) -> ChannelState:
        state = self._registry.get(channel_id)
        if state.channel.direct:
            raise UserError(_("a direct conversation has a single member"))
        if agent not in state.channel.members:
            raise UserError(_("{agent} is not a member of this channel").format(agent=agent))
        return state

    def join(self, state: ChannelState, agent: str) -> None:
        state.channel.members.append(agent)
        self._publisher.system(state, "agent-joined", agent)
        self._registry.save(state)
        self._publisher.channels()

    def leave(self, state: ChannelState, agent: str) -> None:
        """Removes a member whose answer, if any, was cancelled."""
        state.channel.members.remove(agent)
        state.stored.sessions.pop(agent, None)
        state.sessions.pop(agent, None)
        if state.stored.last_responder == agent:
            state.stored.last_responder = ""
        self._publisher.system(state, "agent-left", agent)
        self._registry.save(state)
        self._publisher.channels()

    def _check(self, name: str, description: str, skip: str = "") -> tuple[str, str]:
        name, description = name.strip(), description.strip()
        if not name:
            raise UserError(_("a channel needs a name"))
        if len(name) > CHANNEL_NAME_MAX:
            raise UserError(
                _("a channel name has at most {n} characters").format(n=CHANNEL_NAME_MAX)
            )
        if len(description) > CHANNEL_DESCRIPTION_MAX:
            raise UserError(
                _("a description has at most {n} characters").format(n=CHANNEL_DESCRIPTION_MAX)
            )
        for state in self._registry.states.values():
            other = state.channel
            if state.id != skip and not other.direct and other.name.lower() == name.lower():
                raise UserError(_("a channel named {name} already exists").format(name=name))
        return name, description
