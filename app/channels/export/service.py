"""ExportService (extension): a conversation as a document, and one message as Markdown, as the
page calls it. The stored messages are read a page at a time off the loop (reading.py); the
native save dialog is the window's (app/bridge installs it)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from app.channels.export import json_doc
from app.channels.export import markdown as export_markdown
from app.channels.export.reading import find_message, stored_messages
from app.channels.export.saving import default_name, write_document
from app.channels.parts import ChannelParts
from app.channels.reading import no_channel
from app.core.expose import exposed
from app.core.loop import LoopThread
from app.models.conversation import Channel, Message
from app.models.finding import ExportFormat

SaveChooser = Callable[[str], str]


def html_document(channel: Channel, messages: Iterable[Message]) -> Iterator[str]:
    # markdown-it loads with the first HTML export, not with the window (0.5 MB, 0.1-0.3 s).
    from app.channels.export import html_doc

    return html_doc.document(channel, messages)


EXPORTERS: dict[ExportFormat, Callable[[Channel, Iterable[Message]], Iterator[str]]] = {
    "markdown": export_markdown.document,
    "html": html_document,
    "json": json_doc.document,
}


class ExportService:
    def __init__(self, parts: ChannelParts, core: LoopThread) -> None:
        self._core = core
        self._registry = parts.registry
        self._publisher = parts.publisher
        self._save_chooser: SaveChooser = lambda name: ""  # headless: Export gives the text

    @exposed
    def Export(self, id: str, format: ExportFormat) -> str:
        """Extension: the whole conversation as Markdown, self-contained sanitized HTML or
        JSON text."""
        return "".join(self._export(id, format))

    @exposed
    def SaveExport(self, id: str, format: ExportFormat) -> str:
        """Extension: exports through the native save dialog; the path written ("" when
        cancelled)."""
        channel = self._channel(id)
        path = self._save_chooser(default_name(channel, format))
        return write_document(path, self._export(id, format, channel)) if path else ""

    @exposed
    def MessageMarkdown(self, id: str, messageId: str) -> str:
        """Extension: one message as Markdown (what "Copy" puts on the clipboard): its
        content without the author and time heading an export gives it."""
        view = self._publisher.view(id)  # read off the loop, as Conversation is
        if view is None:
            raise no_channel(id)
        return export_markdown.message_markdown(find_message(view, messageId))

    def _channel(self, channel_id: str) -> Channel:
        channels = self._core.call(self._registry.channels)
        found = next((channel for channel in channels if channel.id == channel_id), None)
        if found is None:
            raise no_channel(channel_id)
        return found.model_copy(deep=True)  # the loop's own may change meanwhile

    def _export(
        self, id: str, format: ExportFormat, channel: Channel | None = None
    ) -> Iterator[str]:
        """The document's pieces, the stored messages read a page at a time on this thread."""
        channel = channel or self._channel(id)
        view = self._publisher.view(channel.id)
        if view is None:
            raise no_channel(id)
        return EXPORTERS[format](channel, stored_messages(view.history, channel.id))

    def _set_save_chooser(self, chooser: SaveChooser) -> None:
        """The window installs the native save dialog here (tests install their own): given
        the file name to offer, the path chosen ("" when cancelled)."""
        self._save_chooser = chooser
