"""ChannelService (SPEC §4 `ChannelService`), as the page calls it."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from app.attention.tracker import AttentionTracker
from app.channels.engine import ChannelEngine
from app.channels.export import html_doc, json_doc
from app.channels.export import markdown as export_markdown
from app.channels.export.reading import find_message, stored_messages
from app.channels.export.saving import default_name, write_document
from app.channels.reading import (
    Conversation,
    Page,
    no_channel,
    read_around,
    read_conversation,
    read_newer,
    read_older,
)
from app.channels.resending import find_kept
from app.core.expose import exposed
from app.core.loop import LoopThread
from app.events.payloads import PermissionRequested
from app.models.changes import FileChange
from app.models.conversation import Attachment, Channel, Command, Message
from app.models.finding import (
    AroundPage,
    AttentionCounts,
    ExportFormat,
    NewerPage,
    PermissionRule,
    SearchResults,
)
from app.models.sessions import MemberSession
from app.models.wire import WireJson

# Delete and Cancel wait for the agent to stop answering (an agent ignoring cancel: ~10 s);
# Prepare may start agents (30 s handshake each, in parallel) and open their sessions.
STOP_TIMEOUT = 20.0
PREPARE_TIMEOUT = 180.0

FilesChooser = Callable[[], list[str]]
SaveChooser = Callable[[str], str]
EXPORTERS: dict[ExportFormat, Callable[[Channel, Iterable[Message]], Iterator[str]]] = {
    "markdown": export_markdown.document,
    "html": html_doc.document,
    "json": json_doc.document,
}


class ChannelService:
    def __init__(self, engine: ChannelEngine, core: LoopThread) -> None:
        self._engine = engine
        self._core = core
        self._file_chooser: FilesChooser = lambda: []  # headless: no window for a dialog
        self._save_chooser: SaveChooser = lambda name: ""  # headless: Export gives the text
        self._dropped_paths: Callable[[list[str]], list[str]] = lambda names: []

    @exposed
    def List(self) -> list[Channel]:
        """All channels and direct conversations, oldest to newest."""
        return self._core.call(self._engine.channels)

    @exposed
    def Create(self, name: str, description: str = "", members: list[str] | None = None) -> Channel:
        """Creates a channel; a name already taken (ignoring case) or empty is an error.
        Extension (issue 17): `members` are invited at once (each shows `agent-joined`)."""
        return self._core.call(lambda: self._engine.create(name, description, members or []))

    @exposed
    def Rename(self, id: str, name: str, description: str = "") -> Channel:
        """Renames a channel (not a direct conversation)."""
        return self._core.call(lambda: self._engine.rename(id, name, description))

    @exposed
    def Delete(self, id: str) -> None:
        """Stops its answers, then deletes the channel and all its history."""
        self._core.run(self._engine.delete(id), timeout=STOP_TIMEOUT)

    @exposed
    def AddMember(self, id: str, agent: str) -> Channel:
        """Invites an agent; the channel shows `agent-joined`."""
        return self._core.call(lambda: self._engine.add_member(id, agent))

    @exposed
    def RemoveMember(self, id: str, agent: str) -> Channel:
        """Removes an agent; the channel shows `agent-left`."""
        return self._core.run(self._engine.remove_member(id, agent), timeout=STOP_TIMEOUT)

    @exposed
    def Direct(self, agent: str) -> Channel:
        """The direct conversation with `agent`, created the first time."""
        return self._core.call(lambda: self._engine.direct(agent))

    @exposed
    def Send(self, id: str, text: str, attachments: list[str] | None = None) -> str:
        """Adds a user message and returns its id; it waits (queued) if the channel answers.
        Extension: `attachments` are ids from AttachFile/AttachImage, sent with the text."""
        return self._core.call(lambda: self._engine.send(id, text, attachments))

    @exposed
    def Cancel(self, id: str) -> None:
        """Stops the current answer, the agents still due and the queued messages."""
        self._core.run(self._engine.cancel(id), timeout=STOP_TIMEOUT)

    @exposed
    def AnswerPermission(self, id: str, optionId: str) -> None:
        """Answers a pending permission request with one of its options."""
        self._core.call(lambda: self._engine.answer_permission(id, optionId))

    @exposed
    def Conversation(self, id: str) -> WireJson[Conversation]:
        """The channel, its last 100 messages and whether there are more, its turn, usage and
        pending permission requests."""
        return read_conversation(self._engine, id)  # on this thread: see app/channels/reading.py

    @exposed
    def Older(self, id: str, beforeId: str) -> WireJson[Page]:
        """The 100 messages before `beforeId`."""
        return read_older(self._engine, id, beforeId)

    @exposed
    def Commands(self, agent: str) -> list[Command]:
        """The agent's last announced slash commands, kept from one launch to the next."""
        return self._core.call(lambda: self._engine.commands(agent))

    @exposed
    def Prepare(self, id: str) -> None:
        """Starts the members that never announced commands and opens their sessions."""
        self._core.run(self._engine.prepare(id), timeout=PREPARE_TIMEOUT)

    @exposed
    def SetMode(self, id: str, agent: str, modeId: str) -> MemberSession:
        """Extension: sets a member's session mode (`session/set_mode`), opening its session
        first if needed; the session as it is afterwards."""
        return self._core.run(self._engine.set_mode(id, agent, modeId), timeout=PREPARE_TIMEOUT)

    @exposed
    def SetOption(self, id: str, agent: str, optionId: str, value: str | bool) -> MemberSession:
        """Extension: sets one of a member's session options (`session/set_config_option`);
        the session as it is afterwards."""
        return self._core.run(
            self._engine.set_option(id, agent, optionId, value), timeout=PREPARE_TIMEOUT
        )

    @exposed
    def Changes(self, id: str) -> list[FileChange]:
        """Extension: the files agents changed in this channel, oldest first."""
        return self._core.call(lambda: self._engine.changes(id))

    @exposed
    def Revert(self, id: str, changeIds: list[str]) -> list[FileChange]:
        """Extension: puts the files of these changes back as they were before, newest change
        first; refused, with what changed, when a file changed since. The updated records."""
        return self._core.call(lambda: self._engine.revert(id, changeIds))

    @exposed
    def AttachFile(self, id: str, path: str) -> Attachment:
        """Extension: a file of the person's (absolute path) to send with the next message."""
        return self._core.call(lambda: self._engine.attach_file(id, path))

    @exposed
    def AttachImage(self, id: str, name: str, mime: str, data: str) -> Attachment:
        """Extension: an image (base64 `data`, pasted or dropped) kept in the data folder, to
        send with the next message."""
        return self._core.call(lambda: self._engine.attach_image(id, name, mime, data))

    @exposed
    def ChooseFiles(self) -> list[str]:
        """Extension: shows the native chooser for files to attach; their absolute paths ([]
        when cancelled). Attach each with AttachFile."""
        return list(self._file_chooser())

    @exposed
    def RemoveAttachment(self, id: str, attachmentId: str) -> None:
        """Extension: takes back an attachment not sent yet (a pasted image's copy goes)."""
        self._core.call(lambda: self._engine.unattach(id, attachmentId))

    @exposed
    def AttachmentData(self, id: str, attachmentId: str) -> str:
        """Extension: an attached image of this conversation as a `data:` URL, to show it."""
        attachment = self._core.call(lambda: self._engine.attachment(id, attachmentId))
        return self._engine.image_data(attachment)  # read here, not on the loop

    @exposed
    def DroppedPaths(self, names: list[str]) -> list[str]:
        """Extension: the full paths of the files just dropped on the window with these names
        ("" for each the window could not locate: the page then reads its bytes)."""
        found = self._dropped_paths(names)
        return [found[i] if i < len(found) else "" for i in range(len(names))]

    # ---- issue 17: find, reuse and be told ----------------------------------------------------

    @exposed
    def Search(self, query: str, channel: str = "", limit: int = 50) -> SearchResults:
        """Extension: full-text search of every conversation's messages (words, prefixes,
        "quoted phrases"; accents and case folded), newest first; only `channel`'s if given.
        The last word matches as a prefix while typed; `indexing` while the index catches up."""
        if channel and self._engine.view(channel) is None:
            raise no_channel(channel)
        return self._engine.search.search(query, channel, limit)  # here: app/search/index.py

    @exposed
    def Around(self, id: str, messageId: str) -> WireJson[AroundPage]:
        """Extension: the page of messages around `messageId` (it included), to open a
        conversation at a message found. 50 before it, it, 49 after it; at the end of the
        conversation the live answer and queued messages follow, as in `Conversation`."""
        return read_around(self._engine, id, messageId)  # on this thread, as Conversation

    @exposed
    def Newer(self, id: str, afterId: str) -> WireJson[NewerPage]:
        """Extension: the 100 messages after `afterId` (after an `Around` page)."""
        return read_newer(self._engine, id, afterId)

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

    def _channel(self, channel_id: str) -> Channel:
        channels = self._core.call(self._engine.channels)
        found = next((channel for channel in channels if channel.id == channel_id), None)
        if found is None:
            raise no_channel(channel_id)
        return found.model_copy(deep=True)  # the loop's own may change meanwhile

    def _export(
        self, id: str, format: ExportFormat, channel: Channel | None = None
    ) -> Iterator[str]:
        """The document's pieces, the stored messages read a page at a time on this thread."""
        channel = channel or self._channel(id)
        view = self._engine.view(channel.id)
        if view is None:
            raise no_channel(id)
        return EXPORTERS[format](channel, stored_messages(view.history, channel.id))

    @exposed
    def MessageMarkdown(self, id: str, messageId: str) -> str:
        """Extension: one message as Markdown (what "Copy" puts on the clipboard): its
        content without the author and time heading an export gives it."""
        view = self._engine.view(id)  # read off the loop, as Conversation is
        if view is None:
            raise no_channel(id)
        return export_markdown.message_markdown(find_message(view, messageId))

    @exposed
    def Resend(self, id: str, messageId: str) -> str:
        """Extension: sends a user message again (also one dropped by Stop), or for an agent's
        answer the user message it answered, to that agent only; the new message's id."""
        sent = self._core.call(lambda: self._engine.resend(id, messageId))  # dropped or queued
        if sent:
            return sent
        kept = find_kept(self._engine, id, messageId)  # off the loop: app/channels/resending.py
        return self._core.call(lambda: self._engine.resend(id, messageId, kept))

    @exposed
    def NewSession(self, id: str) -> None:
        """Extension: the members start new ACP sessions; a `new-session` divider is added and
        what came before it is not sent to them again. Refused while the channel answers."""
        self._core.call(lambda: self._engine.new_session(id))

    @exposed
    def Permissions(self) -> list[PermissionRequested]:
        """Extension: every pending permission request of every channel, oldest first."""
        return self._core.call(self._engine.permissions)

    @exposed
    def PermissionRules(self) -> list[PermissionRule]:
        """Extension: the "always allow" rules the person gave (per agent and tool kind)."""
        return self._core.call(self._engine.permission_rules)

    @exposed
    def RevokePermissionRule(self, ruleId: str) -> list[PermissionRule]:
        """Extension: forgets a rule; the rules left."""
        return self._core.call(lambda: self._engine.revoke_permission_rule(ruleId))

    @exposed
    def Viewing(self, id: str, focused: bool) -> AttentionCounts:
        """Extension: the page says which conversation is on screen ("" for none) and whether
        the window has the focus; its answers count as read then. Remembered as the
        conversation to reopen at the next start."""
        return self._core.call(lambda: self._attention.viewing(id, focused))

    @exposed
    def Attention(self) -> AttentionCounts:
        """Extension: unread answers by channel and pending permission requests."""
        return self._core.call(self._attention.counts)

    @exposed
    def LastViewed(self) -> str:
        """Extension: the conversation on screen when the app last closed ("" for none or one
        deleted since)."""
        return self._core.call(self._attention.last_viewed)

    def _set_attention(self, tracker: AttentionTracker) -> None:
        """The composition root installs what counts unread answers (app/attention)."""
        self._attention = tracker

    def _set_save_chooser(self, chooser: SaveChooser) -> None:
        """The window installs the native save dialog here (tests install their own): given
        the file name to offer, the path chosen ("" when cancelled)."""
        self._save_chooser = chooser

    def _set_files_chooser(self, chooser: FilesChooser) -> None:
        """The window installs the native dialog here (tests install their own)."""
        self._file_chooser = chooser

    def _set_dropped_paths(self, provider: Callable[[list[str]], list[str]]) -> None:
        """The window installs what reads the native drops' paths (app/bridge/dropped_paths.py)."""
        self._dropped_paths = provider
