"""Sidekicks' own files, which are never an agent's folder (issue 24): an agent that wrote the
configuration could give itself `folders: ["/"]`, and the secrets and the history are the
person's, not the agents'.

- Writes are refused (not asked) in `<user config dir>/sidekicks/` (the default configuration,
  the data folders with the histories, the run records, the window state, the secrets), in the
  secrets folder wherever it is, and to the open configuration file wherever it is — even when
  one of those lies inside an agent's folders (an agent working in the home folder).
- Reads are refused in the secrets folder and the data folders (histories, search indexes).
  The configuration stays readable: the person may ask an agent to help with it.
- A file reached through a hard link is the file itself: a read of one whose inode is one of
  the refused files' is refused too (a write cannot reach one: it replaces the name, never the
  file it linked to).

Paths are compared case-folded: on macOS and Windows the same folder has many spellings, and
refusing a path that differs from one of these only by case on Linux costs nothing.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path

from app.acp.workspace import WorkspaceError
from app.i18n import _
from app.paths import app_config_dir, secrets_dir

# A data folder holds a few files per configuration: a bound on what an inode check lists.
_MOST_FILES_LISTED = 10_000
# The isolated members' worktrees in a data folder (app/workspace/worktrees/isolation.py): the
# person's repositories checked out, not Sidekicks' files; the inode check does not list them.
WORKTREES = "worktrees"


def _real(path: Path) -> Path:
    return Path(os.path.realpath(path))


def _folded(path: Path) -> str:
    return os.path.normcase(str(path)).casefold()


def _within(path: Path, folders: Iterable[Path]) -> Path | None:
    folded = _folded(path)
    for folder in folders:
        top = _folded(folder)
        if folded == top or folded.startswith(top.rstrip(os.sep) + os.sep):
            return folder
    return None


@dataclass(frozen=True)
class AppFiles:
    no_writes: tuple[Path, ...]
    no_reads: tuple[Path, ...]
    # The one worktree of the data folder this session works in (issue 28): the agent's, not
    # Sidekicks'; every other file of the data folder stays refused.
    own: tuple[Path, ...] = ()

    @classmethod
    def of(cls, config_path: Path | None) -> AppFiles:
        """The app's files now (the environment names the folders; `config_path` is the
        configuration open, None before one is)."""
        app = _real(app_config_dir())
        secrets = _real(secrets_dir())
        writes = [app, secrets] + ([_real(config_path)] if config_path is not None else [])
        return cls(no_writes=tuple(writes), no_reads=(secrets, app / "data"))

    def owning(self, folder: Path) -> AppFiles:
        """These files, but `folder` (an isolated member's worktree) is the agent's."""
        return replace(self, own=(_real(folder),))

    def check_write(self, real: Path) -> None:
        if _within(real, self.own) is None and _within(real, self.no_writes) is not None:
            raise WorkspaceError(
                "refused",
                _(
                    "writing {path} was refused: it is one of Sidekicks' own files "
                    "(its configuration, history or secrets), which agents never write"
                ).format(path=real),
            )

    def check_read(self, real: Path, opened: os.stat_result | None = None) -> None:
        """Refuses a read in the secrets or the data folders; with `opened` (the fstat of the
        file opened), also a hard link elsewhere to one of their files."""
        refused = _within(real, self.no_reads) is not None and _within(real, self.own) is None
        if not refused and opened is not None and opened.st_nlink > 1:
            refused = (opened.st_dev, opened.st_ino) in self._refused_inodes()
        if refused:
            raise WorkspaceError(
                "refused",
                _(
                    "reading {path} was refused: it is one of Sidekicks' own files (its history "
                    "or secrets), which agents never read"
                ).format(path=real),
            )

    def _refused_inodes(self) -> set[tuple[int, int]]:
        found: set[tuple[int, int]] = set()
        listed = 0
        for folder in self.no_reads:
            for top, dirs, names in os.walk(folder):
                dirs[:] = [d for d in dirs if d != WORKTREES]
                for name in names:
                    listed += 1
                    if listed > _MOST_FILES_LISTED:
                        return found
                    try:
                        info = os.stat(os.path.join(top, name), follow_symlinks=False)
                    except OSError:
                        continue
                    found.add((info.st_dev, info.st_ino))
        return found
