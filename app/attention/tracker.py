"""What waits for the person, counted from the bus (the channels are not changed for it).

- An answer counts as unread when it finishes (its `message:updated` with `done`, after one
  without) in a conversation that is not on screen in a focused window, unless it is empty and
  error-free or was stopped (`cancelled`: someone pressed Stop or deleted the channel).
- Pending permission requests (and agents' questions, elicitations) count until they are resolved.
- `viewing(id, focused)` (the page, when the conversation on screen or the window's focus
  changes) clears the on-screen conversation's count while focused, and keeps `id` in the
  history as the conversation to reopen at the next start.
- A notification goes out for an answer or a permission request while the window is not focused
  (as the page last said; nothing before the page first says), when the setting allows it.

Counts live for the run only (the history keeps the conversation to reopen, not the counts).
All of this runs on the core loop: bus subscribers are called there, and so are the services.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from app.attention.notice import Notice, Notifier
from app.attention.summary import answer_line, plain_line
from app.events import names
from app.events.bus import EventBus
from app.history.base import History
from app.i18n import _
from app.models.finding import AttentionCounts, NotificationOpened

log = logging.getLogger(__name__)

LAST_VIEWED_KEY = "last-viewed"
_LIVE_LIMIT = 1000  # answers in progress remembered (far more than ever stream at once)


@dataclass
class _Screen:
    """What the page last said: the conversation on screen and the window's focus."""

    channel: str = ""
    focused: bool = False
    told: bool = False  # the page has said it at least once (headless: never)


class AttentionTracker:
    def __init__(self, bus: EventBus, notifier: Notifier) -> None:
        self._bus = bus
        self._notifier = notifier
        self._history: History | None = None
        self._screen = _Screen()
        self._unread: dict[str, int] = {}
        self._permissions: dict[str, str] = {}  # request id → channel
        self._live: dict[str, None] = {}  # agent answers seen unfinished (ordered, bounded)
        self._channels: dict[str, dict[str, Any]] = {}  # id → the channel as the bus said
        self._titles: dict[str, str] = {}  # agent name → its title
        self.enabled = True  # the configuration's `notifications`
        bus.subscribe(self._on_event)

    # ---- the composition root ----------------------------------------------------------------

    def attach(self, history: History) -> None:
        """Another configuration's history: its counts start from nothing."""
        self._history = history
        self._unread, self._permissions, self._live, self._channels = {}, {}, {}, {}
        self._screen.channel = ""
        self._changed()

    def configure(self, enabled: bool, titles: dict[str, str]) -> None:
        self.enabled = enabled
        self._titles = dict(titles)

    def opened(self, notice: Notice) -> None:
        """The person clicked a notification."""
        self._bus.emit(
            names.NOTIFICATION_OPENED,
            NotificationOpened(channel=notice.channel, message_id=notice.message_id),
        )

    # ---- the services ------------------------------------------------------------------------

    def counts(self) -> AttentionCounts:
        unread = {c: n for c, n in self._unread.items() if n}
        permissions = len(self._permissions)
        return AttentionCounts(
            unread=unread, permissions=permissions, total=sum(unread.values()) + permissions
        )

    def viewing(self, channel: str, focused: bool) -> AttentionCounts:
        first = not self._screen.told
        self._screen = _Screen(channel, focused, told=True)
        if (focused and self._unread.pop(channel, 0)) or first:
            self._changed()
        if channel and channel in self._channels:
            self._remember(channel)
        return self.counts()

    def last_viewed(self) -> str:
        if self._history is None:
            return ""
        try:
            kept = self._history.value(LAST_VIEWED_KEY)
        except Exception:
            log.warning("could not read the conversation to reopen", exc_info=True)
            return ""
        channel = kept.decode("utf-8", "replace") if kept else ""
        return channel if channel in self._channels else ""

    # ---- the bus -----------------------------------------------------------------------------

    def _on_event(self, name: str, payload: dict[str, Any]) -> None:
        if name == names.MESSAGE_UPDATED:
            self._message(payload["message"])
        elif name == names.PERMISSION_REQUESTED:
            self._permission_requested(payload)
        elif name in (names.PERMISSION_RESOLVED, names.ELICITATION_RESOLVED):
            if self._permissions.pop(payload["id"], None) is not None:
                self._changed()
        elif name == names.ELICITATION_REQUESTED:  # an agent's question waits like a request
            self._question_asked(payload)
        elif name == names.CHANNELS_CHANGED:
            self._channels_changed(payload["channels"])

    def _message(self, message: dict[str, Any]) -> None:
        if message.get("role") != "agent":
            return
        if not message.get("done", True):
            self._live[message["id"]] = None
            while len(self._live) > _LIVE_LIMIT:
                del self._live[next(iter(self._live))]
            return
        if message["id"] not in self._live:
            return  # not an answer finishing now (a kept answer updated, or one never seen live)
        del self._live[message["id"]]
        if message.get("stopReason") == "cancelled":
            return
        body = answer_line(message)
        if not body:
            return  # nothing to read
        channel = message["channel"]
        if self._on_screen(channel):
            return
        self._unread[channel] = self._unread.get(channel, 0) + 1
        self._changed()
        self._notify(channel, message["id"], message.get("agent", ""), body)

    def _permission_requested(self, request: dict[str, Any]) -> None:
        self._permissions[request["id"]] = request["channel"]
        self._changed()
        tool = plain_line(str(request.get("toolCall", {}).get("title", "")))
        body = _("Wants to use {tool}").format(tool=tool) if tool else _("Wants to use a tool")
        self._notify(request["channel"], request.get("messageId", ""), request["agent"], body)

    def _question_asked(self, question: dict[str, Any]) -> None:
        self._permissions[question["id"]] = question["channel"]
        self._changed()
        body = plain_line(str(question.get("message", ""))) or _("Asks you a question")
        self._notify(question["channel"], question.get("messageId", ""), question["agent"], body)

    def _channels_changed(self, channels: list[dict[str, Any]]) -> None:
        self._channels = {c["id"]: c for c in channels}
        gone = [c for c in self._unread if c not in self._channels]
        asked = [r for r, c in self._permissions.items() if c not in self._channels]
        for channel in gone:
            del self._unread[channel]
        for request in asked:
            del self._permissions[request]
        if gone or asked:
            self._changed()

    # ---- helpers -----------------------------------------------------------------------------

    def _on_screen(self, channel: str) -> bool:
        return self._screen.focused and self._screen.channel == channel

    def _notify(self, channel: str, message_id: str, agent: str, body: str) -> None:
        if not self.enabled or not self._screen.told or self._screen.focused:
            return
        who = self._titles.get(agent) or agent or _("An agent")
        where = self._channels.get(channel, {})
        title = who
        if where and not where.get("direct") and where.get("name"):
            title = _("{agent} in #{channel}").format(agent=who, channel=where["name"])
        self._notifier.notify(Notice(channel, message_id, title, body))

    def _remember(self, channel: str) -> None:
        if self._history is None:
            return
        try:
            if self._history.value(LAST_VIEWED_KEY) != channel.encode():
                self._history.put_value(LAST_VIEWED_KEY, channel.encode())
        except Exception:
            log.warning("could not keep the conversation to reopen", exc_info=True)

    def _changed(self) -> None:
        counts = self.counts()
        if self._screen.told:  # a window shows the app (headless runs have no launcher icon)
            self._notifier.badge(counts.total)
        self._bus.emit(names.ATTENTION_CHANGED, counts)
