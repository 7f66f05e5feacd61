"""ForkService (issue 28): "Fork from here" on a message, as the page calls it. The fork itself
is app/channels/forking.py's; its members' sessions fork when they first open
(app/channels/forked_sessions.py)."""

from __future__ import annotations

from app.channels.forking import Forking
from app.channels.parts import ChannelParts
from app.core.expose import exposed
from app.core.loop import LoopThread
from app.models.conversation import Channel

# Copying a long history (one write per message) and its pasted images.
FORK_TIMEOUT = 60.0


class ForkService:
    def __init__(self, parts: ChannelParts, core: LoopThread) -> None:
        self._core = core
        self._forking = Forking(
            parts.registry, parts.publisher, parts.attachments, parts.opened.unique_name
        )

    @exposed
    def Fork(self, id: str, messageId: str) -> Channel:
        """A new channel (a conversation, when `id` is one) holding the history of `id` up to
        and including the kept message `messageId`, its `forkedFrom` naming them; its members'
        sessions are forked with ACP `session/fork` where the agent offers it and the session
        had seen nothing after that message, else started anew with that history as context."""
        return self._core.run(self._forking.fork(id, messageId), timeout=FORK_TIMEOUT)
