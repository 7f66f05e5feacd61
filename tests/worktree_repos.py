"""Real Git repositories for the worktree tests (issue 28), made with pygit2: a folder with
files committed once."""

from __future__ import annotations

from pathlib import Path

import pygit2

SIGNATURE = pygit2.Signature("Test", "test@example.invalid")


def committed(folder: Path, files: dict[str, str]) -> pygit2.Repository:
    """`folder` made a repository whose one commit holds `files` (path -> text)."""
    folder.mkdir(parents=True, exist_ok=True)
    repo = pygit2.init_repository(str(folder))
    for name, text in files.items():
        target = folder / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
        repo.index.add(name)
    repo.index.write()
    tree = repo.index.write_tree()
    repo.create_commit("HEAD", SIGNATURE, SIGNATURE, "first", tree, [])
    return repo
