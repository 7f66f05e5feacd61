"""The record of what agents wrote (one `FileChange` per write) and who last wrote each file:
kept in the history with the texts a revert needs (reverting.py), announced as
`changes:changed`."""

from __future__ import annotations

import asyncio
import difflib
import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from app.core.ids import new_id
from app.events import names
from app.events.bus import EventBus
from app.events.payloads import ChangesChanged
from app.history.base import History
from app.history.change_records import ChangeTexts
from app.i18n import _
from app.models.changes import FileChange
from app.workspace.app_files import AppFiles
from app.workspace.files import Version
from app.workspace.reverting import Revert, recover_revert

log = logging.getLogger(__name__)

# A diff is for reading: past this size the record keeps its beginning and says it was cut
# (a revert uses the full texts, kept apart).
DIFF_LIMIT = 200 * 1024
PERSON = "you"  # `conflictWith` for a change made outside Sidekicks, or by a revert
REVERTED = ""  # LastWrite.agent after the person reverted a change in Sidekicks


def unified_diff(path: str, before: str | None, after: str) -> tuple[str, int, int]:
    """The unified diff from `before` (None: a new file) to `after`, cut past DIFF_LIMIT
    characters with a note; and the lines added and deleted (counted over the whole diff)."""
    lines = difflib.unified_diff(
        (before or "").splitlines(keepends=True),
        after.splitlines(keepends=True),
        fromfile="/dev/null" if before is None else f"a{path}",
        tofile=f"b{path}",
    )
    kept: list[str] = []
    size, additions, deletions, cut = 0, 0, 0, False
    for line in lines:
        if line.startswith("+") and not line.startswith("+++"):
            additions += 1
        elif line.startswith("-") and not line.startswith("---"):
            deletions += 1
        if not line.endswith("\n"):
            line += "\n\\ No newline at end of file\n"
        if size + len(line) > DIFF_LIMIT:
            cut = True
            continue
        kept.append(line)
        size += len(line)
    text = "".join(kept)
    if cut:
        text += (
            _("[diff cut at {size} KB: the change is larger]").format(size=DIFF_LIMIT // 1024)
            + "\n"
        )
    return text, additions, deletions


@dataclass(frozen=True, slots=True)
class LastWrite:
    agent: str  # REVERTED for a revert
    version: Version | None  # None: the revert deleted the file


class ChangeLog:
    """App-wide: every channel's agents write through it (who wrote a file last is shared)."""

    def __init__(
        self, bus: EventBus, history: Callable[[], History], app_files: Callable[[], AppFiles]
    ) -> None:
        self._bus = bus
        self._history = history
        self.app_files = app_files
        self._last_writes: dict[Path, LastWrite] = {}  # by resolved path, this run only
        self._locks: dict[Path, asyncio.Lock] = {}

    def writing(self, path: Path) -> asyncio.Lock:
        """Held while a file is read, written and recorded (one write at a time per file)."""
        return self._locks.setdefault(path, asyncio.Lock())

    def who_changed(self, path: Path, now: Version | None) -> str:
        """Whose write the file holds now: an agent's name, REVERTED, or PERSON when none of
        ours."""
        last = self._last_writes.get(path)
        if last is not None and last.version == now:
            return last.agent
        return PERSON

    async def record(
        self,
        *,
        channel: str,
        message_id: str,
        agent: str,
        path: Path,
        before: str | None,
        after: str,
        conflict_with: str = "",
        through_link: str = "",
    ) -> FileChange:
        """Keeps the change of a write that was made, then tells the page. A change that
        cannot be kept (the history failed) is logged: the write was made all the same."""
        self._last_writes[path] = LastWrite(agent, Version.of(after.encode()))
        diff, additions, deletions = await asyncio.to_thread(unified_diff, str(path), before, after)
        change = FileChange(
            id=new_id(),
            channel=channel,
            message_id=message_id,
            agent=agent,
            path=str(path),
            new_file=before is None,
            created_at=_now(),
            diff=diff,
            additions=additions,
            deletions=deletions,
            conflict_with=conflict_with,
            through_link=through_link,
        )
        try:
            self._history().add_change(change, ChangeTexts(before, after))
        except Exception:
            log.exception("the change %s of %s to %s could not be kept", change.id, agent, path)
            return change
        self.announce(channel, [change])
        return change

    def changes(self, channel: str) -> list[FileChange]:
        return self._history().changes(channel)

    async def revert(self, channel: str, change_ids: list[str]) -> list[FileChange]:
        """Puts the files back as they were before these changes, newest first (reverting.py);
        refuses them all, changing nothing, when a file no longer holds what the change wrote
        or now leads elsewhere. Agents' writes to those files wait until it is done."""
        return await Revert(self, channel, change_ids).run()

    def recover(self) -> list[FileChange]:
        """Finishes the revert a killed app left half done (at the history's opening)."""
        return recover_revert(self)

    def reverted(self, path: Path, before: str | None) -> None:
        """A revert put `before` back in `path` (None: removed it)."""
        version = None if before is None else Version.of(before.encode())
        self._last_writes[path] = LastWrite(REVERTED, version)

    @property
    def history(self) -> History:
        return self._history()

    def announce(self, channel: str, changes: list[FileChange]) -> None:
        self._bus.emit(
            names.CHANGES_CHANGED,
            ChangesChanged(channel=channel, changes=[c.model_copy() for c in changes]),
        )


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
