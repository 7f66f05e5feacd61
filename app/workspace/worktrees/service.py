"""WorktreeService (issue 28): a channel member in a Git worktree of its own folder, its
changes, Merge into the folder (conflicts per file and hunk) and Discard, as the page calls them.
The workspace sits below the channels: the channel side is given (`IsolationHost`,
app/channels/isolation.py)."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from app.acp.workspace import WorkspaceError
from app.core.errors import UserError
from app.core.expose import exposed
from app.core.lazy import LazyModule
from app.core.loop import LoopThread
from app.i18n import _
from app.models.worktrees import MemberWorktree, MergeOutcome
from app.workspace.worktrees import git
from app.workspace.worktrees.isolation import Isolation

if TYPE_CHECKING:
    from app.workspace.worktrees import merging
else:
    # The merge (and its three-way merge) loads with the first worktree shown or merged, not
    # with the window (issue 29, memory).
    merging = LazyModule("app.workspace.worktrees.merging")

T = TypeVar("T")


class IsolationHost(Protocol):
    """What the worktrees need from the conversations (app/channels/isolation.py)."""

    def members(self, channel: str) -> list[str]:
        """The channel's members; UserError for an unknown channel."""
        ...

    def folder(self, agent: str) -> Path | None:
        """The agent's folder (its `cwd`), None when it has none of its own."""
        ...

    def configured(self, agent: str) -> bool:
        """Whether the configuration asks for a worktree (`isolation: worktree`)."""
        ...

    async def restart(self, channel: str, agent: str) -> None:
        """Forgets the member's session (the next prompt opens one in its new folder);
        UserError while it answers."""
        ...


class WorktreeService:
    def __init__(self, isolation: Isolation, host: IsolationHost, core: LoopThread) -> None:
        self._isolation, self._host, self._core = isolation, host, core

    @exposed
    def Worktrees(self, id: str) -> list[MemberWorktree]:
        """Extension: each member's isolation and worktree, with the worktree's changes."""
        return self._run(self._all(id))

    @exposed
    def SetIsolation(self, id: str, agent: str, on: bool) -> MemberWorktree:
        """Extension: the member works in a worktree of its folder (made now from the folder's
        current commit) or in the folder; its session starts afresh there. Refused for a folder
        that is not a Git repository."""
        return self._run(self._set(id, agent, on))

    @exposed
    def MergeWorktree(self, id: str, agent: str) -> MergeOutcome:
        """Extension: merges the worktree's changes into the folder (three ways); the files
        with a conflict are listed per hunk, not written."""
        return self._run(self._merge(id, agent))

    @exposed
    def ResolveConflict(
        self, id: str, agent: str, path: str, version: str, choices: list[str]
    ) -> MergeOutcome:
        """Extension: writes a conflicting file with a choice per hunk ("theirs": the
        worktree's, "ours": the folder's, "both"); refused when the folder's file changed since
        it was listed (`version`)."""
        return self._run(self._resolve(id, agent, path, version, choices))

    @exposed
    def DiscardWorktree(self, id: str, agent: str) -> MemberWorktree:
        """Extension: removes the member's worktree and branch; it works in its folder again
        (unless the configuration asks for a worktree: a fresh one at its next answer)."""
        return self._run(self._discard(id, agent))

    # ---- on the loop -----------------------------------------------------------------------

    def _run(self, work: Coroutine[Any, Any, T]) -> T:
        return self._core.run(_user_errors(work))

    async def _all(self, channel: str) -> list[MemberWorktree]:
        return [await self._view(channel, agent) for agent in self._host.members(channel)]

    async def _set(self, channel: str, agent: str, on: bool) -> MemberWorktree:
        self._member(channel, agent)
        configured = self._host.configured(agent)
        chosen = self._isolation.record(channel, agent).isolated  # None: as configured
        if on != self._isolation.isolated(channel, agent, configured):
            folder = self._folder(agent) if on else None
            if folder is not None:  # refused before the session is touched
                await asyncio.to_thread(git.folder_repo, folder)
                await self._isolation.ensure(channel, agent, folder)
            # Chosen before the session is dropped: a session opening meanwhile (the page's
            # Prepare, a message) holds the member's session lock, so the restart waits for it
            # and drops it, and any opening after this line opens where the choice says. The
            # other way round, one opening between the two stayed in the old folder.
            self._isolation.choose(channel, agent, on)
            try:
                await self._host.restart(channel, agent)
            except BaseException:
                self._isolation.choose(channel, agent, chosen)
                raise
        else:
            self._isolation.choose(channel, agent, on)
        return await self._view(channel, agent)

    async def _merge(self, channel: str, agent: str) -> MergeOutcome:
        path, base, root = self._existing(channel, agent)
        return await asyncio.to_thread(merging.merge, agent, path, base, root)

    async def _resolve(
        self, channel: str, agent: str, path: str, version: str, choices: list[str]
    ) -> MergeOutcome:
        worktree, base, root = self._existing(channel, agent)
        await asyncio.to_thread(merging.resolve, worktree, base, root, path, version, choices)
        return MergeOutcome(agent=agent, merged=[path])

    async def _discard(self, channel: str, agent: str) -> MemberWorktree:
        self._member(channel, agent)
        if self._isolation.isolated(channel, agent, self._host.configured(agent)):
            await self._host.restart(channel, agent)
        await self._isolation.remove(channel, agent)
        return await self._view(channel, agent)

    async def _view(self, channel: str, agent: str) -> MemberWorktree:
        configured = self._host.configured(agent)
        folder = self._host.folder(agent)
        view = MemberWorktree(
            agent=agent,
            isolated=self._isolation.isolated(channel, agent, configured),
            configured=configured,
            folder=str(folder) if folder is not None else "",
            branch=git.branch_name(channel, agent),
        )
        try:
            await asyncio.to_thread(git.folder_repo, self._folder(agent))
        except UserError as refusal:
            view.available, view.reason = False, str(refusal)
        if self._isolation.exists(channel, agent):
            record = self._isolation.record(channel, agent)
            view.exists, view.base = True, record.base
            view.path = str(self._isolation.path(channel, agent))
            view.files = await asyncio.to_thread(
                merging.listing, Path(view.path), record.base, Path(record.root)
            )
        return view

    def _member(self, channel: str, agent: str) -> None:
        if agent not in self._host.members(channel):
            raise UserError(_("@{agent} is not a member of this channel").format(agent=agent))

    def _folder(self, agent: str) -> Path:
        folder = self._host.folder(agent)
        if folder is None:
            raise UserError(
                _("@{agent} has no folder of its own (no `cwd`): it cannot be isolated").format(
                    agent=agent
                )
            )
        return folder

    def _existing(self, channel: str, agent: str) -> tuple[Path, str, Path]:
        self._member(channel, agent)
        if not self._isolation.exists(channel, agent):
            raise UserError(_("@{agent} has no worktree in this channel").format(agent=agent))
        record = self._isolation.record(channel, agent)
        return self._isolation.path(channel, agent), record.base, Path(record.root)


async def _user_errors(work: Coroutine[Any, Any, T]) -> T:
    """The workspace's refusals (a link, a file gone) as the person's sentences."""
    try:
        return await work
    except WorkspaceError as error:
        raise UserError(str(error)) from None
