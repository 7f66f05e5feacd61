"""ChangesService (extension): the files agents changed in a conversation, and putting them
back (a file, a hunk, an answer), as the page calls it; the records and the revert are
changes.py's (the checkpoints' service is checkpoint_service.py). The workspace sits below the
channels, so it is given what tells an open channel from an unknown one (their registry)."""

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

    @exposed
    def RevertHunk(self, id: str, changeId: str, hunk: int) -> FileChange:
        """Extension: puts back one hunk of a text change (the `hunk`-th "@@" of its diff, from
        0); the record then holds what is left of the change. Refused when the file changed
        since."""
        return self._core.run(self._revert_hunk(id, changeId, hunk))

    async def _revert_hunk(self, channel_id: str, change_id: str, hunk: int) -> FileChange:
        return await self._changes.revert_hunk(self._known(channel_id), change_id, hunk)

    async def _revert(self, channel_id: str, change_ids: list[str]) -> list[FileChange]:
        return await self._changes.revert(self._known(channel_id), change_ids)

    def _known(self, channel_id: str) -> str:
        self._open_channel(channel_id)  # on the loop, which owns the channels
        return channel_id
