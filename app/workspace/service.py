"""ChangesService (extension): the files agents changed in a conversation, and putting them
back, as the page calls it; the records and the revert are changes.py's. (Checkpoints will join
it.) The workspace sits below the channels, so it is given what tells an open channel from an
unknown one (the channels' registry)."""

from __future__ import annotations

from collections.abc import Callable

from app.core.expose import exposed
from app.core.loop import LoopThread
from app.models.changes import FileChange
from app.workspace.changes import ChangeLog

# The channel's run-time state by its id; raises the person's error for an unknown channel.
OpenChannel = Callable[[str], object]


class ChangesService:
    def __init__(self, changes: ChangeLog, open_channel: OpenChannel, core: LoopThread) -> None:
        self._changes = changes
        self._open_channel = open_channel
        self._core = core

    @exposed
    def Changes(self, id: str) -> list[FileChange]:
        """Extension: the files agents changed in this channel, oldest first."""
        return self._core.call(lambda: self._changes.changes(self._known(id)))

    @exposed
    def Revert(self, id: str, changeIds: list[str]) -> list[FileChange]:
        """Extension: puts the files of these changes back as they were before, newest change
        first; refused, with what changed, when a file changed since. The updated records."""
        return self._core.run(self._revert(id, changeIds))

    async def _revert(self, channel_id: str, change_ids: list[str]) -> list[FileChange]:
        return await self._changes.revert(self._known(channel_id), change_ids)

    def _known(self, channel_id: str) -> str:
        self._open_channel(channel_id)  # on the loop, which owns the channels
        return channel_id
