"""AttachmentService (extension): files and images to send with the next message, as the page
calls it. Staging, pasted images' copies and data URLs are attachments.py's; the native file
chooser and the paths of dropped files are the window's (app/bridge installs them)."""

from __future__ import annotations

from collections.abc import Callable

from app.channels.attachments import find_in_messages, inspect_file
from app.channels.parts import ChannelParts
from app.core.errors import UserError
from app.core.expose import exposed
from app.core.loop import LoopThread
from app.i18n import _
from app.models.conversation import Attachment

FilesChooser = Callable[[], list[str]]
DropLocator = Callable[[list[str]], list[str]]


class AttachmentService:
    def __init__(self, parts: ChannelParts, core: LoopThread) -> None:
        self._core = core
        self._registry = parts.registry
        self._attachments = parts.attachments
        self._file_chooser: FilesChooser = lambda: []  # headless: no window for a dialog
        self._dropped_paths: DropLocator = lambda names: []

    @exposed
    def AttachFile(self, id: str, path: str) -> Attachment:
        """Extension: a file of the person's (absolute path) to send with the next message."""
        attachment = inspect_file(path)  # read here, not on the loop
        return self._core.call(
            lambda: self._attachments.stage_file(self._registry.get(id).id, attachment)
        )

    @exposed
    def AttachImage(self, id: str, name: str, mime: str, data: str) -> Attachment:
        """Extension: an image (base64 `data`, pasted or dropped) kept in the data folder, to
        send with the next message."""
        return self._core.call(
            lambda: self._attachments.stage_image(self._registry.get(id).id, name, mime, data)
        )

    @exposed
    def ChooseFiles(self) -> list[str]:
        """Extension: shows the native chooser for files to attach; their absolute paths ([]
        when cancelled). Attach each with AttachFile."""
        return list(self._file_chooser())

    @exposed
    def RemoveAttachment(self, id: str, attachmentId: str) -> None:
        """Extension: takes back an attachment not sent yet (a pasted image's copy goes)."""
        self._core.call(lambda: self._attachments.unstage(self._registry.get(id).id, attachmentId))

    @exposed
    def AttachmentData(self, id: str, attachmentId: str) -> str:
        """Extension: an attached image of this conversation as a `data:` URL, to show it."""
        attachment = self._core.call(lambda: self._find(id, attachmentId))
        return self._attachments.data_url(attachment)  # read here, not on the loop

    def _find(self, channel_id: str, attachment_id: str) -> Attachment:
        """A staged attachment of the channel's, or one of its messages' (newest first)."""
        state = self._registry.get(channel_id)
        history = self._registry.history
        found = self._attachments.find_staged(channel_id, attachment_id)
        found = found or find_in_messages(state.queue_view(), attachment_id)
        messages, more = history.last_messages(channel_id)
        while found is None:
            found = find_in_messages(messages, attachment_id)
            if found is not None or not more or not messages:
                break
            messages, more = history.messages_before(channel_id, messages[0].id)
        if found is None:
            raise UserError(_("no such attachment in this conversation"))
        return found

    @exposed
    def DroppedPaths(self, names: list[str]) -> list[str]:
        """Extension: the full paths of the files just dropped on the window with these names
        ("" for each the window could not locate: the page then reads its bytes)."""
        found = self._dropped_paths(names)
        return [found[i] if i < len(found) else "" for i in range(len(names))]

    def _set_files_chooser(self, chooser: FilesChooser) -> None:
        """The window installs the native dialog here (tests install their own)."""
        self._file_chooser = chooser

    def _set_dropped_paths(self, provider: DropLocator) -> None:
        """The window installs what reads the native drops' paths (app/bridge/dropped_paths.py)."""
        self._dropped_paths = provider
