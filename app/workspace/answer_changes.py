"""The changes of an answer that ended (checkpointing.py): the difference between its folders'
first and last snapshots, one record per file, with its route and, for two answers at once on
one folder, who else may have made it; the answer's `fs/write_text_file` records merged into
them."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from pathlib import Path, PurePosixPath

from app.checkpoints.model import FileDifference
from app.checkpoints.store import CheckpointError, CheckpointStore
from app.core.ids import new_id
from app.history.change_records import BlobRef, ChangeTexts
from app.i18n import _
from app.models.changes import ChangeRoute, FileChange
from app.workspace.answer_watch import AnswerWatch, FolderWatch, now_iso
from app.workspace.changes import REVERTED, ChangeLog, unified_diff
from app.workspace.files import Version

log = logging.getLogger(__name__)

# Shows a conflict notice in the answer's channel: (channel, agent, text).
Notice = Callable[[str, str, str], None]


class AnswerChanges:
    def __init__(
        self,
        changes: ChangeLog,
        store: Callable[[], CheckpointStore | None],
        notice: Notice | None,
    ) -> None:
        self.changes = changes
        self._store = store
        self.notice = notice

    @property
    def store(self) -> CheckpointStore | None:
        return self._store()

    async def record(self, watch: AnswerWatch) -> list[FileChange]:
        store = self.store
        if store is None:
            return []
        history = self.changes.history
        live = [c for c in history.changes(watch.channel) if c.message_id == watch.message_id]
        kept: list[FileChange] = []
        removed: list[str] = []
        for folder in watch.folders.values():
            if len(folder.snapshots) < 2:
                continue
            found = await asyncio.to_thread(_folder_changes, store, folder)
            if found is None:
                continue
            overall, command_paths, covered = found
            mine = [c for c in live if _relative(c.path, folder.root) is not None]
            notices: list[str] = []
            records, gone = await asyncio.to_thread(
                self._merge, watch, folder, overall, command_paths, covered, mine, notices
            )
            kept += records
            removed += gone
            if self.notice is not None:
                for text in notices:
                    self.notice(watch.channel, watch.agent, text)
        if kept or removed:
            self.changes.announce(watch.channel, kept, removed)
        return kept

    def _merge(
        self,
        watch: AnswerWatch,
        folder: FolderWatch,
        overall: list[FileDifference],
        command_paths: set[str],
        covered_of: Callable[[set[str]], set[str]],
        live: list[FileChange],
        notices: list[str],
    ) -> tuple[list[FileChange], list[str]]:
        """One record per changed file (the fs records merged into it), and the ids of the fs
        records merged away or showing no change after all."""
        history = self.changes.history
        by_rel: dict[str, list[FileChange]] = {}
        for change in live:
            rel = _relative(change.path, folder.root)
            if rel is not None:
                by_rel.setdefault(rel, []).append(change)
        covered = covered_of(set(by_rel))
        records: list[FileChange] = []
        removed: list[str] = []
        used: set[str] = set()
        for difference in overall:
            rels = {difference.path, *([difference.old_path] if difference.old_path else [])}
            writes = [c for rel in sorted(rels) for c in by_rel.get(rel, [])]
            used |= rels
            path = str(Path(folder.root, *PurePosixPath(difference.path).parts))
            others = [o for o in watch.overlaps if folder.root in o.folders]
            route = self._route(watch, path, bool(writes), bool(rels & command_paths), others)
            if route is None:
                continue  # the other answer's, by a route it is known to have taken
            if route != "agent" or path in watch.named:
                watch.known.add(path)
                during: list[str] = []
            else:
                during = sorted({o.agent for o in others if o.agent != watch.agent})
            record = self._record(watch, folder, difference, path, route, writes, during, notices)
            for extra in writes[1:]:
                history.delete_change(extra.channel, extra.id)
                removed.append(extra.id)
            records.append(record)
        for rel, writes in by_rel.items():
            if rel in covered and rel not in used:
                for change in writes:  # written and put back, or written unchanged: nothing
                    history.delete_change(change.channel, change.id)
                    removed.append(change.id)
        return records, removed

    def _route(
        self,
        watch: AnswerWatch,
        path: str,
        written: bool,
        by_command: bool,
        others: list[AnswerWatch],
    ) -> ChangeRoute | None:
        """How this answer made the file, or None when another answer at the same time is
        known to have: this answer's fs write first, then the other's fs write or tool call
        naming it, then this answer's commands and tool calls, then the other's commands."""
        if written:
            return "fs"
        if any(path in o.named or self._wrote_live(o, path) for o in others):
            return None
        if by_command:
            return "command"
        if path in watch.named:
            return "agent"
        if any(o.knows(path) for o in others):
            return None
        return "agent"

    def _wrote_live(self, other: AnswerWatch, path: str) -> bool:
        return any(
            c.message_id == other.message_id and c.route == "fs" and c.path == path
            for c in self.changes.history.changes(other.channel)
        )

    def _record(
        self,
        watch: AnswerWatch,
        folder: FolderWatch,
        difference: FileDifference,
        path: str,
        route: ChangeRoute,
        writes: list[FileChange],
        during: list[str],
        notices: list[str],
    ) -> FileChange:
        store = self.store
        assert store is not None
        before = store.blob(folder.root, difference.old_blob) if difference.old_blob else None
        after = store.blob(folder.root, difference.new_blob) if difference.new_blob else None
        first = writes[0] if writes else None
        change = FileChange(
            id=first.id if first else new_id(),
            channel=watch.channel,
            message_id=watch.message_id,
            agent=watch.agent,
            path=path,
            created_at=first.created_at if first else now_iso(),
            new_file=difference.status == "added",
            route=route,
            status=difference.status,
            old_path=(
                str(Path(folder.root, *PurePosixPath(difference.old_path).parts))
                if difference.old_path
                else ""
            ),
            binary=difference.binary,
            additions=difference.additions,
            deletions=difference.deletions,
            during=during,
            folder=folder.root,
            checkpoint=watch.message_id,
            through_link=first.through_link if first else "",
            conflict_with=first.conflict_with if first else "",
        )
        if not difference.binary:
            change.diff, _a, _d = unified_diff(
                path,
                None if before is None else before.decode("utf-8", "replace"),
                "" if after is None else after.decode("utf-8", "replace"),
            )
        if first is None:
            change.conflict_with = self._conflict(watch, Path(path), before, notices)
        texts = ChangeTexts(
            _ref(folder.root, difference.old_blob, difference.old_kind),
            _ref(folder.root, difference.new_blob, difference.new_kind),
        )
        self.changes.history.add_change(change, texts)
        self.changes.wrote(Path(path), watch.agent, after, watch.channel)
        return change

    def _conflict(
        self, watch: AnswerWatch, path: Path, before: bytes | None, notices: list[str]
    ) -> str:
        """The other agent whose work this answer changed without being told of it: its
        write is what the file held, and it was made in another channel or during this answer
        ("" otherwise). The person's own edits between answers are the baseline, not a
        conflict: the agent reads the files it is asked about."""
        if before is None:
            return ""
        last = self.changes.last_write(path)
        if last is None or last.agent in (REVERTED, watch.agent):
            return ""
        if last.version != Version.of(before):
            return ""  # someone changed it after the other agent: the person's baseline
        overlapping = any(o.agent == last.agent for o in watch.overlaps)
        if last.channel == watch.channel and not overlapping:
            return ""  # the other agent's earlier answer here: this one was shown it
        notices.append(
            _("{agent} changed {path}, which {other} had changed").format(
                agent=f"@{watch.agent}", path=path, other=f"@{last.agent}"
            )
        )
        return last.agent


def _ref(root: str, blob: str | None, kind: str | None) -> BlobRef | None:
    return None if blob is None else BlobRef(root, blob, kind or "file")


def _relative(path: str, root: str) -> str | None:
    """`path` relative to `root`, "/"-separated; None when it is not inside."""
    try:
        rel = Path(path).relative_to(root)
    except ValueError:
        return None
    return rel.as_posix() if rel.parts else None


def _folder_changes(
    store: CheckpointStore, folder: FolderWatch
) -> tuple[list[FileDifference], set[str], Callable[[set[str]], set[str]]] | None:
    """The answer's overall difference in the folder, the paths its commands changed, and
    which paths the checkpoints see at all."""
    first, last = folder.snapshots[0], folder.snapshots[-1]
    try:
        overall = store.differences(folder.root, first.commit_id, last.commit_id)
        command_paths: set[str] = set()
        for index in sorted(folder.command_segments):
            if index + 1 >= len(folder.snapshots):
                continue
            for d in store.differences(
                folder.root,
                folder.snapshots[index].commit_id,
                folder.snapshots[index + 1].commit_id,
            ):
                command_paths.add(d.path)
                if d.old_path:
                    command_paths.add(d.old_path)
    except CheckpointError as error:
        log.warning("the changes of an answer in %s are unknown: %s", folder.root, error)
        return None

    def covered(paths: set[str]) -> set[str]:
        return store.present(folder.root, [first.commit_id, last.commit_id], paths)

    return overall, command_paths, covered
