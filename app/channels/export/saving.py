"""Where an export goes: the file name the save dialog offers, and writing the document there
atomically (piece by piece into a temporary file beside it, then renamed: a failure leaves the
old file or none, never half of one)."""

from __future__ import annotations

import os
import re
import unicodedata
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
_UNSAFE = re.compile(r'[\x00-\x1f\x7f-\x9f<>:"/\\|?*]+')
# Names Windows keeps for devices, whatever the extension ("con.md" cannot be created).
_RESERVED = re.compile(r"(?:CON|PRN|AUX|NUL|CLOCK\$|CONIN\$|CONOUT\$|(?:COM|LPT)[0-9¹²³])", re.I)
NAME_MAX = 80  # characters of the channel's name
NAME_BYTES_MAX = 200  # and bytes: most file systems take 255, the date and extension follow
FALLBACK = "conversation"


def default_name(channel: Channel, format: ExportFormat) -> str:
    """`<channel-name>-<date>.<ext>` (the agent's name for a direct conversation), made safe."""
    date = datetime.now(UTC).strftime("%Y-%m-%d")
    return f"{safe_stem(channel.direct or channel.name)}-{date}.{EXTENSIONS[format]}"


def safe_stem(name: str) -> str:
    """`name` as the start of a file name on every system: unsafe and invisible characters
    replaced, no leading dot (a hidden file), no trailing dot or space (Windows drops them),
    not a device name, short enough; "conversation" when nothing is left."""
    name = unicodedata.normalize("NFC", name)
    # Format characters (bidirectional overrides, zero-width spaces) can make a name lie; the
    # zero-width joiner stays (it holds emoji sequences together).
    name = "".join(c for c in name if c == "\u200d" or unicodedata.category(c) != "Cf")
    name = "-".join(_UNSAFE.sub("-", name).split())
    name = _cut(re.sub(r"-{2,}", "-", name).strip(" .-"))
    if not name:
        return FALLBACK
    stem, dot, rest = name.partition(".")
    if _RESERVED.fullmatch(stem.rstrip(" ")):
        return f"{stem}-{FALLBACK}{dot}{rest}"
    return name


def _cut(name: str) -> str:
    name = name[:NAME_MAX]
    while len(name.encode("utf-8")) > NAME_BYTES_MAX:
        name = name[:-1]
    return name.rstrip(" .-")


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
