"""The rules of the person's text files for an agent (ACP `fs/*`): absolute paths, UTF-8 only,
`line`/`limit` windows, versions. The file work itself goes through a checked location
(located.py, located_io.py).

Every failure is a `WorkspaceError` whose sentence names the path: it is what the agent reads.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

from app.acp.workspace import WorkspaceError
from app.i18n import _

# A text file an agent reads whole travels as one JSON-RPC line: past this, it is refused
# rather than held several times in memory (bytes, text, JSON).
MAX_READ_BYTES = 100_000_000


@dataclass(frozen=True, slots=True)
class Version:
    """What a file held when an agent read or wrote it: compared to see if it changed since."""

    sha256: str
    size: int

    @staticmethod
    def of(data: bytes) -> Version:
        return Version(hashlib.sha256(data).hexdigest(), len(data))


def absolute(path: str) -> Path:
    """The agent's path, which ACP requires to be absolute (a relative one would depend on a
    working folder the agent and Sidekicks may not share)."""
    if not path or "\x00" in path or not os.path.isabs(path):
        raise WorkspaceError(
            "invalid", _("{path} is not an absolute path: give the full path").format(path=path)
        )
    return Path(os.path.normpath(path))


def decode(path: Path, data: bytes) -> str:
    """The text of a UTF-8 file; a binary file or another encoding is refused by name."""
    if b"\x00" in data:
        raise WorkspaceError(
            "invalid", _("{path} is a binary file, not a text file").format(path=path)
        )
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise WorkspaceError(
            "invalid",
            _("{path} is not UTF-8 text (invalid byte at offset {offset})").format(
                path=path, offset=error.start
            ),
        ) from None


def window(text: str, line: int | None, limit: int | None) -> str:
    """`limit` lines from `line` (1-based), as ACP defines them; the whole text by default."""
    if line is not None and line < 1:
        raise WorkspaceError("invalid", _("line must be 1 or more, not {line}").format(line=line))
    if limit is not None and limit < 0:
        raise WorkspaceError(
            "invalid", _("limit must be 0 or more, not {limit}").format(limit=limit)
        )
    if line is None and limit is None:
        return text
    lines = text.splitlines(keepends=True)
    start = (line or 1) - 1
    end = len(lines) if limit is None else start + limit
    return "".join(lines[start:end])


def _read_umask() -> int:
    # Read once, at import: setting it back and forth later would race with other threads.
    current = os.umask(0o022)
    os.umask(current)
    return current


_UMASK = _read_umask()


def umask() -> int:
    """The process's umask, as it was at start (the mode a new file gets)."""
    return _UMASK
