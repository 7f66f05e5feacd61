"""Fork from here (issue 28, ForkService.Fork): a new conversation holding a channel's history up
to and including one of its messages.

Choices:
- The history is COPIED (each message with a new id, in the fork's channel): the fork is a
  conversation like any other, kept by the history, searchable, exported, and it outlives the
  source's deletion. Pasted images (kept per channel in the data folder) are copied too; the
  person's own files are referred to by their paths, as in the source.
- A channel's fork is a channel named "<name> (fork)" (made unique), with the source's
  description, hand-off budget and members as they are now; a direct conversation's fork is
  another conversation with the agent (app/channels/conversations.py), titled "<title> (fork)"
  and the newest of its conversations. `forkedFrom` names the source and the message.
- Each member's session: forked with ACP `session/fork` when it first opens in the fork, if the
  agent advertises `sessionCapabilities.fork` and its session in the source had seen nothing
  after the message (a fork of the session holds all it has seen: a session that went on past
  the message would bring turns the fork does not have). Otherwise — and whenever the fork
  fails — a new session, given the copied messages (its own answers too) as the unseen context
  of its first prompt (app/channels/forked_sessions.py, app/channels/context.py).
- The changes and checkpoints of the copied answers stay with the source: the fork's Changes
  panel starts empty.
"""

from __future__ import annotations

import asyncio
import logging
import shutil
from collections.abc import Callable
from pathlib import Path

from app.channels.attachments import FOLDER, Attachments
from app.channels.conversations import TITLE_MAX
from app.channels.publishing import Publisher, now_iso
from app.channels.registry import ChannelRegistry
from app.channels.state import ChannelState
from app.core.errors import UserError
from app.core.ids import new_id
from app.history.base import PAGE, History, MemberSession, PendingFork, StoredChannel
from app.history.failures import failure_reason
from app.history.records import decode_messages
from app.i18n import _
from app.models.conversation import Attachment, Channel, ForkOrigin, Message

log = logging.getLogger(__name__)

MAX_FORKED_MESSAGES = 10_000  # a fork copies at most this many messages (the latest ones)


class Forking:
    def __init__(
        self,
        registry: ChannelRegistry,
        publisher: Publisher,
        attachments: Attachments,
        unique_name: Callable[[str], str],
    ) -> None:
        self._registry, self._publisher = registry, publisher
        self._attachments = attachments
        self._unique_name = unique_name  # a channel name not taken (opened_sessions.py)

    async def fork(self, channel_id: str, message_id: str) -> Channel:
        """The new conversation, its history copied up to `message_id` (a kept message)."""
        source = self._registry.get(channel_id)
        history = self._registry.history
        kept = history_up_to(history, channel_id, message_id)
        channel = self._forked_channel(source, message_id)
        # Shallow copies: the decoded messages are this fork's own, never shown or kept.
        copies = [m.model_copy(update={"id": new_id(), "channel": channel.id}) for m in kept]
        new_ids = {old.id: new.id for old, new in zip(kept, copies, strict=True)}
        await asyncio.to_thread(self._copy_images, source.id, channel.id, copies)
        state = ChannelState(
            StoredChannel(
                channel=channel,
                title_by=source.stored.title_by,  # who titled it goes on naming it
                last_responder=next((m.agent for m in reversed(kept) if m.role == "agent"), ""),
                sessions={
                    agent: _forked_member(source, agent, new_ids) for agent in channel.members
                },
            )
        )
        try:
            # One transaction (~0.1 s of the loop per 1,000 messages, measured; one per
            # message took 2 ms each, the sync of each commit).
            self._registry.add_holding(state, copies)
        except Exception as err:  # a full disk: no half fork is left
            log.exception("could not keep a fork")
            self._registry.remove(state)
            self._attachments.delete_channel(channel.id)  # the images copied for it
            raise UserError(
                _("the conversation could not be forked: {reason}").format(
                    reason=failure_reason(err)
                )
            ) from None
        finally:
            self._publisher.channels()
        return channel

    def _forked_channel(self, source: ChannelState, message_id: str) -> Channel:
        was, now = source.channel, now_iso()
        forked = was.model_copy(deep=True)
        forked.id, forked.created_at, forked.last_activity = new_id(), now, now
        forked.forked_from = ForkOrigin(
            channel=source.id, message=message_id, name=was.name or was.title or was.direct
        )
        if not was.direct:
            forked.name = self._unique_name(_("{name} (fork)").format(name=was.name))
        elif was.title:  # a conversation's title (app/channels/conversations.py)
            suffix = _("{name} (fork)").format(name="")
            forked.title = was.title[: TITLE_MAX - len(suffix)].rstrip() + suffix
        return forked

    def _copy_images(self, source: str, fork: str, messages: list[Message]) -> None:
        """The source's pasted images the copied messages show, copied into the fork's folder
        (they go with their channel: app/channels/attachments.py). Off the loop."""
        folder = self._attachments.folder
        if folder is None:
            return
        source_folder, fork_folder = folder / FOLDER / source, folder / FOLDER / fork
        for message in messages:
            message.attachments = [
                _copied(a, source_folder, fork_folder) for a in message.attachments
            ]


def _copied(attachment: Attachment, source_folder: Path, fork_folder: Path) -> Attachment:
    path = Path(attachment.path)
    if attachment.kind != "image" or path.parent != source_folder:
        return attachment  # the person's own file: shown where it is
    target = fork_folder / path.name
    try:
        fork_folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        shutil.copyfile(path, target)
    except OSError:
        log.warning("could not copy a pasted image into a fork", exc_info=True)
        return attachment
    return attachment.model_copy(update={"path": str(target)})


def history_up_to(history: History, channel_id: str, message_id: str) -> list[Message]:
    """The channel's kept messages up to and including `message_id`, oldest first (at most
    MAX_FORKED_MESSAGES); a UserError when that message is not kept (yet)."""
    window = history.records_around(channel_id, message_id, before=PAGE, after=0)
    if window is None:
        raise UserError(_("only a finished message can be forked"))
    messages, more = decode_messages(window.records), window.more
    while more and len(messages) < MAX_FORKED_MESSAGES:
        older, more = history.messages_before(channel_id, messages[0].id, PAGE)
        if not older:
            break
        messages = older + messages
    return messages[-MAX_FORKED_MESSAGES:]


def _forked_member(source: ChannelState, agent: str, new_ids: dict[str, str]) -> MemberSession:
    """The fork's record of a member: its choices and what its session offered, and either
    its source session to fork (it had seen nothing after the message) or a fresh start."""
    was = source.stored.sessions.get(agent, MemberSession())
    member = MemberSession(
        offer=was.offer.model_copy(deep=True) if was.offer is not None else None,
        chosen_mode=was.chosen_mode,
        chosen_options=dict(was.chosen_options),
    )
    seen_here = new_ids.get(was.last_seen, "")
    if was.session_id and seen_here and source.answering_agent(agent) is None:
        member.fork = PendingFork(channel=source.id, session_id=was.session_id, seen=was.last_seen)
        member.last_seen = seen_here  # the copied messages after it are its unseen context
    else:
        member.replay_own = True  # a new session: all of it is unseen, its own answers too
    return member
