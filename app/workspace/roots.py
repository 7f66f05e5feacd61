"""The folders an agent may write in without asking: its `cwd` and the `folders:` the
configuration lists for it. Paths are compared resolved (symbolic links and `..`), so neither can
lead a write out of them; a write compares the real path its walk opened (`hold`)."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path


def resolved(path: Path) -> Path:
    """The path with every symbolic link and `..` resolved (missing parts kept as written)."""
    return Path(os.path.realpath(path))


class Roots:
    def __init__(self, folders: Iterable[Path]) -> None:
        self.folders = tuple(dict.fromkeys(resolved(f) for f in folders))

    def contain(self, path: Path) -> bool:
        """Whether `path`, resolved now, is inside one of the folders."""
        return self.hold(resolved(path))

    def hold(self, real: Path) -> bool:
        """Whether `real`, a path already resolved (located.py), is inside one of the folders.
        It is not resolved again: what a link on it leads to now may not be what was opened."""
        return any(real == folder or real.is_relative_to(folder) for folder in self.folders)
