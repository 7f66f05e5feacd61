"""Files and images the person attaches to a message (issue 15), staged per channel until Send.

A chosen or dropped file stays where it is: the message keeps its absolute path, and the agents
read it when the message is sent to them. A pasted image (base64 from the page) is written to
`<data folder>/attachments/<channel>/<id>.<ext>` (the configuration's data folder, beside its
history): history records keep paths, never bytes, and the folder goes with the channel.
"""

from __future__ import annotations

import base64
import binascii
import logging
import mimetypes
import os
import re
import shutil
from pathlib import Path

from app.acp.prompts import IMAGE_LIMIT, PromptFile
from app.core.atomic import write_bytes_atomic
from app.core.errors import UserError
from app.core.ids import new_id
from app.core.regular_files import FileRefused, opened_regular, read_regular, real_file
from app.i18n import _
from app.models.conversation import Attachment, Message

log = logging.getLogger(__name__)

FOLDER = "attachments"
STAGED_PER_CHANNEL = 20  # attachments waiting for one message
IMAGE_MAGIC = {
    "image/png": (".png", (b"\x89PNG\r\n\x1a\n",)),
    "image/jpeg": (".jpg", (b"\xff\xd8\xff",)),
    "image/gif": (".gif", (b"GIF87a", b"GIF89a")),
    "image/webp": (".webp", (b"RIFF",)),  # and "WEBP" at offset 8: checked below
}
_ID = re.compile(r"^[0-9A-Z]{26}$")


def attachment_kind(mime: str) -> str:
    return "image" if mime in IMAGE_MAGIC else "file"


def prompt_file(attachment: Attachment) -> PromptFile:
    return PromptFile(
        attachment.path,
        attachment.name,
        attachment.mime,
        attachment.size,
        attachment.kind == "image",
    )


def image_mime(data: bytes) -> str:
    """The image type its first bytes say ("" when none of the four)."""
    for mime, (_ext, magics) in IMAGE_MAGIC.items():
        if any(data.startswith(magic) for magic in magics):
            if mime == "image/webp" and data[8:12] != b"WEBP":
                continue
            return mime
    return ""


class Attachments:
    """The staged attachments of each channel, and the images kept in the data folder."""

    def __init__(self) -> None:
        self.folder: Path | None = None  # the configuration's data folder (None: no history)
        self._staged: dict[str, dict[str, Attachment]] = {}

    def open(self, folder: Path | None) -> None:
        """Another configuration's data folder; what was staged for the last one goes."""
        self.folder = folder
        self._staged = {}

    # ---- staging -----------------------------------------------------------------------------

    def stage_file(self, channel: str, attachment: Attachment) -> Attachment:
        """A file `inspect_file` found (read off the loop), staged for the next message."""
        return self._stage(channel, attachment)

    def stage_image(self, channel: str, name: str, mime: str, data: str) -> Attachment:
        if mime not in IMAGE_MAGIC:
            raise UserError(
                _("only PNG, JPEG, GIF and WebP images can be attached, not “{mime}”").format(
                    mime=mime
                )
            )
        if len(data) > (IMAGE_LIMIT * 4) // 3 + 4:
            raise UserError(_("this image is too big: 10 MB at most"))
        try:
            raw = base64.b64decode(data, validate=True)
        except (binascii.Error, ValueError):
            raise UserError(_("the image's data is not valid base64")) from None
        if len(raw) > IMAGE_LIMIT:
            raise UserError(_("this image is too big: 10 MB at most"))
        if image_mime(raw) != mime:
            raise UserError(_("this data is not a {mime} image").format(mime=mime))
        if self.folder is None:
            raise UserError(_("images cannot be kept: this configuration has no data folder"))
        attachment_id = new_id()
        target = self._channel_folder(channel) / f"{attachment_id}{IMAGE_MAGIC[mime][0]}"
        write_bytes_atomic(target, raw)
        safe_name = os.path.basename(name.replace("\\", "/")).strip() or target.name
        attachment = Attachment(
            id=attachment_id,
            kind="image",
            name=safe_name[:200],
            path=str(target),
            mime=mime,
            size=len(raw),
        )
        return self._stage(channel, attachment)

    def _stage(self, channel: str, attachment: Attachment) -> Attachment:
        staged = self._staged.setdefault(channel, {})
        if len(staged) >= STAGED_PER_CHANNEL:
            self._discard_file(channel, attachment)
            raise UserError(
                _("{count} attachments at most for one message").format(count=STAGED_PER_CHANNEL)
            )
        staged[attachment.id] = attachment
        return attachment

    def unstage(self, channel: str, attachment_id: str) -> None:
        """The person removed it before sending: a pasted image's file goes too."""
        attachment = self._staged.get(channel, {}).pop(attachment_id, None)
        if attachment is not None:
            self._discard_file(channel, attachment)

    def staged(self, channel: str, ids: list[str]) -> list[Attachment]:
        """The staged attachments with these ids, checked: refused (nothing taken) if one is
        unknown or its file is gone."""
        staged = self._staged.get(channel, {})
        unknown = [i for i in ids if i not in staged]
        if unknown:
            raise UserError(
                _("unknown attachment {id}: attach the file again").format(id=unknown[0])
            )
        chosen = [staged[i] for i in dict.fromkeys(ids)]
        for attachment in chosen:
            if not os.path.isfile(attachment.path):
                raise UserError(
                    _(
                        "{path} no longer exists: remove it from the message or attach it again"
                    ).format(path=attachment.path)
                )
        return chosen

    def taken(self, channel: str, attachments: list[Attachment]) -> None:
        """Sent: no longer staged (the message keeps them)."""
        staged = self._staged.get(channel, {})
        for attachment in attachments:
            staged.pop(attachment.id, None)

    def find_staged(self, channel: str, attachment_id: str) -> Attachment | None:
        return self._staged.get(channel, {}).get(attachment_id)

    # ---- images' bytes for the page ----------------------------------------------------------

    def data_url(self, attachment: Attachment) -> str:
        """The image as a data: URL (the page's CSP allows no file: URL). Read on the caller's
        thread, as an attachment is read for an agent: a pipe or a link put in its place is
        refused at once."""
        if attachment.kind != "image" or attachment.mime not in IMAGE_MAGIC:
            raise UserError(_("{name} is not an image").format(name=attachment.name))
        try:
            raw = read_regular(attachment.path, IMAGE_LIMIT, follow_links=False)
        except FileRefused as refused:
            if refused.problem == "not_found":
                raise UserError(_("{path} no longer exists").format(path=attachment.path)) from None
            if refused.problem != "too_large":
                raise UserError(str(refused)) from None
            raw = b""  # said below: not the image attached
        if not raw or image_mime(raw) != attachment.mime:
            raise UserError(
                _("{name} is no longer the image attached").format(name=attachment.name)
            )
        return f"data:{attachment.mime};base64,{base64.b64encode(raw).decode('ascii')}"

    # ---- deletion ----------------------------------------------------------------------------

    def delete_channel(self, channel: str) -> None:
        """The channel is deleted: its staged attachments and its images' folder go."""
        self._staged.pop(channel, None)
        if self.folder is None or not _ID.match(channel):
            return
        folder = self.folder / FOLDER / channel
        try:
            shutil.rmtree(folder)
        except FileNotFoundError:
            pass
        except OSError:
            log.warning("could not delete the images of a deleted channel", exc_info=True)

    def _channel_folder(self, channel: str) -> Path:
        assert self.folder is not None
        if not _ID.match(channel):
            raise UserError(_("this conversation cannot keep images"))
        folder = self.folder / FOLDER / channel
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        return folder

    def _discard_file(self, channel: str, attachment: Attachment) -> None:
        """Deletes a pasted image's file (never a file of the person's)."""
        if self.folder is None or attachment.kind != "image":
            return
        path = Path(attachment.path)
        if path.parent == self.folder / FOLDER / channel:
            path.unlink(missing_ok=True)


def inspect_file(path: str) -> Attachment:
    """A file of the person's as an attachment (not staged yet): read as an agent's `fs` read is
    (app/core/regular_files.py), on the caller's thread, never the core loop's. A link the
    person chose is kept as the file it points to, so that a link found there later is not
    followed; a pipe, a device or a folder is refused with why."""
    if not path or "\x00" in path or not os.path.isabs(path):
        raise UserError(_("attach a file by its absolute path, not “{path}”").format(path=path))
    chosen = os.path.normpath(path)
    real = str(real_file(chosen))
    mime = mimetypes.guess_type(chosen, strict=False)[0] or ""
    try:
        with opened_regular(real, follow_links=False) as opened:
            size = opened.info.st_size
            if attachment_kind(mime) == "image" and size <= IMAGE_LIMIT:
                # an image in name only is attached as a file
                mime = image_mime(opened.head(16)) or "application/octet-stream"
    except FileRefused as refused:
        raise UserError(_attach_refusal(refused)) from None
    return Attachment(
        id=new_id(),
        kind="image" if attachment_kind(mime) == "image" else "file",
        name=os.path.basename(chosen),
        path=real,
        mime=mime,
        size=size,
    )


def _attach_refusal(refused: FileRefused) -> str:
    path = refused.path
    if refused.problem == "not_found":
        return _("{path} does not exist").format(path=path)
    if refused.problem in ("folder", "not_regular"):
        return _("{path} is not a file (only files can be attached)").format(path=path)
    if refused.problem == "denied":
        return _("{path} cannot be read (permission denied)").format(path=path)
    return str(refused)


def find_in_messages(messages: list[Message], attachment_id: str) -> Attachment | None:
    for message in messages:
        for attachment in message.attachments:
            if attachment.id == attachment_id:
                return attachment
    return None
