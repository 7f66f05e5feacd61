"""What agents changed on disk (issues 15 and 25): one record per file per answer, whatever the
route, and what the checkpoints of the agents' folders offer."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from app.models.wire import WireModel

# How the change was made: the agent's `fs/write_text_file` through Sidekicks, the agent's own
# writes (its own tools), a command (a terminal of Sidekicks' or the agent's own shell), or the
# person's Restore (issue 25).
ChangeRoute = Literal["fs", "agent", "command", "restore"]
ChangeStatus = Literal["added", "modified", "deleted", "renamed"]


class FileChange(WireModel):
    """One file an agent changed in one answer, reviewable and revertible.

    `diff` is the unified diff from the text before to the text after (cut, with a note, past
    its size limit; "" for a binary file); `newFile` when the file did not exist before (`status`
    "added"). `reverted` once the person reverted it. `conflictWith` names who changed the file
    on disk since this agent last read or wrote it ("" when nobody did): another agent's name,
    or "you" for an outside change. `path` is the file really written, every link resolved;
    `throughLink` is the path the agent gave when a symbolic link led from it to `path` ("").
    `route` says how it was made; `during` names the other agents whose answers ran on the same
    folder at the same time when nothing tells which of them made it ("changed during both
    answers"). `checkpoint`: the answer whose folder checkpoints hold the change ("" for a
    write outside them, kept by its texts). `revertible` is false once the checkpoint that
    holds its contents was cleared."""

    id: str
    channel: str
    message_id: str
    agent: str
    path: str
    new_file: bool = False
    reverted: bool = False
    created_at: str
    diff: str = ""
    additions: int = 0
    deletions: int = 0
    conflict_with: str = ""
    through_link: str = ""
    route: ChangeRoute = "fs"
    status: ChangeStatus = "modified"
    old_path: str = ""  # a renamed file's path before
    binary: bool = False
    during: list[str] = Field(default_factory=list)
    folder: str = ""  # the agent's folder that holds it ("" outside its folders)
    checkpoint: str = ""
    revertible: bool = True

    @model_validator(mode="after")
    def _added_when_new(self) -> FileChange:
        """Records kept before `status` existed say only `newFile`."""
        if self.new_file and self.status == "modified":
            self.status = "added"
        return self


class RestoreFile(WireModel):
    """What Restore will do to one file (CheckpointService.RestorePreview): `status` is the
    change it makes — "added" recreates a file, "deleted" removes one. `skipped` says why a
    file is left as it is ("" when it is restored): a symbolic link is never recreated."""

    path: str
    folder: str
    status: ChangeStatus
    old_path: str = ""
    binary: bool = False
    additions: int = 0
    deletions: int = 0
    skipped: str = ""


class SkippedFile(WireModel):
    """A file an answer's checkpoints left out: `reason` "too large" (over
    `checkpoints.maxFileBytes`), "nested repository" (a folder with its own .git, whole) or
    "unreadable". Its changes are not seen, reverted nor restored."""

    path: str
    size: int
    reason: str


class AnswerCheckpoint(WireModel):
    """An answer whose agent's folders were checkpointed when it started and ended."""

    message_id: str
    agent: str
    folders: list[str]
    started_at: str
    ended_at: str = ""  # "" while the answer runs
    restorable: bool = True  # false once its checkpoints were cleared, or while it runs
    skipped: list[SkippedFile] = Field(default_factory=list)  # left out of its checkpoints


class CheckpointStoreInfo(WireModel):
    """The checkpoint store in the data folder (Settings)."""

    size_bytes: int
    snapshots: int
    oldest_at: str = ""  # "" when it holds none
    folder: str
