"""CheckpointService (extension, issue 25): the checkpoints of the agents' folders taken around
each answer — which answers have one, what restoring to before one would change, the restore
itself, and the store's size in Settings with clearing old checkpoints. The snapshots are
checkpointing.py's, the restore restoring.py's."""

from __future__ import annotations

from collections.abc import Callable

from app.core.expose import exposed
from app.core.ids import new_id
from app.core.loop import LoopThread
from app.models.changes import AnswerCheckpoint, CheckpointStoreInfo, FileChange, RestoreFile
from app.workspace.restoring import Restoring

# The channel's run-time state by its id; raises the person's error for an unknown channel.
OpenChannel = Callable[[str], object]
# Tells the channel a restore was made: (channel, message id, the answer restored to).
RestoreNotice = Callable[[str, str, str], None]


class CheckpointService:
    def __init__(
        self,
        restoring: Restoring,
        open_channel: OpenChannel,
        channel_ids: Callable[[], list[str]],
        notice: RestoreNotice,
        core: LoopThread,
    ) -> None:
        self._restoring = restoring
        self._open_channel = open_channel
        self._channel_ids = channel_ids
        self._notice = notice
        self._core = core

    @exposed
    def Checkpoints(self, id: str) -> list[AnswerCheckpoint]:
        """Extension: the channel's answers that were checkpointed, oldest first."""
        return self._core.call(lambda: self._restoring.answers(self._known(id)))

    @exposed
    def RestorePreview(self, id: str, messageId: str) -> list[RestoreFile]:
        """Extension: what restoring the agents' folders to before this answer would change."""
        return self._core.run(self._preview(id, messageId))

    @exposed
    def Restore(self, id: str, messageId: str) -> list[FileChange]:
        """Extension: puts the agents' folders back as they were before this answer (every
        later answer undone). The present is checkpointed first: the restore's records, under
        the notice it posts, revert it. Refused while an agent answers in those folders."""
        return self._core.run(self._restore(id, messageId))

    @exposed
    def StoreInfo(self) -> CheckpointStoreInfo:
        """Extension: the checkpoint store's size and what it holds."""
        return self._core.call(self._restoring.info)

    @exposed
    def ClearCheckpoints(self, olderThanDays: int) -> CheckpointStoreInfo:
        """Extension: drops the checkpoints taken more than `olderThanDays` days ago (0: all
        but those of answers in progress); their changes can no longer be reverted."""
        return self._core.call(
            lambda: self._restoring.clear_older_than(olderThanDays, self._channel_ids())
        )

    async def _preview(self, channel_id: str, message_id: str) -> list[RestoreFile]:
        return await self._restoring.preview(self._known(channel_id), message_id)

    async def _restore(self, channel_id: str, message_id: str) -> list[FileChange]:
        notice_id = new_id()
        done = await self._restoring.restore(self._known(channel_id), message_id, notice_id)
        self._notice(channel_id, notice_id, message_id)
        return done

    def _known(self, channel_id: str) -> str:
        self._open_channel(channel_id)
        return channel_id
