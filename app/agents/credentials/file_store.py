"""The owner-only file where secrets go when no keychain works.

`secrets.json` in a folder of its own made 0700, the file itself 0600, written atomically (a
0600 temporary file in the same folder, flushed, then renamed over the old one): a crash leaves
the old file or the new one, never half of one. On Windows the modes mean little: the file is
protected by the user profile's ACL (only the user and administrators can read it), like every
other file in the profile. A file that cannot be read as JSON is never overwritten: reading and
saving fail with a sentence that names it, so nothing it holds is lost.
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path

from app.core.atomic import write_bytes_atomic
from app.core.errors import UserError
from app.i18n import _

FILE_NAME = "secrets.json"


class FileStore:
    """Text values by key in one owner-only JSON file (also the store's non-secret index)."""

    def __init__(self, folder: Path, file_name: str = FILE_NAME) -> None:
        self.folder = folder
        self.path = folder / file_name

    def get(self, key: str) -> str | None:
        return self._read().get(key)

    def set(self, key: str, value: str) -> None:
        entries = self._read()
        entries[key] = value
        self._write(entries)

    def delete(self, key: str) -> None:
        entries = self._read()
        if entries.pop(key, None) is not None:
            self._write(entries)

    def _read(self) -> dict[str, str]:
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return {}
        except OSError as err:
            raise UserError(self._damaged(err.strerror or type(err).__name__)) from None
        try:
            entries = json.loads(text)
        except ValueError:
            entries = None
        if not isinstance(entries, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in entries.items()
        ):
            raise UserError(self._damaged(_("it is not the JSON Sidekicks wrote")))
        return entries

    def _damaged(self, why: str) -> str:
        return _("the saved sign-in values in {path} cannot be read ({why}); fix or delete the "
                 "file, then sign in again").format(path=self.path, why=why)  # fmt: skip

    def _write(self, entries: dict[str, str]) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        with contextlib.suppress(OSError):
            os.chmod(self.folder, 0o700)
        write_bytes_atomic(self.path, json.dumps(entries).encode("utf-8"), mode=0o600)
