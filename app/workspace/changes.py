"""The record of what agents changed (one `FileChange` per `fs/write_text_file` as it is made,
merged into one per file per answer when the answer ends: checkpointing.py) and who last wrote
each file (kept in the history: it survives a restart); the records are kept with what a revert
needs (reverting.py) and announced as `changes:changed`."""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from app.core.errors import UserError
from app.core.ids import new_id
from app.events import names
from app.events.bus import EventBus
from app.events.payloads import ChangesChanged
from app.history.base import History
from app.history.change_records import BlobRef, ChangeTexts
from app.i18n import _
from app.models.changes import FileChange
from app.workspace.app_files import AppFiles
from app.workspace.files import Version
from app.workspace.hunks import hunk_reverted
from app.workspace.reverting import (
    ContentGone,
    FileEdits,
    Step,
    content,
    recover_revert,
    steps_back,
)

log = logging.getLogger(__name__)

# A diff is for reading: past this size the record keeps its beginning and says it was cut
# (a revert uses the full texts, kept apart).
DIFF_LIMIT = 200 * 1024
PERSON = "you"  # `conflictWith` for a change made outside Sidekicks, or by a revert
REVERTED = ""  # LastWrite.agent after the person reverted a change in Sidekicks
LAST_WRITE_KEY = "last-write:"  # + the path's hash: History.value {"agent", "sha256", "size"}
# The contents of a change kept in a checkpoint (BlobRef) -> its bytes; raises ContentGone.
BlobReader = Callable[[BlobRef], bytes]


def no_blobs(ref: BlobRef) -> bytes:
    raise ContentGone(_("the checkpoint that held this change was cleared"))


def unified_diff(path: str, before: str | None, after: str) -> tuple[str, int, int]:
    """The unified diff from `before` (None: a new file) to `after`, cut past DIFF_LIMIT
    characters with a note; and the lines added and deleted (counted over the whole diff)."""
    import difflib  # with the first change shown, not with the window

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
    channel: str = ""  # where the agent wrote it ("" when unknown)


class ChangeLog:
    """App-wide: every channel's agents write through it (who wrote a file last is shared)."""

    def __init__(
        self, bus: EventBus, history: Callable[[], History], app_files: Callable[[], AppFiles]
    ) -> None:
        self._bus = bus
        self._history = history
        self.app_files = app_files
        self.blob: BlobReader = no_blobs  # the checkpoint store's, once one is open
        self._last_writes: dict[Path, LastWrite] = {}  # by resolved path; the history's too
        self._locks: dict[Path, asyncio.Lock] = {}

    def writing(self, path: Path) -> asyncio.Lock:
        """Held while a file is read, written and recorded (one write at a time per file)."""
        return self._locks.setdefault(path, asyncio.Lock())

    def who_changed(self, path: Path, now: Version | None) -> str:
        """Whose write the file holds now: an agent's name, REVERTED, or PERSON when none of
        ours."""
        last = self.last_write(path)
        if last is not None and last.version == now:
            return last.agent
        return PERSON

    def last_write(self, path: Path) -> LastWrite | None:
        """Who last wrote the file through Sidekicks, in this run or an earlier one."""
        found = self._last_writes.get(path)
        if found is not None:
            return found
        try:
            raw = self._history().value(_last_write_key(path))
        except Exception:  # no history open (yet): this run's only
            return None
        if not raw:
            return None
        try:
            data = json.loads(raw)
            version = Version(data["sha256"], int(data["size"])) if data["sha256"] else None
            found = LastWrite(str(data["agent"]), version, str(data.get("channel", "")))
        except (ValueError, KeyError, TypeError):
            return None
        self._last_writes[path] = found
        return found

    def wrote(self, path: Path, agent: str, data: bytes | None, channel: str = "") -> None:
        """`agent` (REVERTED for the person's revert) left `data` in `path` (None: removed)."""
        last = LastWrite(agent, None if data is None else Version.of(data), channel)
        self._last_writes[path] = last
        version = last.version
        kept = {
            "agent": agent,
            "sha256": version.sha256 if version else "",
            "size": version.size if version else 0,
            "channel": channel,
        }
        try:
            self._history().put_value(_last_write_key(path), json.dumps(kept).encode())
        except Exception:
            log.exception("who last wrote %s could not be kept", path)

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
        self.wrote(path, agent, after.encode(), channel)
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
        ids = list(dict.fromkeys(change_ids))
        return await FileEdits(self, channel).run(lambda: self._steps_back(channel, ids))

    def _steps_back(self, channel: str, change_ids: list[str]) -> list[Step]:
        history = self.history
        by_id = {c.id: c for c in history.changes(channel)}
        chosen: list[tuple[FileChange, ChangeTexts]] = []
        for change_id in change_ids:
            change = by_id.get(change_id)
            texts = history.change_texts(channel, change_id) if change else None
            if change is None or texts is None:
                raise UserError(_("there is no change {id} in this channel").format(id=change_id))
            if change.reverted:
                raise UserError(
                    _("the change to {path} was already reverted").format(path=change.path)
                )
            chosen.append((change, texts))
        chosen.sort(key=lambda c: c[0].id, reverse=True)
        steps: list[Step] = []
        for change, texts in chosen:
            steps += steps_back(change, texts, self._blob_of(change))
        return steps

    async def revert_hunk(self, channel: str, change_id: str, hunk: int) -> FileChange:
        """Puts back one hunk of a text change (its `hunk`-th "@@" of the diff, from 0): the
        file keeps the change's other hunks, and the record now holds what is left of it (it
        is reverted once no hunk is left). Refused when the file changed since."""

        def steps() -> list[Step]:
            change, texts = self._one(channel, change_id)
            if change.binary or change.status in ("added", "deleted", "renamed"):
                raise UserError(_("only a change to a text file can be reverted a part at a time"))
            blob = self._blob_of(change)
            before, after = content(texts.before, blob), content(texts.after, blob)
            if before is None or after is None:
                raise UserError(_("only a change to a text file can be reverted a part at a time"))
            left = hunk_reverted(before, after, hunk)
            return [Step(change, change.path, after, left, "hunk", hunk_after=left)]

        done = await FileEdits(self, channel).run(steps)
        return done[0]

    def rewrite_after(self, change: FileChange, after: bytes | None) -> None:
        """A hunk revert left `after` in the change's file: the record says what remains."""
        texts = self.history.change_texts(change.channel, change.id)
        if texts is None or after is None:
            return
        before = content(texts.before, self._blob_of(change))
        before_text = before.decode("utf-8", "replace") if before is not None else None
        after_text = after.decode("utf-8", "replace")
        change.diff, change.additions, change.deletions = unified_diff(
            change.path, before_text, after_text
        )
        change.reverted = before == after
        self.history.add_change(change, ChangeTexts(texts.before, after))

    def _one(self, channel: str, change_id: str) -> tuple[FileChange, ChangeTexts]:
        history = self.history
        change = next((c for c in history.changes(channel) if c.id == change_id), None)
        texts = history.change_texts(channel, change_id) if change else None
        if change is None or texts is None:
            raise UserError(_("there is no change {id} in this channel").format(id=change_id))
        if change.reverted:
            raise UserError(_("the change to {path} was already reverted").format(path=change.path))
        return change, texts

    def _blob_of(self, change: FileChange) -> BlobReader:
        if not change.revertible:
            return no_blobs
        return self.blob

    def recover(self) -> list[FileChange]:
        """Finishes the revert a killed app left half done (at the history's opening)."""
        return recover_revert(self)

    def reverted(self, path: Path, now: bytes | None) -> None:
        """A revert or restore left `now` in `path` (None: removed it)."""
        self.wrote(path, REVERTED, now)

    @property
    def history(self) -> History:
        return self._history()

    def announce(
        self, channel: str, changes: list[FileChange], removed: list[str] | None = None
    ) -> None:
        self._bus.emit(
            names.CHANGES_CHANGED,
            ChangesChanged(
                channel=channel, changes=[c.model_copy() for c in changes], removed=removed or []
            ),
        )


def _last_write_key(path: Path) -> str:
    return LAST_WRITE_KEY + hashlib.sha256(str(path).encode()).hexdigest()[:40]


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
