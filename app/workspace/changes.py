"""The record of what agents wrote (one `FileChange` per write), who last wrote each file, and
reverting: kept in the history with the texts a revert needs, announced as `changes:changed`."""

from __future__ import annotations

import asyncio
import difflib
import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from app.acp.workspace import WorkspaceError
from app.core.errors import UserError
from app.core.ids import new_id
from app.events import names
from app.events.bus import EventBus
from app.events.payloads import ChangesChanged
from app.history.base import History
from app.history.change_records import ChangeTexts
from app.i18n import _
from app.models.changes import FileChange
from app.workspace import files
from app.workspace.files import Version

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

    def __init__(self, bus: EventBus, history: Callable[[], History]) -> None:
        self._bus = bus
        self._history = history
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
        )
        try:
            self._history().add_change(change, ChangeTexts(before, after))
        except Exception:
            log.exception("the change %s of %s to %s could not be kept", change.id, agent, path)
            return change
        self._announce(channel, [change])
        return change

    def changes(self, channel: str) -> list[FileChange]:
        return self._history().changes(channel)

    def revert(self, channel: str, change_ids: list[str]) -> list[FileChange]:
        """Puts the files back as they were before these changes, newest first; refuses them
        all, changing nothing, when a file no longer holds what the change wrote."""
        history = self._history()
        by_id = {c.id: c for c in history.changes(channel)}
        chosen: list[tuple[FileChange, ChangeTexts]] = []
        for change_id in dict.fromkeys(change_ids):
            change = by_id.get(change_id)
            texts = history.change_texts(channel, change_id) if change else None
            if change is None or texts is None:
                raise UserError(_("there is no change {id} in this channel").format(id=change_id))
            if change.reverted:
                raise UserError(
                    _("the change to {path} was already reverted").format(path=change.path)
                )
            chosen.append((change, texts))
        chosen.sort(key=lambda pair: pair[0].id, reverse=True)
        _check_unchanged(chosen)
        done: list[FileChange] = []
        try:
            for change, texts in chosen:
                self._put_back(Path(change.path), texts)
                change.reverted = True
                history.put_change(change)
                done.append(change)
        except WorkspaceError as error:
            # A file that cannot be written back (its folder went, permissions): what was
            # reverted before it stays reverted, and is said so.
            raise UserError(str(error)) from None
        finally:
            if done:
                self._announce(channel, sorted(done, key=lambda c: c.id))
        return sorted(done, key=lambda c: c.id)

    def _put_back(self, path: Path, texts: ChangeTexts) -> None:
        if texts.before is None:
            files.delete(path)
            self._last_writes[path] = LastWrite(REVERTED, None)
        else:
            files.write_atomic(path, texts.before.encode())
            self._last_writes[path] = LastWrite(REVERTED, Version.of(texts.before.encode()))

    def _announce(self, channel: str, changes: list[FileChange]) -> None:
        self._bus.emit(
            names.CHANGES_CHANGED,
            ChangesChanged(channel=channel, changes=[c.model_copy() for c in changes]),
        )


def _check_unchanged(chosen: list[tuple[FileChange, ChangeTexts]]) -> None:
    """Each file must hold what the newest chosen change to it wrote; reverting that one
    leaves what the next one wrote, and so on (newest first)."""
    expected: dict[str, str | None] = {}
    for change, texts in chosen:
        if change.path not in expected:
            try:
                data = files.current_bytes(Path(change.path))
            except WorkspaceError as error:
                raise UserError(str(error)) from None
            expected[change.path] = data.decode("utf-8", "replace") if data is not None else None
        if expected[change.path] != texts.after:
            raise UserError(
                _("{path} changed since {agent} wrote it: nothing was reverted").format(
                    path=change.path, agent=change.agent
                )
            )
        expected[change.path] = texts.before


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
