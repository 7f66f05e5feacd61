"""The conversations' side of isolated worktrees (issue 28): `IsolationHost` for
WorktreeService, and where an isolated member's session works (its worktree, made at the
session's opening when the configuration's `isolation: worktree` asks for one)."""

from __future__ import annotations

from pathlib import Path

from app.agents.supervisor import Supervisor
from app.channels.registry import ChannelRegistry
from app.channels.sessions import Sessions
from app.core.errors import UserError
from app.i18n import _
from app.paths import resolve_cwd
from app.workspace.worktrees.isolation import Isolation


class ChannelIsolation:
    def __init__(
        self,
        registry: ChannelRegistry,
        supervisor: Supervisor,
        sessions: Sessions,
        isolation: Isolation,
    ) -> None:
        self._registry, self._supervisor = registry, supervisor
        self._sessions, self._isolation = sessions, isolation

    def members(self, channel: str) -> list[str]:
        return list(self._registry.get(channel).channel.members)

    def folder(self, agent: str) -> Path | None:
        if agent not in self._supervisor.names():
            return None
        definition = self._supervisor.runtime(agent).definition
        if not definition.cwd:
            return None
        return resolve_cwd(definition.cwd, self._supervisor.config_dir)

    def configured(self, agent: str) -> bool:
        if agent not in self._supervisor.names():
            return False
        return self._supervisor.runtime(agent).definition.isolation == "worktree"

    async def restart(self, channel: str, agent: str) -> None:
        state = self._registry.get(channel)
        if state.answering_agent(agent) is not None:
            raise UserError(
                _("Stop @{agent}'s answer first: its folder changes between answers").format(
                    agent=agent
                )
            )
        async with self._sessions.lock(channel, agent):
            await self._sessions.forget(state, agent)

    def cwd(self, channel: str, agent: str) -> Path | None:
        """The member's folder in its worktree, while it is isolated (None: its own folder)."""
        return self._isolation.cwd(channel, agent, self.configured(agent))

    async def prepare(self, channel: str, agent: str) -> None:
        """Before the member's session opens: its worktree, made if it is isolated and has
        none yet. A folder that cannot be isolated fails the opening with the sentence why
        (the person asked for a worktree: the agent does not work in the folder instead)."""
        if not self._isolation.isolated(channel, agent, self.configured(agent)):
            return
        folder = self.folder(agent)
        if folder is None:
            raise UserError(
                _("@{agent} has no folder of its own (no `cwd`): it cannot be isolated").format(
                    agent=agent
                )
            )
        await self._isolation.ensure(channel, agent, folder)
