"""What is watched of one answer in progress (checkpointing.py): its folders' snapshots so
far, the paths its tool calls named, its commands running, and the answers it overlapped."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from datetime import UTC, datetime

from app.checkpoints.model import Snapshot


@dataclass(eq=False)
class FolderWatch:
    root: str  # the folder's real path
    snapshots: list[Snapshot]
    command_segments: set[int] = field(default_factory=set)  # i: between snapshots i and i+1


@dataclass(eq=False)
class AnswerWatch:
    channel: str
    message_id: str
    agent: str
    started_at: str
    folders: dict[str, FolderWatch]
    named: set[str] = field(default_factory=set)  # paths its tool calls named
    known: set[str] = field(default_factory=set)  # paths it changed by a known route (at end)
    overlaps: set[AnswerWatch] = field(default_factory=set)
    ended: bool = False
    # Its changes recorded (after `ended`): an answer still recording reads its overlaps, so
    # another answer leaves them only once both are recorded.
    recorded: bool = False
    running: set[str] = field(default_factory=set)  # its commands running
    segment_had_command: bool = False
    last_step: asyncio.Future[None] | None = None

    def knows(self, path: str) -> bool:
        return path in self.known or path in self.named


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
