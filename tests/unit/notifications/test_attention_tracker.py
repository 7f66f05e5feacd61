"""The attention tracker, fed synthetic bus events: what counts as unread, what is notified."""

from __future__ import annotations

from typing import Any

import pytest

from app.attention.notice import Notice
from app.attention.tracker import AttentionTracker
from app.events import names
from app.events.bus import EventBus
from app.events.payloads import (
    ChannelsChanged,
    MessageUpdated,
    PermissionRequested,
    PermissionResolved,
)
from app.history.memory import MemoryHistory
from app.models.conversation import Channel, Message, Part, ToolCall


class Recorder:
    """A notifier that keeps what it is given (the D-Bus one is tested on a real bus)."""

    def __init__(self) -> None:
        self.notices: list[Notice] = []
        self.badges: list[int] = []

    def notify(self, notice: Notice) -> None:
        self.notices.append(notice)

    def badge(self, total: int) -> None:
        self.badges.append(total)


class Setup:
    def __init__(self) -> None:
        self.bus = EventBus()
        self.notifier = Recorder()
        self.tracker = AttentionTracker(self.bus, self.notifier)
        self.history = MemoryHistory()
        self.tracker.attach(self.history)
        self.tracker.configure(True, {"demo": "Demo"})
        self.events: list[tuple[str, dict[str, Any]]] = []
        self.bus.subscribe(lambda name, payload: self.events.append((name, payload)))
        self.channels(
            [
                Channel(id="d1", direct="demo", members=["demo"]),
                Channel(id="c1", name="general", members=["demo"]),
            ]
        )

    def channels(self, channels: list[Channel]) -> None:
        self.bus.emit(names.CHANNELS_CHANGED, ChannelsChanged(channels=channels))

    def answer(self, channel: str, text: str = "Done: **all** tests pass\nmore", **end: Any) -> str:
        message = Message(
            id=f"m{len(self.events)}",
            channel=channel,
            created_at="t",
            role="agent",
            agent="demo",
            done=False,
        )
        self.bus.emit(names.MESSAGE_UPDATED, MessageUpdated(channel=channel, message=message))
        done = message.model_copy(
            update={"done": True, "parts": [Part(kind="text", text=text)], **end}
        )
        self.bus.emit(names.MESSAGE_UPDATED, MessageUpdated(channel=channel, message=done))
        return message.id

    def ask(self, request_id: str, channel: str = "c1") -> None:
        self.bus.emit(
            names.PERMISSION_REQUESTED,
            PermissionRequested(
                id=request_id,
                channel=channel,
                agent="demo",
                message_id="m9",
                tool_call=ToolCall(id="t", title="Edit `app.py`"),
                options=[],
            ),
        )

    def attention(self) -> list[dict[str, Any]]:
        return [p for n, p in self.events if n == names.ATTENTION_CHANGED]


@pytest.fixture
def s() -> Setup:
    return Setup()


def test_an_answer_finishing_in_another_conversation_counts_as_unread(s: Setup) -> None:
    s.tracker.viewing("d1", focused=True)
    s.answer("c1")
    assert s.tracker.counts().unread == {"c1": 1}
    assert s.attention()[-1] == {"unread": {"c1": 1}, "permissions": 0, "total": 1}
    assert s.notifier.badges == [0, 1]


def test_the_launcher_badge_waits_for_a_window_to_show_the_app(s: Setup) -> None:
    s.answer("c1")
    assert s.notifier.badges == []  # headless: no launcher icon to badge
    s.tracker.viewing("c1", focused=False)
    assert s.notifier.badges == [1]


def test_an_answer_on_screen_in_a_focused_window_is_read_at_once(s: Setup) -> None:
    s.tracker.viewing("c1", focused=True)
    s.answer("c1")
    assert s.tracker.counts().total == 0
    assert s.notifier.notices == []


def test_an_answer_on_screen_while_the_window_is_not_focused_counts_and_is_notified(
    s: Setup,
) -> None:
    s.tracker.viewing("c1", focused=False)
    message_id = s.answer("c1")
    assert s.tracker.counts().unread == {"c1": 1}
    assert s.notifier.notices == [
        Notice("c1", message_id, "Demo in #general", "Done: all tests pass")
    ]


def test_a_direct_conversation_s_notification_is_titled_with_the_agent_alone(s: Setup) -> None:
    s.tracker.viewing("c1", focused=False)
    s.answer("d1", text="```py\nprint(1)\n```")
    assert [(n.title, n.body) for n in s.notifier.notices] == [("Demo", "print(1)")]


def test_nothing_is_notified_while_the_window_is_focused(s: Setup) -> None:
    s.tracker.viewing("d1", focused=True)
    s.answer("c1")
    s.ask("p1")
    assert s.notifier.notices == []
    assert s.tracker.counts().total == 2


def test_nothing_is_notified_before_the_page_says_what_it_shows(s: Setup) -> None:
    s.answer("c1")  # headless, or the page not loaded yet: nobody to tell, but it is unread
    assert s.notifier.notices == []
    assert s.tracker.counts().unread == {"c1": 1}


def test_with_the_setting_off_nothing_is_notified_but_answers_still_count(s: Setup) -> None:
    s.tracker.configure(False, {})
    s.tracker.viewing("d1", focused=False)
    s.answer("c1")
    s.ask("p1")
    assert s.notifier.notices == []
    assert s.tracker.counts().total == 2


def test_viewing_a_conversation_in_a_focused_window_clears_its_count(s: Setup) -> None:
    s.tracker.viewing("d1", focused=False)
    s.answer("c1")
    s.answer("c1")
    s.answer("d1")
    assert s.tracker.viewing("c1", focused=False).unread == {"c1": 2, "d1": 1}
    counts = s.tracker.viewing("c1", focused=True)
    assert counts.unread == {"d1": 1}
    assert s.attention()[-1]["total"] == 1


def test_an_answer_is_counted_once_however_often_it_is_updated_later(s: Setup) -> None:
    s.tracker.viewing("d1", focused=True)
    message_id = s.answer("c1")
    kept = Message(
        id=message_id,
        channel="c1",
        created_at="t",
        role="agent",
        agent="demo",
        parts=[Part(kind="text", text="a command ended")],
    )
    s.bus.emit(names.MESSAGE_UPDATED, MessageUpdated(channel="c1", message=kept))
    assert s.tracker.counts().unread == {"c1": 1}


def test_stopped_empty_user_and_system_messages_do_not_count(s: Setup) -> None:
    s.tracker.viewing("d1", focused=False)
    s.answer("c1", stop_reason="cancelled")
    s.answer("c1", text="  ")
    for role in ("user", "system"):
        message = Message(id=role, channel="c1", created_at="t", role=role, parts=[])
        s.bus.emit(names.MESSAGE_UPDATED, MessageUpdated(channel="c1", message=message))
    assert s.tracker.counts().total == 0
    assert s.notifier.notices == []


def test_an_answer_that_failed_counts_and_says_its_error(s: Setup) -> None:
    s.tracker.viewing("d1", focused=False)
    s.answer("c1", text="", error="Authentication required\nrun `login`")
    assert s.tracker.counts().unread == {"c1": 1}
    assert s.notifier.notices[-1].body == "Authentication required"


def test_pending_permission_requests_count_until_resolved_and_are_notified(s: Setup) -> None:
    s.tracker.viewing("c1", focused=False)
    s.ask("p1")
    s.ask("p2", channel="d1")
    assert s.tracker.counts().permissions == 2
    assert s.notifier.notices[0] == Notice(
        "c1", "m9", "Demo in #general", "Wants to use Edit app.py"
    )
    s.bus.emit(names.PERMISSION_RESOLVED, PermissionResolved(id="p1", channel="c1"))
    assert (s.tracker.counts().permissions, s.tracker.counts().total) == (1, 1)


def test_a_deleted_channel_s_counts_go(s: Setup) -> None:
    s.tracker.viewing("d1", focused=False)
    s.answer("c1")
    s.ask("p1")
    s.channels([Channel(id="d1", direct="demo", members=["demo"])])
    assert s.tracker.counts().total == 0
    assert s.attention()[-1]["total"] == 0


def test_another_configuration_starts_from_nothing(s: Setup) -> None:
    s.tracker.viewing("d1", focused=False)
    s.answer("c1")
    s.tracker.attach(MemoryHistory())
    assert s.tracker.counts().total == 0
    assert s.tracker.last_viewed() == ""


def test_the_conversation_last_viewed_is_kept_in_the_history_until_deleted(s: Setup) -> None:
    assert s.tracker.last_viewed() == ""
    s.tracker.viewing("c1", focused=True)
    s.tracker.viewing("", focused=True)  # Settings on screen: the conversation stays the one
    assert s.history.value("last-viewed") == b"c1"
    assert s.tracker.last_viewed() == "c1"
    s.channels([Channel(id="d1", direct="demo", members=["demo"])])
    assert s.tracker.last_viewed() == ""
