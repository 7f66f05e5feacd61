"""The checkpoint store: snapshots of folders in shadow repositories under one folder of
Sidekicks' data, their differences, their blobs, and clearing old ones.

Every method may be called from a worker thread (they block on disk work): each shadow repository
has one lock, held for the whole of a call on it, and is opened and freed within the call.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from app.checkpoints.model import (
    DEFAULT_IGNORED,
    DEFAULT_MAX_FILE_BYTES,
    FileDifference,
    Skipped,
    Snapshot,
)
from app.core.errors import UserError
from app.i18n import _

if TYPE_CHECKING:
    import pygit2

    from app.checkpoints import differences, pruning, snapshots
    from app.checkpoints.shadow import gitdir_for, open_gitdir, open_shadow, real_folder

AUTHOR = ("Sidekicks", "checkpoints@sidekicks.invalid")

_guard = threading.Lock()
_locks: dict[Path, threading.Lock] = {}
T = TypeVar("T")


def _load_git() -> None:
    """pygit2 and the store's Git side, imported by the first call that needs them: an idle
    window opens a store (Checkpointing.open) but takes no checkpoint, and pygit2 costs ~3 MB
    and 0.1-0.4 s at start-up (docs/benchmarks.md). Every method but __init__ calls it first."""
    if "open_shadow" in globals():
        return
    import pygit2

    from app.checkpoints import differences, pruning, snapshots
    from app.checkpoints.shadow import gitdir_for, open_gitdir, open_shadow, real_folder

    globals().update(
        pygit2=pygit2,
        differences=differences,
        pruning=pruning,
        snapshots=snapshots,
        gitdir_for=gitdir_for,
        open_gitdir=open_gitdir,
        real_folder=real_folder,
        open_shadow=open_shadow,  # last: the one _load_git looks for
    )


class CheckpointError(UserError):
    """A folder that cannot be snapshotted, or an id the store does not hold."""


def _lock_for(gitdir: Path) -> threading.Lock:
    with _guard:
        return _locks.setdefault(gitdir, threading.Lock())


class CheckpointStore:
    def __init__(
        self,
        store_dir: Path,
        *,
        ignored: Sequence[str] = DEFAULT_IGNORED,
        max_file_bytes: int = DEFAULT_MAX_FILE_BYTES,
    ) -> None:
        self.store_dir = Path(store_dir)
        self.ignored = tuple(ignored)
        self.max_file_bytes = max_file_bytes

    def snapshot(self, root: str | os.PathLike[str], *, keep: bool = True) -> Snapshot:
        """The folder as it is now; files over the size cap (and nested repositories) skipped.
        Without `keep`, nothing names it (no ref, no commit: its id is its tree's): it is for a
        comparison now, and the next pruning drops what only it held."""
        _load_git()
        folder = self._folder(root)
        with self._shadow(folder) as repo:
            tree_id, skipped = snapshots.take(repo, folder, self.max_file_bytes)
            if not keep:
                return Snapshot("", tree_id, tree_id, int(time.time()), tuple(skipped))
            snapshot_id = secrets.token_hex(8)
            now = int(time.time())
            signature = pygit2.Signature(*AUTHOR, now, 0)
            commit = repo.create_commit(
                pruning.REFS + snapshot_id,
                signature,
                signature,
                _message(snapshot_id, folder, skipped),
                pygit2.Oid(hex=tree_id),
                [],
            )
        return Snapshot(snapshot_id, tree_id, str(commit), now, tuple(skipped))

    def differences(
        self, root: str | os.PathLike[str], before_id: str, after_id: str
    ) -> list[FileDifference]:
        """Each path changed from one snapshot (tree or commit id) to the other, once."""
        _load_git()
        folder = self._folder(root)
        with self._shadow(folder) as repo:
            try:
                return list(differences.between(repo, before_id, after_id))
            except (KeyError, ValueError, pygit2.GitError) as error:
                raise self._unknown(folder, f"{before_id}..{after_id}") from error

    def blob(self, root: str | os.PathLike[str], blob_id: str) -> bytes:
        """A stored file's bytes (a link's: its target), exactly as they were snapshotted."""
        _load_git()
        folder = self._folder(root)
        with self._shadow(folder) as repo:
            try:
                found = repo[blob_id]
            except (KeyError, ValueError) as error:
                raise self._unknown(folder, blob_id) from error
            if not isinstance(found, pygit2.Blob):
                raise self._unknown(folder, blob_id)
            return found.data

    def present(
        self, root: str | os.PathLike[str], snapshot_ids: Iterable[str], paths: Iterable[str]
    ) -> set[str]:
        """Which of these paths (relative, "/"-separated) one of these snapshots holds: what the
        checkpoints see (neither ignored nor skipped), as opposed to what they leave out."""
        _load_git()
        folder = self._folder(root)
        wanted = set(paths)
        found: set[str] = set()
        with self._shadow(folder) as repo:
            for snapshot_id in snapshot_ids:
                try:
                    tree = repo.revparse_single(snapshot_id).peel(pygit2.Tree)
                except (KeyError, ValueError, pygit2.GitError):
                    continue
                for path in wanted - found:
                    if path in tree:
                        found.add(path)
        return found

    def existing(self, root: str | os.PathLike[str], snapshot_ids: Iterable[str]) -> set[str]:
        """Which of these snapshots of the folder the store still holds (not cleared)."""
        _load_git()
        gitdir = gitdir_for(self.store_dir, os.path.realpath(root))
        if not (gitdir / "HEAD").is_file():
            return set()
        with _lock_for(gitdir):
            repo = open_gitdir(gitdir)
            try:
                return {i for i in snapshot_ids if pruning.REFS + i in repo.references}
            finally:
                repo.free()

    def count(self) -> tuple[int, int | None]:
        """How many snapshots the store holds, and when the oldest was taken (None: none)."""
        _load_git()
        total, oldest = 0, None
        for gitdir in self._gitdirs():
            with _lock_for(gitdir):
                repo = open_gitdir(gitdir)
                try:
                    for name in pruning.snapshot_refs(repo):
                        taken = repo.references[name].peel(pygit2.Commit).commit_time
                        total += 1
                        oldest = taken if oldest is None else min(oldest, taken)
                finally:
                    repo.free()
        return total, oldest

    def size_bytes(self) -> int:
        """What the whole store takes on disk (every folder's shadow repository)."""
        _load_git()
        return pruning.size_bytes(self.store_dir)

    def forget(self, root: str | os.PathLike[str], snapshot_ids: Iterable[str]) -> None:
        """Drops these snapshots of the folder and the objects nothing else keeps."""
        _load_git()
        gitdir = gitdir_for(self.store_dir, os.path.realpath(root))
        if not (gitdir / "HEAD").is_file():
            return
        with _lock_for(gitdir):
            repo = open_gitdir(gitdir)
            try:
                for snapshot_id in snapshot_ids:
                    name = pruning.REFS + snapshot_id
                    if name in repo.references:
                        repo.references.delete(name)
            finally:
                repo.free()
            pruning.prune(gitdir)

    def clear_older_than(self, cutoff: float, keep: Iterable[str] = ()) -> int:
        """Drops every snapshot taken before `cutoff` (seconds since the epoch), in every
        folder, but those named in `keep` (answers in progress), then the objects nothing
        keeps; how many snapshots went."""
        _load_git()
        kept = {pruning.REFS + snapshot_id for snapshot_id in keep}
        dropped = 0
        for gitdir in self._gitdirs():
            with _lock_for(gitdir):
                repo = open_gitdir(gitdir)
                try:
                    old = [
                        name
                        for name in pruning.snapshot_refs(repo)
                        if name not in kept
                        and repo.references[name].peel(pygit2.Commit).commit_time < cutoff
                    ]
                    for name in old:
                        repo.references.delete(name)
                finally:
                    repo.free()
                if old:
                    pruning.prune(gitdir)
                dropped += len(old)
        return dropped

    def remove_folder(self, root: str | os.PathLike[str]) -> None:
        """Drops a folder's shadow repository whole (its every snapshot and its stat cache)."""
        _load_git()
        gitdir = gitdir_for(self.store_dir, os.path.realpath(root))
        with _lock_for(gitdir):
            shutil.rmtree(gitdir, ignore_errors=True)

    def read(self, root: str | os.PathLike[str], work: Callable[[pygit2.Repository], T]) -> T:
        """`work` run on the folder's shadow repository under its lock (contents.py's reads)."""
        _load_git()
        with self._shadow(self._folder(root)) as repo:
            return work(repo)

    def gitdir(self, root: str | os.PathLike[str]) -> Path:
        """Where the folder's shadow repository is (it may not exist yet)."""
        _load_git()
        return gitdir_for(self.store_dir, os.path.realpath(root))

    @contextmanager
    def _shadow(self, folder: str) -> Iterator[pygit2.Repository]:
        _load_git()
        gitdir = gitdir_for(self.store_dir, folder)
        with _lock_for(gitdir):
            repo = open_shadow(gitdir, folder, self.ignored)
            try:
                yield repo
            finally:
                repo.free()  # closes its packs now (Windows cannot remove an open file)

    def _gitdirs(self) -> list[Path]:
        if not self.store_dir.is_dir():
            return []
        return sorted(path.parent for path in self.store_dir.glob("*/HEAD"))

    def _folder(self, root: str | os.PathLike[str]) -> str:
        _load_git()
        try:
            return real_folder(root)
        except OSError as error:
            raise CheckpointError(
                _("{path} is not a folder: no checkpoint of it").format(path=os.fspath(root))
            ) from error

    def _unknown(self, folder: str, what: str) -> CheckpointError:
        return CheckpointError(
            _("The checkpoints of {path} hold no {id}").format(path=folder, id=what)
        )


def _message(snapshot_id: str, folder: str, skipped: list[Skipped]) -> str:
    """The commit's message: the folder and what was skipped, for whoever reads the store later."""
    body = {
        "folder": folder,
        "skipped": [{"path": s.path, "size": s.size, "reason": s.reason} for s in skipped],
    }
    return f"Sidekicks checkpoint {snapshot_id}\n\n{json.dumps(body, ensure_ascii=False)}\n"
