"""Checkpoints of the agents' folders around each answer (issue 25), and the changes they show.

When an answer starts, each of its agent's folders (`cwd` and `folders:`) is snapshotted in the
checkpoint store (app/checkpoints); again around each command the answer runs (an ACP terminal,
or a tool call of kind "execute": the agent's own shell), and when it ends. The answer's changes
are the difference between its first and last snapshots, whatever made them:

- **route**: `fs` when the agent wrote the file through `fs/write_text_file` in this answer (its
  live records, merged here into one per file: no duplicate, no +0 −0 record); else `command`
  when it changed while one of the answer's commands ran; else `agent` (its own tools).
- **two answers at once on one folder** (two channels): a file changed by a known route of the
  other answer (its fs write, its commands, a tool call naming the path) is the other's; one
  that no route tells is kept in both, marked `during` the other agent: never silently given.
- **the person's changes between answers** are in the next answer's first snapshot: its
  baseline, not the agent's change.
- **who last wrote each file** is kept in the history (changes.ChangeLog.wrote), so the
  conflict notice ("which @other changed since…") covers every route and survives a restart.

A folder that cannot be snapshotted (gone, unreadable) is logged and left out; the answer goes
on. A command's first snapshot is taken before an ACP terminal's command starts; for the agent's
own shell it is taken when its tool call is announced, which the command may outrun: its first
changes may then read `agent`.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
from collections.abc import Awaitable, Callable
from pathlib import Path, PurePosixPath

from app.checkpoints.model import DEFAULT_IGNORED, DEFAULT_MAX_FILE_BYTES, Snapshot
from app.checkpoints.store import CheckpointError, CheckpointStore
from app.events import names
from app.events.bus import EventBus
from app.events.payloads import CheckpointsChanged
from app.history.change_records import BlobRef
from app.i18n import _
from app.models.changes import FileChange
from app.models.conversation import ToolCall
from app.workspace.answer_changes import AnswerChanges, Notice
from app.workspace.answer_watch import AnswerWatch, FolderWatch, now_iso
from app.workspace.changes import ChangeLog, no_blobs
from app.workspace.checkpoint_records import checkpoint_record, snapshots_of
from app.workspace.reverting import ContentGone

log = logging.getLogger(__name__)

FINISHED = ("completed", "failed")
STORE_FOLDER = "checkpoints"  # in the configuration's data folder


class Checkpointing:
    """App-wide: every channel's answers are watched through it (two may share a folder)."""

    def __init__(self, bus: EventBus, changes: ChangeLog, notice: Notice | None = None) -> None:
        self._bus = bus
        self._changes = changes
        self._answer_changes = AnswerChanges(changes, lambda: self.store, notice)
        self.store: CheckpointStore | None = None  # the open configuration's (attach)
        self.enabled = True
        self._open: dict[str, set[AnswerWatch]] = {}  # by folder: the answers watching it
        self._forgetting: set[asyncio.Future[None]] = set()
        self._ignored: tuple[str, ...] = DEFAULT_IGNORED
        self._max_bytes = DEFAULT_MAX_FILE_BYTES

    def open(self, data_folder: Path | None) -> None:
        """The store of the configuration just opened (in its data folder; none without one)."""
        if data_folder is None:
            self.store = None
            self._changes.blob = no_blobs
            return
        self.store = CheckpointStore(
            data_folder / STORE_FOLDER, ignored=self._ignored, max_file_bytes=self._max_bytes
        )
        self._changes.blob = _reader(self.store)

    def configure(self, enabled: bool, ignored: list[str], max_file_bytes: int) -> None:
        """The configuration's `checkpoints:` (on top of the store's default ignore list)."""
        self.enabled = enabled
        self._ignored = (*DEFAULT_IGNORED, *ignored)
        self._max_bytes = max_file_bytes
        if self.store is not None:
            self.store.ignored, self.store.max_file_bytes = self._ignored, max_file_bytes

    # ---- an answer's life --------------------------------------------------------------------

    async def begin(
        self, channel: str, message_id: str, agent: str, folders: list[Path]
    ) -> AnswerWatch | None:
        """Snapshots the folders before the answer's prompt is sent; None when nothing is
        checkpointed (checkpoints off, no folder)."""
        store = self.store
        if store is None or not self.enabled:
            return None
        roots = _distinct_roots(folders)
        if not roots:
            return None
        # Known to the other answers on these folders before the first snapshot is taken (two
        # answers starting together each see the other).
        watch = AnswerWatch(channel, message_id, agent, now_iso(), {})
        for root in roots:
            for other in self._open.setdefault(root, set()):
                other.overlaps.add(watch)
                watch.overlaps.add(other)
            self._open[root].add(watch)
        for root in roots:
            snapshot = await self._snapshot(store, root)
            if snapshot is not None:
                watch.folders[root] = FolderWatch(root, [snapshot])
            else:
                self._open[root].discard(watch)
        if not watch.folders:
            self.drop(watch)
            return None
        self._keep_record(watch)
        return watch

    def tool(self, watch: AnswerWatch | None, tool: ToolCall) -> asyncio.Future[None] | None:
        """A tool call of the answer started or changed: the paths it names, and its command.
        The snapshot taken before a command, when one is (the caller may wait for it)."""
        if watch is None or watch.ended:
            return None
        for location in tool.locations:
            watch.named.add(os.path.realpath(location.path))
        for diff in tool.diffs:
            watch.named.add(os.path.realpath(diff.path))
        if tool.kind != "execute":
            return None
        key = f"tool:{tool.id}"
        if tool.status in FINISHED:
            if key in watch.running:
                self.command_ended(watch, key)
            return None
        if key in watch.running:
            return None
        return self._then(watch, lambda: self._command_starts(watch, key))

    async def command_started(self, watch: AnswerWatch | None, key: str) -> None:
        """An ACP terminal's command is about to start: waits for the snapshot before it."""
        if watch is not None and not watch.ended:
            await self._then(watch, lambda: self._command_starts(watch, key))

    def command_ended(self, watch: AnswerWatch | None, key: str) -> None:
        if watch is not None and not watch.ended:
            self._then(watch, lambda: self._command_ends(watch, key))

    async def end(self, watch: AnswerWatch | None) -> list[FileChange]:
        """The last snapshots, then the answer's changes recorded (and told to the page)."""
        if watch is None or watch.ended:
            return []
        await self._then(watch, lambda: self._boundary(watch, keep=True))
        watch.ended = True
        for root in watch.folders:
            self._open.get(root, set()).discard(watch)
        changes: list[FileChange] = []
        try:
            changes = await self._answer_changes.record(watch)
        except Exception:  # the answer is kept all the same; its fs records stay as they were
            log.exception("the changes of %s's answer could not be recorded", watch.agent)
        finally:
            self._keep_record(watch)
            watch.recorded = True
            for other in watch.overlaps:
                # Both recorded: nothing more to tell. Not merely ended: an answer that has
                # ended may still be recording, and it reads its overlaps to leave this
                # answer's known writes to it (a loaded machine once ended both together).
                if other.recorded:
                    other.overlaps.discard(watch)
        return changes

    def drop(self, watch: AnswerWatch | None) -> None:
        """The answer was abandoned unkept (its channel deleted, the app closing)."""
        if watch is not None:
            watch.ended = True
            for root in watch.folders:
                self._open.get(root, set()).discard(watch)

    def running_on(self, roots: set[str] | None) -> list[AnswerWatch]:
        """The answers in progress on any of these folders (None: on any folder)."""
        chosen = self._open if roots is None else {r: self._open.get(r, set()) for r in roots}
        return list({w for watches in chosen.values() for w in watches})

    # ---- the snapshots between commands ------------------------------------------------------

    def _then(
        self, watch: AnswerWatch, step: Callable[[], Awaitable[None]]
    ) -> asyncio.Future[None]:
        """Runs `step` after the watch's earlier steps (snapshots of a folder are in order)."""
        previous = watch.last_step

        async def run() -> None:
            if previous is not None:
                await asyncio.shield(previous)
            try:
                await step()
            except Exception:
                log.exception("a checkpoint of %s's answer failed", watch.agent)

        task = asyncio.ensure_future(run())
        watch.last_step = task
        return task

    async def _command_starts(self, watch: AnswerWatch, key: str) -> None:
        if not watch.running:
            await self._boundary(watch)  # what the agent did before the command
        watch.running.add(key)
        watch.segment_had_command = True

    async def _command_ends(self, watch: AnswerWatch, key: str) -> None:
        watch.running.discard(key)
        if not watch.running:
            await self._boundary(watch)
            await self._learn_command_paths(watch)

    async def _learn_command_paths(self, watch: AnswerWatch) -> None:
        """What the commands just ended changed is known to be this answer's at once: another
        answer on the folder that ends first leaves it out of its own changes."""
        store = self.store
        if store is None:
            return
        for folder in watch.folders.values():
            index = len(folder.snapshots) - 2
            if index not in folder.command_segments:
                continue
            before, after = folder.snapshots[index], folder.snapshots[index + 1]
            try:
                found = await asyncio.to_thread(
                    store.differences, folder.root, before.commit_id, after.commit_id
                )
            except CheckpointError as error:
                log.warning("the changes of a command in %s are unknown: %s", folder.root, error)
                continue
            for difference in found:
                for relative in (difference.path, difference.old_path):
                    if relative:
                        watch.known.add(str(Path(folder.root, *PurePosixPath(relative).parts)))

    async def _boundary(self, watch: AnswerWatch, keep: bool = False) -> None:
        """Snapshots between the answer's first and last are kept only while it runs."""
        store = self.store
        if store is None:
            return
        for folder in watch.folders.values():
            snapshot = await self._snapshot(store, folder.root, keep)
            if snapshot is None:
                continue
            if watch.segment_had_command:
                folder.command_segments.add(len(folder.snapshots) - 1)
            folder.snapshots.append(snapshot)
        watch.segment_had_command = bool(watch.running)

    async def _snapshot(
        self, store: CheckpointStore, root: str, keep: bool = True
    ) -> Snapshot | None:
        try:
            return await asyncio.to_thread(lambda: store.snapshot(root, keep=keep))
        except (CheckpointError, OSError) as error:
            log.warning("no checkpoint of %s: %s", root, error)
        except Exception:
            log.exception("no checkpoint of %s", root)
        return None

    # ---- the answers' records ----------------------------------------------------------------

    def forget_channel(self, channel: str) -> None:
        """The channel is being deleted: its answers' snapshots go (in the background)."""
        store = self.store
        if store is None:
            return
        by_root = snapshots_of(self._changes.history.checkpoint_records(channel))
        if not by_root:
            return

        def forget() -> None:
            for root, ids in by_root.items():
                try:
                    store.forget(root, ids)
                except Exception:
                    log.exception("the checkpoints of a deleted channel in %s stay", root)

        task = asyncio.get_running_loop().run_in_executor(None, forget)
        self._forgetting.add(task)
        task.add_done_callback(self._forgetting.discard)

    def _keep_record(self, watch: AnswerWatch) -> None:
        record = checkpoint_record(watch)
        try:
            self._changes.history.put_checkpoint(
                watch.channel, watch.message_id, json.dumps(record).encode()
            )
        except Exception:
            log.exception("the checkpoint record of %s's answer could not be kept", watch.agent)
        self._bus.emit(names.CHECKPOINTS_CHANGED, CheckpointsChanged(channel=watch.channel))


def _reader(store: CheckpointStore) -> Callable[[BlobRef], bytes]:
    def read(ref: BlobRef) -> bytes:
        try:
            return store.blob(ref.folder, ref.blob)
        except CheckpointError:
            raise ContentGone(
                _("the checkpoint that held this change of {path} was cleared").format(
                    path=ref.folder
                )
            ) from None

    return read


def _distinct_roots(folders: list[Path]) -> list[str]:
    """The existing folders' real paths, each once, none inside another (its snapshot would
    hold the same files twice)."""
    real = sorted({os.path.realpath(f) for f in folders if os.path.isdir(f)})
    kept: list[str] = []
    for root in real:
        if not any(Path(root).is_relative_to(other) for other in kept):
            kept.append(root)
    return kept
