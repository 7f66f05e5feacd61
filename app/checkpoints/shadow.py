"""One shadow repository per folder: a bare gitdir in the store, opened with the folder as its work
tree only in memory (libgit2's set_workdir without a gitlink), so that libgit2 reads the folder and
writes only in the gitdir: objects, refs, and its index — the folder's stat cache.

Nothing is ever written in the folder: no `.git` file or directory is made there, and the person's
own `.git` (if any) is neither opened nor walked (libgit2's work-tree walk skips `.git`).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Sequence
from pathlib import Path

import pygit2
from pygit2.enums import RepositoryOpenFlag

from app.core.atomic import write_bytes_atomic

# info/attributes wins over every .gitattributes of the folder: no end-of-line conversion, no
# filter, no `ident` expansion, so a stored blob is the file's bytes and a revert is byte-exact.
ATTRIBUTES = b"* -text -ident -filter -working-tree-encoding\n"
# The gitdir's own config wins over the person's global one (core.autocrlf=true there would
# change what is stored). Their core.excludesFile still applies, as it does to `git status`.
CONFIG = {"core.autocrlf": "false", "core.safecrlf": "false", "core.trustctime": "true"}
FOLDER_KEY = "sidekicks.folder"  # which folder a gitdir snapshots (for listing, never opened)


def real_folder(root: str | os.PathLike[str]) -> str:
    """The folder's real path: one shadow repository per folder, whatever link leads to it."""
    path = os.path.realpath(root)
    if not os.path.isdir(path):
        raise NotADirectoryError(path)
    return path


def gitdir_for(store_dir: Path, folder: str) -> Path:
    digest = hashlib.sha256(os.fsencode(folder)).hexdigest()
    return store_dir / digest[:16]


def open_gitdir(gitdir: Path) -> pygit2.Repository:
    """The shadow repository alone (no work tree): for pruning and reading objects."""
    flags = RepositoryOpenFlag.NO_SEARCH | RepositoryOpenFlag.BARE
    return pygit2.Repository(str(gitdir), flags)


def open_shadow(gitdir: Path, folder: str, ignored: Sequence[str]) -> pygit2.Repository:
    """The folder's shadow repository, made on first use, its work tree set to the folder."""
    if not (gitdir / "HEAD").is_file():
        gitdir.mkdir(parents=True, exist_ok=True)
        pygit2.init_repository(str(gitdir), bare=True)
        repo = open_gitdir(gitdir)
        for key, value in CONFIG.items():
            repo.config[key] = value
        repo.config[FOLDER_KEY] = folder
        _write_if_changed(gitdir / "info" / "attributes", ATTRIBUTES)
    else:
        repo = open_gitdir(gitdir)
    if _write_if_changed(gitdir / "info" / "exclude", exclude_text(ignored)):
        # Paths the old list let in stay in the index (tracked files are never ignored): start
        # the stat cache again so that the next snapshot follows the new list.
        (gitdir / "index").unlink(missing_ok=True)
    # pygit2's setter calls git_repository_set_workdir(repo, path, update_gitlink=0): in memory.
    repo.workdir = folder
    return repo


def exclude_text(ignored: Sequence[str]) -> bytes:
    lines = ["# Sidekicks' ignore list (checkpoints), on top of the folder's .gitignore files"]
    lines += [pattern.strip() for pattern in ignored if pattern.strip()]
    return ("\n".join(lines) + "\n").encode("utf-8")


def _write_if_changed(path: Path, data: bytes) -> bool:
    try:
        if path.read_bytes() == data:
            return False
    except FileNotFoundError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    write_bytes_atomic(path, data)
    return True
