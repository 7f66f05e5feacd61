"""A fork into worktrees (issue 28, ForkService.Fork with `worktree`): each member of the fork
whose folder is in a Git repository is isolated there (WorktreeService's machinery), its
worktree holding the folder as it was at the forked message's checkpoint
(app/workspace/worktrees/fork_start.py).

A member that cannot start so (no folder of its own, a folder outside Git, no checkpoint of its
folder at that message, a worktree that could not be made) works in its folder as it is now,
and the fork says so in a line per member, with the reason. Only the fork's worktrees are
written; the person's folder never is.

The snapshot is looked for under the member's folder in the source as it was then: its
worktree there when it was isolated in the source (its checkpoints are of that folder), else
its own folder.
"""

from __future__ import annotations

import asyncio
import logging
import os

from app.channels.isolation import ChannelIsolation
from app.channels.publishing import Publisher, new_message
from app.channels.registry import ChannelRegistry
from app.core.errors import UserError
from app.i18n import _
from app.models.conversation import Channel
from app.workspace.checkpointing import Checkpointing
from app.workspace.worktrees import fork_start, git
from app.workspace.worktrees.isolation import Isolation

log = logging.getLogger(__name__)


class ForkWorktrees:
    def __init__(
        self,
        registry: ChannelRegistry,
        publisher: Publisher,
        host: ChannelIsolation,
        isolation: Isolation,
        checkpointing: Checkpointing,
    ) -> None:
        self._registry, self._publisher = registry, publisher
        self._host, self._isolation = host, isolation
        self._checkpointing = checkpointing

    async def start(self, source: str, message_id: str, fork: Channel) -> None:
        """Isolates the fork's members at the message's checkpoint; a line for each that
        starts from its folder as it is."""
        records = await asyncio.to_thread(self._registry.history.checkpoint_records, source)
        for agent in fork.members:
            try:
                await self._isolate(source, message_id, fork.id, agent, records)
            except UserError as reason:
                self._say(fork.id, agent, str(reason))
            except Exception as error:  # the fork is made all the same
                log.exception("could not isolate %s in the fork %s", agent, fork.id)
                self._say(fork.id, agent, str(error) or type(error).__name__)

    async def _isolate(
        self, source: str, message_id: str, fork: str, agent: str, records: list[tuple[str, bytes]]
    ) -> None:
        folder = self._host.folder(agent)
        if folder is None:
            raise UserError(_("it has no folder of its own (no `cwd`)"))
        await asyncio.to_thread(git.folder_repo, folder)  # a sentence when it is not in Git
        store = self._checkpointing.store
        found = None
        if store is not None:
            for root in self._roots(source, agent, folder):
                snapshot = fork_start.snapshot_at(records, message_id, root)
                if snapshot is not None and store.existing(root, [snapshot[0]]):
                    found = store, root, snapshot[1]
                    break
        if found is None:
            raise UserError(_("no checkpoint of {folder} at this message").format(folder=folder))
        path = await self._isolation.ensure(fork, agent, folder)
        self._isolation.choose(fork, agent, True)
        record = self._isolation.record(fork, agent)
        worktree = self._isolation.path(fork, agent)
        try:
            await asyncio.to_thread(fork_start.seed, *found, worktree, record.inside, record.base)
        except Exception as error:
            log.exception("could not give the fork's worktree of %s its checkpoint", agent)
            await self._isolation.remove(fork, agent)
            raise UserError(
                _("its worktree could not be given the files of this message: {error}").format(
                    error=error
                )
            ) from None
        log.info("%s starts in %s as at message %s", agent, path, message_id)

    def _roots(self, source: str, agent: str, folder: os.PathLike[str]) -> list[str]:
        isolated = self._host.cwd(source, agent)  # its record outlives the source
        roots = [os.path.realpath(isolated)] if isolated is not None else []
        return [*roots, os.path.realpath(folder)]

    def _say(self, fork: str, agent: str, reason: str) -> None:
        message = new_message(
            fork,
            "system",
            agent=agent,
            error=_("@{agent} starts from its folder as it is now: {reason}").format(
                agent=agent, reason=reason
            ),
        )
        self._registry.keep(message)
        self._publisher.message(message)
