"""Where an export goes: the file name the save dialog offers, and writing the document there
atomically (piece by piece into a temporary file beside it, then renamed: a failure leaves the
old file or none, never half of one)."""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from datetime import UTC, datetime
from pathlib import Path

from app.core.atomic import replace_file
from app.core.errors import UserError
from app.core.temp_files import created_beside
from app.i18n import _
from app.models.conversation import Channel
from app.models.finding import ExportFormat

EXTENSIONS: dict[ExportFormat, str] = {"markdown": "md", "html": "html", "json": "json"}
# Characters no file system takes, or that a shell or a dialog would misread.
_UNSAFE = re.compile(r'[\x00-\x1f\x7f<>:"/\\|?*]+')
NAME_MAX = 80


def default_name(channel: Channel, format: ExportFormat) -> str:
    """`<channel-name>-<date>.<ext>` (the agent's name for a direct conversation), made safe."""
    base = channel.direct or channel.name or "conversation"
    base = _UNSAFE.sub("-", base).strip(" .-") or "conversation"
    base = "-".join(base.split())[:NAME_MAX]
    date = datetime.now(UTC).strftime("%Y-%m-%d")
    return f"{base}-{date}.{EXTENSIONS[format]}"


def write_document(path: str, pieces: Iterable[str]) -> str:
    """Writes the pieces to `path` (absolute), atomically; the path written. A folder that
    cannot be written to, a missing one or a full disk is a UserError saying so."""
    target = Path(path).expanduser()
    if not target.is_absolute():
        raise UserError(_("the export needs a full path, not {path}").format(path=path))
    if target.is_dir():
        raise UserError(_("{path} is a folder").format(path=str(target)))
    try:
        _write(target, pieces)
    except OSError as err:
        reason = err.strerror or str(err)
        raise UserError(
            _("could not save the export to {path}: {reason}").format(
                path=str(target), reason=reason
            )
        ) from err
    return str(target)


def _write(target: Path, pieces: Iterable[str]) -> None:
    # The temporary file is listed until renamed: a killed app's is removed at the next start.
    with created_beside(target) as (out, temporary):
        for piece in pieces:
            out.write(piece.encode("utf-8"))
        out.flush()
        os.fsync(out.fileno())
        out.close()
        os.chmod(temporary, 0o644)  # made private; an export is an ordinary file
        replace_file(temporary, target)
