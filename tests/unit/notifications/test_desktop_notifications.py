"""Real notifications over a real D-Bus session: a private dbus-daemon and a fake notification
server (tests/fakes/notification_server.py) stand in for the desktop's."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator

import pytest

from app.attention.badge import DESKTOP_ID, UNITY_INTERFACE
from app.attention.desktop import DesktopNotifications
from app.attention.notice import Notice
from tests.fakes.needs_dbus import NEEDS_DBUS, ON_LINUX
from tests.waiting import wait_for

pytestmark = NEEDS_DBUS
if ON_LINUX:  # dbus-fast, which the fake server uses, is installed on Linux only
    from tests.fakes.notification_server import (
        FakeNotificationServer,
        SignalWatcher,
        private_session_bus,
    )


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeNotificationServer]:
    with private_session_bus() as address, FakeNotificationServer(address) as fake:
        monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", address)
        yield fake


class Clicks:
    def __init__(self) -> None:
        self.notices: list[Notice] = []
        self.threads: list[str] = []

    def __call__(self, notice: Notice) -> None:
        self.notices.append(notice)
        self.threads.append(threading.current_thread().name)


def test_a_notice_is_shown_by_the_desktop_with_its_title_and_body(
    server: FakeNotificationServer,
) -> None:
    notifications = DesktopNotifications(Clicks())
    try:
        notifications.notify(Notice("c1", "m1", "Demo in #general", "The tests pass."))
        [shown] = server.wait_for_shown(1)
    finally:
        notifications.close()
    assert (shown.app_name, shown.title, shown.body) == (
        "Sidekicks",
        "Demo in #general",
        "The tests pass.",
    )
    assert "default" in shown.actions  # so that clicking the body is reported


def test_clicking_a_notification_calls_back_with_its_notice(server: FakeNotificationServer) -> None:
    clicks = Clicks()
    notifications = DesktopNotifications(clicks)
    try:
        notice = Notice("c1", "m1", "Demo", "Done.")
        notifications.notify(notice)
        [shown] = server.wait_for_shown(1)
        # The server has the notice before the notifier has its id: a click in between (no
        # person is that quick) would be dropped by desktop-notifier.
        wait_for(lambda: notifications.shown == 1, what="the notifier to know the notice's id")
        server.click(shown.id)
        wait_for(lambda: clicks.notices, what="the click")
    finally:
        notifications.close()
    assert clicks.notices == [notice]
    assert clicks.threads == ["sidekicks-notifier"]  # never the core loop's thread


def test_a_burst_in_one_conversation_shows_the_first_then_only_the_newest(
    server: FakeNotificationServer,
) -> None:
    notifications = DesktopNotifications(Clicks())
    try:
        for n in range(1, 6):
            notifications.notify(Notice("c1", f"m{n}", "Demo", f"answer {n}"))
        notifications.notify(Notice("c2", "x", "Other", "elsewhere"))
        server.wait_for_shown(3)
    finally:
        notifications.close()
    bodies = sorted(s.body for s in server.shown)
    assert bodies == ["answer 1", "answer 5", "elsewhere"]


def test_without_a_notification_server_notices_are_dropped_and_said_once(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    with private_session_bus() as address:  # a bus, but nobody serves notifications on it
        monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", address)
        notifications = DesktopNotifications(Clicks())
        try:
            notifications.notify(Notice("c1", "m1", "Demo", "one"))
            notifications.notify(Notice("c2", "m2", "Demo", "two"))
            wait_for(lambda: notifications.failures == 2, timeout=15, what="both failures")
        finally:
            notifications.close()
    said = [r for r in caplog.records if "notifications cannot be shown" in r.getMessage()]
    assert len(said) == 1
    assert not [r for r in caplog.records if r.name.startswith("desktop_notifier")]


def test_the_launcher_badge_is_the_unity_launcher_entry_signal(
    server: FakeNotificationServer,
) -> None:
    address = os.environ["DBUS_SESSION_BUS_ADDRESS"]
    with SignalWatcher(address, UNITY_INTERFACE) as watcher:
        notifications = DesktopNotifications(Clicks())
        try:
            notifications.badge(3)
            wait_for(lambda: watcher.received, what="the badge signal")
            notifications.badge(0)
            wait_for(lambda: len(watcher.received) == 2, what="the badge hidden")
        finally:
            notifications.close()
    [(member, [app, first]), (_, [_, second])] = watcher.received
    assert (member, app) == ("Update", DESKTOP_ID)
    assert (first["count"].value, first["count-visible"].value) == (3, True)
    assert second["count-visible"].value is False


def test_a_badge_of_nothing_before_any_starts_no_thread_and_no_connection() -> None:
    """The idle window's first count is 0: nothing on the launcher to hide (issue 29)."""
    notifications = DesktopNotifications(Clicks())
    try:
        notifications.badge(0)
        assert notifications._thread is None
    finally:
        notifications.close()
