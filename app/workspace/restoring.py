"""Restore (CheckpointService): the agents' folders put back as they were before a chosen answer.

For each folder the channel's answers checkpointed from the chosen answer on, the target is the
first snapshot of the earliest of them (the chosen answer's own for its agent's folders), so
every later answer, whoever made it, is undone. The present is snapshotted first and the
restore is kept as records (route "restore", by "you") holding the present and the target:
reverting them undoes the restore. The files are written by reverting.FileEdits (journaled,
all or nothing, refused when a file changes meanwhile). Refused while an answer runs on one of
the folders. Symbolic links are left as they are (never made or replaced), and so are files the
checkpoints leave out (ignored, over the size cap): the preview says which.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path, PurePosixPath

from pydantic import ValidationError

from app.checkpoints.model import FileDifference
from app.checkpoints.store import CheckpointError, CheckpointStore
from app.core.errors import UserError
from app.core.ids import new_id
from app.history.change_records import BlobRef, ChangeTexts
from app.i18n import _
from app.models.changes import (
    AnswerCheckpoint,
    CheckpointStoreInfo,
    FileChange,
    RestoreFile,
    SkippedFile,
)
from app.workspace.answer_watch import now_iso
from app.workspace.changes import PERSON, ChangeLog, unified_diff
from app.workspace.checkpointing import Checkpointing
from app.workspace.reverting import FileEdits, Step, steps_forward

log = logging.getLogger(__name__)

LINK = "link"  # RestoreFile.skipped


@dataclass(frozen=True)
class _Kept:
    """An answer's checkpoint record (checkpointing.Checkpointing._keep_record)."""

    message_id: str
    agent: str
    started_at: str
    ended_at: str
    before: dict[str, tuple[str, str]]  # folder -> (snapshot id, commit id)
    skipped: list[SkippedFile]


def _kept(message_id: str, raw: bytes) -> _Kept | None:
    try:
        data = json.loads(raw)
        before = {
            str(f["root"]): (str(f["before"]["id"]), str(f["before"]["commit"]))
            for f in data["folders"]
        }
        return _Kept(
            message_id,
            str(data["agent"]),
            str(data["startedAt"]),
            str(data.get("endedAt", "")),
            before,
            [SkippedFile.model_validate(s) for s in data.get("skipped", [])],
        )
    except (ValueError, KeyError, TypeError, ValidationError):
        log.warning("ignoring a damaged checkpoint record of %s", message_id)
        return None


class Restoring:
    def __init__(self, checkpointing: Checkpointing, changes: ChangeLog) -> None:
        self._checkpointing = checkpointing
        self._changes = changes

    @property
    def store(self) -> CheckpointStore:
        store = self._checkpointing.store
        if store is None:
            raise UserError(_("no configuration is open: there are no checkpoints"))
        return store

    def answers(self, channel: str) -> list[AnswerCheckpoint]:
        """The channel's checkpointed answers, oldest first."""
        kept = self._records(channel)
        store = self._checkpointing.store
        alive: dict[str, set[str]] = {}
        if store is not None:
            wanted: dict[str, set[str]] = {}
            for record in kept:
                for root, (snapshot_id, _commit) in record.before.items():
                    wanted.setdefault(root, set()).add(snapshot_id)
            alive = {root: store.existing(root, ids) for root, ids in wanted.items()}
        return [
            AnswerCheckpoint(
                message_id=record.message_id,
                agent=record.agent,
                folders=sorted(record.before),
                started_at=record.started_at,
                ended_at=record.ended_at,
                restorable=bool(record.ended_at)
                and all(i in alive.get(root, set()) for root, (i, _c) in record.before.items()),
                skipped=record.skipped,
            )
            for record in kept
        ]

    async def preview(self, channel: str, message_id: str) -> list[RestoreFile]:
        """What Restore would change now, file by file."""
        files: list[RestoreFile] = []
        for root, differences in await self._differences(channel, message_id):
            files += [_preview(root, d) for d in differences]
        return files

    async def restore(self, channel: str, message_id: str, notice_id: str) -> list[FileChange]:
        """Puts the folders back; the restore's records (under `notice_id`, the message that
        tells it), which Revert undoes."""
        records: list[tuple[FileChange, ChangeTexts]] = []
        for root, differences in await self._differences(channel, message_id):
            for difference in differences:
                if LINK in (difference.old_kind, difference.new_kind):
                    continue
                record = await asyncio.to_thread(self._record, channel, notice_id, root, difference)
                records.append(record)
        if not records:
            return []
        history = self._changes.history
        for change, texts in records:
            history.add_change(change, texts)
        by_id = {change.id: (change, texts) for change, texts in records}

        def steps() -> list[Step]:
            found: list[Step] = []
            for change, texts in by_id.values():
                found += steps_forward(change, texts, self._changes.blob)
            return found

        try:
            done = await FileEdits(self._changes, channel).run(steps)
        except BaseException:
            for change, _texts in records:
                history.delete_change(channel, change.id)
            raise
        self._changes.announce(channel, done)
        return done

    def info(self) -> CheckpointStoreInfo:
        store = self.store
        count, oldest = store.count()
        return CheckpointStoreInfo(
            size_bytes=store.size_bytes(),
            snapshots=count,
            oldest_at=_iso(oldest) if oldest is not None else "",
            folder=str(store.store_dir),
        )

    def clear_older_than(self, days: int, channels: list[str]) -> CheckpointStoreInfo:
        """Drops the snapshots taken more than `days` days ago (0: all but those of answers in
        progress); the changes they held can no longer be reverted, and say so."""
        if days < 0:
            raise UserError(_("the number of days cannot be negative"))
        cutoff = time.time() - days * 86400
        store = self.store
        keep = self._running_snapshots()
        store.clear_older_than(cutoff, keep=keep)
        limit = _iso(cutoff)
        history = self._changes.history
        for channel in channels:
            for change in history.changes(channel):
                if change.checkpoint and change.revertible and change.created_at < limit:
                    change.revertible = False
                    history.put_change(change)
        return self.info()

    # ---- helpers -----------------------------------------------------------------------------

    def _running_snapshots(self) -> set[str]:
        return {
            snapshot.id
            for watch in self._checkpointing.running_on(None)
            for folder in watch.folders.values()
            for snapshot in folder.snapshots
        }

    def _records(self, channel: str) -> list[_Kept]:
        raw = self._changes.history.checkpoint_records(channel)
        kept = []
        for message_id, record in raw:
            found = _kept(message_id, record)
            if found is not None:
                kept.append(found)
        return kept

    def _targets(self, channel: str, message_id: str) -> dict[str, tuple[str, str]]:
        kept = self._records(channel)
        index = next((i for i, r in enumerate(kept) if r.message_id == message_id), None)
        if index is None:
            raise UserError(_("this answer has no checkpoint to restore"))
        targets: dict[str, tuple[str, str]] = {}
        for record in kept[index:]:
            for root, snapshot in record.before.items():
                targets.setdefault(root, snapshot)
        running = self._checkpointing.running_on(set(targets))
        if running:
            raise UserError(
                _("{agent} is answering in these folders: restore once it is done").format(
                    agent=f"@{running[0].agent}"
                )
            )
        store = self.store
        for root, (snapshot_id, _commit) in targets.items():
            if snapshot_id not in store.existing(root, [snapshot_id]):
                raise UserError(
                    _("the checkpoints of {path} before this answer were cleared").format(path=root)
                )
        return targets

    async def _differences(
        self, channel: str, message_id: str
    ) -> list[tuple[str, list[FileDifference]]]:
        targets = self._targets(channel, message_id)
        store = self.store
        found = []
        for root, (_snapshot_id, commit) in sorted(targets.items()):
            try:
                present = await asyncio.to_thread(store.snapshot, root)  # kept: undo holds it
                differences = await asyncio.to_thread(
                    store.differences, root, present.commit_id, commit
                )
            except CheckpointError as error:
                raise UserError(str(error)) from None
            found.append((root, differences))
        return found

    def _record(
        self, channel: str, notice_id: str, root: str, difference: FileDifference
    ) -> tuple[FileChange, ChangeTexts]:
        store = self.store
        path = _absolute(root, difference.path)
        change = FileChange(
            id=new_id(),
            channel=channel,
            message_id=notice_id,
            agent=PERSON,
            path=path,
            new_file=difference.status == "added",
            created_at=now_iso(),
            route="restore",
            status=difference.status,
            old_path=_absolute(root, difference.old_path) if difference.old_path else "",
            binary=difference.binary,
            additions=difference.additions,
            deletions=difference.deletions,
            folder=root,
            checkpoint=notice_id,
        )
        if not difference.binary:
            before = store.blob(root, difference.old_blob) if difference.old_blob else None
            after = store.blob(root, difference.new_blob) if difference.new_blob else None
            change.diff, _a, _d = unified_diff(
                path,
                None if before is None else before.decode("utf-8", "replace"),
                "" if after is None else after.decode("utf-8", "replace"),
            )
        texts = ChangeTexts(
            None
            if difference.old_blob is None
            else BlobRef(root, difference.old_blob, difference.old_kind or "file"),
            None
            if difference.new_blob is None
            else BlobRef(root, difference.new_blob, difference.new_kind or "file"),
        )
        return change, texts


def _preview(root: str, difference: FileDifference) -> RestoreFile:
    return RestoreFile(
        path=_absolute(root, difference.path),
        folder=root,
        status=difference.status,
        old_path=_absolute(root, difference.old_path) if difference.old_path else "",
        binary=difference.binary,
        additions=difference.additions,
        deletions=difference.deletions,
        skipped=LINK if LINK in (difference.old_kind, difference.new_kind) else "",
    )


def _absolute(root: str, relative: str) -> str:
    return str(Path(root, *PurePosixPath(relative).parts))


def _iso(seconds: float) -> str:
    return (
        datetime.fromtimestamp(seconds, UTC)
        .isoformat(timespec="milliseconds")
        .replace("+00:00", "Z")
    )
