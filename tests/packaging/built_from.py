"""What a build of scripts/package was made from, so that a run on an unchanged tree reuses it.

The package takes minutes to build and is made only of the project's files and the venv's
packages: a digest of every file it can be built from (tracked or new, not ignored; tests, docs,
benchmarks and prose left out) and of the venv's packaging stamp says whether dist/ is still what
a build would make. scripts/package is then not run again; any change to those files, or a
dist/ without the stamp (built by hand, or half-built), means a new build.
"""

from __future__ import annotations

import hashlib
import subprocess
from pathlib import Path

STAMP = ".built-from"
NOT_PACKAGED = ("tests/", "docs/", "bench/", ".ci/", ".github/", "scripts/test")  # test-only


def package_inputs(root: Path) -> list[str]:
    """The files a build reads, relative to `root` ([] outside a git checkout: always build)."""
    try:
        listed = subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            cwd=root,
            capture_output=True,
            check=True,
            timeout=60,
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return []
    names = {name for name in listed.decode("utf-8", "surrogateescape").split("\0") if name}
    kept = (n for n in names if not n.startswith(NOT_PACKAGED) and not n.endswith(".md"))
    return sorted(kept)


def digest(root: Path, venv_stamp: Path) -> str:
    """A digest of the build's inputs ("" when they cannot be listed: never reuse)."""
    names = package_inputs(root)
    if not names:
        return ""
    hashed = hashlib.sha256()
    for name in [*names, str(venv_stamp.relative_to(root))]:
        path = root / name
        hashed.update(name.encode("utf-8", "surrogateescape") + b"\0")
        if path.is_file():  # a tracked file deleted in the tree counts as gone
            hashed.update(hashlib.sha256(path.read_bytes()).digest())
    return hashed.hexdigest()


def still_current(dist: Path, wanted: str) -> bool:
    stamp = dist / STAMP
    return bool(wanted) and stamp.is_file() and stamp.read_text(encoding="utf-8") == wanted


def remember(dist: Path, made_from: str) -> None:
    if made_from:
        (dist / STAMP).write_text(made_from, encoding="utf-8")
