"""The configuration files opened from the app, most recent first (8 at most), across runs."""

from __future__ import annotations

import json
import logging
from pathlib import Path

from app.core.atomic import write_atomic
from app.paths import recent_file_path

log = logging.getLogger(__name__)
MAX_RECENT = 8


def _read_all() -> list[str]:
    path = recent_file_path()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return []
    except (OSError, ValueError) as err:
        log.warning("ignoring unreadable %s: %s", path, err)
        return []
    if not isinstance(data, list):
        return []
    return [p for p in data if isinstance(p, str)]


def recent() -> list[str]:
    """Recent files that still exist (a missing one is skipped, not forgotten)."""
    return [p for p in _read_all() if Path(p).is_file()][:MAX_RECENT]


def remember(path: Path) -> None:
    entry = str(path)
    entries = [entry, *(p for p in _read_all() if p != entry)][: MAX_RECENT * 2]
    target = recent_file_path()
    target.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(target, json.dumps(entries, indent=1) + "\n")
