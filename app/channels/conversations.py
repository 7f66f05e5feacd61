"""An agent's several direct conversations (issue 28): New conversation, their titles, when they
were made and last spoken in, and renaming one.

Choices (docs/conversations.md "Several conversations per agent"):
- Every conversation with one agent is a direct conversation (`Channel.direct` = the agent). The
  SPEC's `Direct(agent)` is the oldest of them (created the first time); after that one is
  deleted, `Direct` gives the next oldest, or a new one when none is left.
- A conversation's title is, by priority: the person's (Rename), the agent's session title
  (`session_info_update`), its first message of the person (one line, cut to TITLE_MAX); ""
  until then (the page says "New conversation"). `StoredChannel.title_by` says which. A
  message's or an agent's title is the text its Markdown shows ("Show me a **plan**" is titled
  "Show me a plan"); the person's own title is kept as typed.
- `lastActivity` is the time of the person's last message in a direct conversation (else its
  creation): the sidebar lists an agent's conversations by it, newest first. Agents' answers do
  not move it, so a list does not reorder under the person's eyes while agents stream. A
  channel's stays its creation.
"""

from __future__ import annotations

import logging

from app.acp.session_titles import title_text
from app.channels.publishing import Publisher, now_iso
from app.channels.registry import ChannelRegistry
from app.channels.state import ChannelState
from app.core.errors import UserError
from app.core.ids import new_id
from app.history.base import StoredChannel
from app.history.failures import HistoryWriteError
from app.i18n import _
from app.models.conversation import Channel
from app.search.plain import plain_text

log = logging.getLogger(__name__)

TITLE_MAX = 64  # characters: a title is one sidebar line (app/channels/membership.py's limit)


def short_title(text: str) -> str:
    """`text` (Markdown) as a title: the text its first line shows (a fence's line shows
    nothing, so the next one is taken), white space collapsed, cut to TITLE_MAX characters at a
    word when one ends near the limit ("…" says it was cut)."""
    shown = (plain_text(line) for line in text.splitlines() if line.strip())
    line = title_text(next((line for line in shown if line), ""))
    if len(line) <= TITLE_MAX:
        return line
    cut = line[: TITLE_MAX - 1]
    space = cut.rfind(" ")
    if space >= TITLE_MAX // 2:
        cut = cut[:space]
    return cut.rstrip() + "…"


class Conversations:
    def __init__(self, registry: ChannelRegistry, publisher: Publisher) -> None:
        self._registry, self._publisher = registry, publisher

    def new(self, agent: str) -> Channel:
        """Another conversation with `agent` (a known agent's name), the newest."""
        now = now_iso()
        channel = Channel(
            id=new_id(), direct=agent, members=[agent], created_at=now, last_activity=now
        )
        self._registry.add(ChannelState(StoredChannel(channel=channel)))
        self._publisher.channels()
        return channel

    def sent(self, state: ChannelState, text: str) -> None:
        """The person sent `text` to a direct conversation: the time of its last activity, and
        the first message's title when it has none yet. Channels are left as they are (their
        list is not ordered by it, and `channels:changed` would come before a mention's join)."""
        channel = state.channel
        if not channel.direct:
            return
        channel.last_activity = now_iso()
        if not state.stored.title_by and (title := short_title(text)):
            channel.title, state.stored.title_by = title, "message"
        try:
            self._registry.save(state)
        except HistoryWriteError as err:  # the message is sent: this never refuses it
            log.warning("could not keep the title and time of %s: %s", state.id, err)
        self._publisher.channels()  # shown meanwhile; the record's next save keeps them

    def titled(self, state: ChannelState, title: str) -> None:
        """The agent titled its session here (`session_info_update`): the conversation's title,
        unless the person chose one."""
        title = short_title(title)
        if not title or state.stored.title_by == "person" or title == state.channel.title:
            return
        state.channel.title, state.stored.title_by = title, "agent"
        self._registry.save(state)
        self._publisher.channels()

    def rename(self, state: ChannelState, title: str, description: str) -> Channel:
        """The person's title for a direct conversation (any title: several may be alike)."""
        title = " ".join(title.split())
        if not title:
            raise UserError(_("a conversation needs a title"))
        if len(title) > TITLE_MAX:
            raise UserError(_("a title has at most {n} characters").format(n=TITLE_MAX))
        description = description.strip()
        if len(description) > TITLE_MAX:
            raise UserError(_("a description has at most {n} characters").format(n=TITLE_MAX))
        state.channel.title, state.stored.title_by = title, "person"
        state.channel.description = description
        self._registry.save(state)
        self._publisher.channels()
        return state.channel
