"""Reading and validating configuration away from the core loop.

Validation parses YAML in pure Python: a maximal (1 MB) text takes up to a few seconds. On the
core loop that would hold every service; here one thread of its own does it, one text at a time
in the order asked, and the loop awaits the result, free to answer meanwhile. One thread, not one
per call: the editor validates as the user types, and parallel checks would only compete.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from app.config.files import FileMissing, read_config_bytes, read_config_text
from app.config.validate import Validation, validate_text
from app.core.errors import ConfigError
from app.i18n import _
from app.models.problems import Problem

T = TypeVar("T")


@dataclass(frozen=True)
class FileState:
    """What the configuration file holds now: its text (None when it cannot be read) and its
    validation, or a single problem saying why it cannot be used."""

    text: str | None
    validation: Validation


def deleted() -> Validation:
    return _one_problem(
        _("the file was deleted or moved; the last valid configuration stays in force")
    )


def _one_problem(message: str) -> Validation:
    return Validation([Problem(line=1, column=1, message=message)])


def read_file_state(path: Path, known: str | None) -> FileState | None:
    """The file's state, or None when it still holds `known` (our own save, or a touch)."""
    try:
        raw = read_config_bytes(path)
    except FileMissing:
        return FileState(None, deleted())
    except ConfigError as err:  # a folder, a pipe, too large, unreadable: say so
        return FileState(None, _one_problem(str(err)))
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        message = _("the file is not UTF-8 text; the last valid configuration stays in force")
        return FileState(raw.decode("utf-8", errors="replace"), _one_problem(message))
    if text == known:
        return None
    return FileState(text, validate_text(text, path.parent))


def read_openable(path: Path) -> tuple[str, Validation]:
    """The text and validation of a file that Open accepts: readable YAML whose top level is a
    mapping. A mapping with mistakes in it opens (the editor shows them); anything else raises."""
    text = read_config_text(path)
    validation = validate_text(text, path.parent)
    if validation.not_a_mapping:
        raise ConfigError(
            _(
                "{path} is not a Sidekicks configuration: its top level is not a YAML mapping"
            ).format(path=path)
        )
    return text, validation


class Checker:
    """The one thread that reads and validates; its methods are awaited on the core loop."""

    def __init__(self) -> None:
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sidekicks-config-check")

    async def text(self, text: str, base_dir: Path) -> Validation:
        return await self._run(lambda: validate_text(text, base_dir))

    async def file(self, path: Path, known: str | None) -> FileState | None:
        return await self._run(lambda: read_file_state(path, known))

    async def openable(self, path: Path) -> tuple[str, Validation]:
        return await self._run(lambda: read_openable(path))

    async def _run(self, work: Callable[[], T]) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._pool, work)

    def close(self) -> None:
        """Drops what is queued; a check under way ends on its own (it is bounded)."""
        self._pool.shutdown(wait=False, cancel_futures=True)
