"""ForkService (issue 28): "Fork from here" on a message, as the page calls it. The fork itself
is app/channels/forking.py's; its members' sessions fork when they first open
(app/channels/forked_sessions.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.channels.parts import ChannelParts
from app.core.expose import exposed
from app.core.loop import LoopThread
from app.models.conversation import Channel

if TYPE_CHECKING:
    from app.channels.fork_worktrees import ForkWorktrees
    from app.channels.forking import Forking

# Copying a long history (one write per message) and its pasted images.
FORK_TIMEOUT = 60.0


class ForkService:
    def __init__(self, parts: ChannelParts, core: LoopThread) -> None:
        self._core, self._parts = core, parts
        # Built with the first fork, on the loop (one thread: no lock needed), so that the
        # idle window does not load the forks' code (issue 29, memory).
        self._forking: Forking | None = None
        self._worktrees: ForkWorktrees | None = None

    @exposed
    def Fork(self, id: str, messageId: str, worktree: bool = False) -> Channel:
        """A new channel (a conversation, when `id` is one) holding the history of `id` up to
        and including the kept message `messageId`, its `forkedFrom` naming them; its members'
        sessions are forked with ACP `session/fork` where the agent offers it and the session
        had seen nothing after that message, else started anew with that history as context.
        With `worktree`, each member whose folder is in Git works in a worktree of its own
        holding the folder as at that message's checkpoint; a line says which members start
        from their folder as it is, and why."""
        return self._core.run(self._fork(id, messageId, worktree), timeout=FORK_TIMEOUT)

    async def _fork(self, id: str, message_id: str, worktree: bool) -> Channel:
        forking, worktrees = self._parts_of_a_fork()
        channel = await forking.fork(id, message_id)
        if worktree:
            await worktrees.start(id, message_id, channel)
        return channel

    def _parts_of_a_fork(self) -> tuple[Forking, ForkWorktrees]:
        if self._forking is None or self._worktrees is None:
            from app.channels.fork_worktrees import ForkWorktrees
            from app.channels.forking import Forking

            parts = self._parts
            self._forking = Forking(
                parts.registry, parts.publisher, parts.attachments, parts.opened.unique_name
            )
            self._worktrees = ForkWorktrees(
                parts.registry,
                parts.publisher,
                parts.worktrees,
                parts.isolation,
                parts.checkpointing,
            )
        return self._forking, self._worktrees
