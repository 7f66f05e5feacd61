"""ExportService (extension): a conversation as a document, and one message as Markdown, as the
page calls it. The stored messages are read a page at a time off the loop (reading.py); the
native save dialog is the window's (app/bridge installs it)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING

from app.channels.parts import ChannelParts
from app.channels.reading import no_channel
from app.core.expose import exposed
from app.core.lazy import LazyModule
from app.core.loop import LoopThread
from app.models.conversation import Channel, Message
from app.models.finding import ExportFormat

if TYPE_CHECKING:
    from app.channels.export import html_doc, json_doc, reading, saving
    from app.channels.export import markdown as export_markdown
else:
    # The exporters load with the first export or copied message, not with the window
    # (issue 29, memory: ~0.2 MB; markdown-it for HTML 0.5 MB more, 0.1-0.3 s).
    html_doc = LazyModule("app.channels.export.html_doc")
    json_doc = LazyModule("app.channels.export.json_doc")
    reading = LazyModule("app.channels.export.reading")
    saving = LazyModule("app.channels.export.saving")
    export_markdown = LazyModule("app.channels.export.markdown")

SaveChooser = Callable[[str], str]
Exporter = Callable[[Channel, Iterable[Message]], Iterator[str]]
EXPORTERS: dict[ExportFormat, Callable[[], Exporter]] = {
    "markdown": lambda: export_markdown.document,
    "html": lambda: html_doc.document,
    "json": lambda: json_doc.document,
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
        path = self._save_chooser(saving.default_name(channel, format))
        return saving.write_document(path, self._export(id, format, channel)) if path else ""

    @exposed
    def MessageMarkdown(self, id: str, messageId: str) -> str:
        """Extension: one message as Markdown (what "Copy" puts on the clipboard): its
        content without the author and time heading an export gives it."""
        view = self._publisher.view(id)  # read off the loop, as Conversation is
        if view is None:
            raise no_channel(id)
        return export_markdown.message_markdown(reading.find_message(view, messageId))

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
        return EXPORTERS[format]()(channel, reading.stored_messages(view.history, channel.id))

    def _set_save_chooser(self, chooser: SaveChooser) -> None:
        """The window installs the native save dialog here (tests install their own): given
        the file name to offer, the path chosen ("" when cancelled)."""
        self._save_chooser = chooser
