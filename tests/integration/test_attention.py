"""Being told, headless: the demo agent answers while the page says another conversation is on
screen in an unfocused window; a real D-Bus session with a fake notification server shows the
notification, and clicking it emits notification:opened."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from app import Sidekicks
from app.attention.title import window_title
from app.events import names
from tests.fakes.needs_dbus import NEEDS_DBUS, ON_LINUX
from tests.waiting import EventLog, wait_for

pytestmark = NEEDS_DBUS
if ON_LINUX:  # dbus-fast, which the fake server uses, is installed on Linux only
    from tests.fakes.notification_server import FakeNotificationServer, private_session_bus

CONFIG = "agents:\n  - name: demo\n    title: Demo\n    builtin: demo\n"


@pytest.fixture
def server(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeNotificationServer]:
    with private_session_bus() as address, FakeNotificationServer(address) as fake:
        monkeypatch.setenv("DBUS_SESSION_BUS_ADDRESS", address)
        yield fake


def open_app(tmp_path: Path, config: str = CONFIG) -> Sidekicks:
    path = tmp_path / "config.yaml"
    path.write_text(config, encoding="utf-8")
    return Sidekicks(config=path)


def test_an_answer_finishing_while_the_window_is_away_is_notified_counted_and_opened(
    server: FakeNotificationServer, tmp_path: Path
) -> None:
    events = EventLog()
    with open_app(tmp_path) as sk:
        sk.events.subscribe(events)
        channels = sk.api.ChannelService
        direct = channels.Direct("demo")
        other = channels.Create("general")
        sk.api.InboxService.Viewing(other.id, False)
        channels.Send(direct.id, "/echo The **build** passed\nsecond line")
        [shown] = server.wait_for_shown(1, timeout=30)
        assert (shown.title, shown.body) == ("Demo", "The build passed")
        counts = sk.api.InboxService.Attention()
        assert (counts.unread, counts.total) == ({direct.id: 1}, 1)
        assert window_title(counts.total) == "(1) Sidekicks"
        assert events.named(names.ATTENTION_CHANGED)[-1]["total"] == 1

        # A click before the notifier has the server's id for it would be dropped.
        wait_for(lambda: sk.notifications.shown == 1, what="the notifier to know the id")
        server.click(shown.id)
        [opened] = wait_for(lambda: events.named(names.NOTIFICATION_OPENED), timeout=10)
        answers = [m for m in channels.Conversation(direct.id)["messages"] if m["role"] == "agent"]
        assert opened == {"channel": direct.id, "messageId": answers[-1]["id"]}

        assert sk.api.InboxService.Viewing(direct.id, True).total == 0
        assert sk.api.InboxService.LastViewed() == direct.id


def test_a_permission_request_while_the_window_is_away_is_notified_and_counted(
    server: FakeNotificationServer, tmp_path: Path
) -> None:
    with open_app(tmp_path) as sk:
        channels = sk.api.ChannelService
        direct = channels.Direct("demo")
        sk.api.InboxService.Viewing(direct.id, False)
        channels.Send(direct.id, "please refactor the parser")  # the demo asks before editing
        shown = server.wait_for_shown(1, timeout=30)
        assert shown[0].title == "Demo"
        assert shown[0].body.startswith("Wants to use ")
        assert sk.api.InboxService.Attention().permissions == 1


def test_with_notifications_off_the_answer_counts_but_is_not_shown(
    server: FakeNotificationServer, tmp_path: Path
) -> None:
    events = EventLog()
    with open_app(tmp_path, "notifications: false\n" + CONFIG) as sk:
        sk.events.subscribe(events)
        channels = sk.api.ChannelService
        direct = channels.Direct("demo")
        sk.api.InboxService.Viewing("", False)
        channels.Send(direct.id, "/echo quiet")
        wait_for(
            lambda: sk.api.InboxService.Attention().total == 1, timeout=30, what="the unread answer"
        )
        # Turned on again: the next answer is shown, and it is the first one shown (the notifier
        # keeps the order its notices come in, so a notice for "quiet" would have come first).
        sk.api.ConfigService.Save(CONFIG)
        channels.Send(direct.id, "/echo loud")
        [shown] = server.wait_for_shown(1, timeout=30)
    assert shown.body == "loud"


def test_the_conversation_last_viewed_is_reopened_after_a_restart(tmp_path: Path) -> None:
    with open_app(tmp_path) as sk:
        direct = sk.api.ChannelService.Direct("demo")
        sk.api.InboxService.Viewing(direct.id, True)
    with Sidekicks(config=tmp_path / "config.yaml") as again:
        assert again.api.InboxService.LastViewed() == direct.id
        again.api.ChannelService.Delete(direct.id)
        assert again.api.InboxService.LastViewed() == ""


def test_another_configuration_has_its_own_counts_and_conversation_to_reopen(
    tmp_path: Path,
) -> None:
    first = tmp_path / "first"
    second = tmp_path / "second"
    first.mkdir()
    second.mkdir()
    with open_app(first) as sk:
        channels = sk.api.ChannelService
        direct = channels.Direct("demo")
        sk.api.InboxService.Viewing(direct.id, True)
        sk.api.InboxService.Viewing("", False)
        channels.Send(direct.id, "/echo unread")
        wait_for(
            lambda: sk.api.InboxService.Attention().total == 1, timeout=30, what="the unread answer"
        )

        (second / "config.yaml").write_text(CONFIG, encoding="utf-8")
        sk.api.ConfigService.Open(str(second / "config.yaml"))
        assert sk.api.InboxService.Attention().total == 0
        assert sk.api.InboxService.LastViewed() == ""
        other = channels.Create("elsewhere")
        sk.api.InboxService.Viewing(other.id, True)

        sk.api.ConfigService.Open(str(first / "config.yaml"))
        assert sk.api.InboxService.LastViewed() == direct.id  # unread counts live for the run only
        assert sk.api.InboxService.Attention().total == 0
