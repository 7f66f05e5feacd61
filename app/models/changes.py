"""What agents changed on disk through Sidekicks (issue 15): one record per file write."""

from __future__ import annotations

from app.models.wire import WireModel


class FileChange(WireModel):
    """One `fs/write_text_file` an agent made, reviewable and revertible.

    `diff` is the unified diff from the text before to the text written (cut, with a note, past
    its size limit); `newFile` when the file did not exist before. `reverted` once the person
    reverted it. `conflictWith` names who changed the file on disk since this agent last read
    or wrote it ("" when nobody did): another agent's name, or "you" for an outside change.
    `path` is the file really written, every link resolved; `throughLink` is the path the agent
    gave when a symbolic link led from it to `path` ("" otherwise)."""

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
