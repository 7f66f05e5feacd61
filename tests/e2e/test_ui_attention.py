"""Being told, in the real window (issue 17): an answer finishing while the window is away is
notified through the desktop's notification server (a fake one on a private D-Bus session),
counted in the sidebar, the document's title and the window's title; clicking the notification
opens its conversation, and looking at it clears the count. After a restart the app reopens on
the conversation last on screen."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page

from tests.e2e.window import api, running_app
from tests.fakes.needs_dbus import NEEDS_DBUS, ON_LINUX
from tests.waiting import wait_for

pytestmark = NEEDS_DBUS
if ON_LINUX:  # dbus-fast, which the fake server uses, is installed on Linux only
    from tests.fakes.notification_server import FakeNotificationServer, private_session_bus

WAIT = 30_000
CONFIG = "agents:\n  - name: demo\n    title: Demo\n    builtin: demo\n"
DIRECT_UNREAD = "[data-testid=direct-item] [data-testid=marker-unread]"


@pytest.fixture
def server() -> Iterator[tuple[FakeNotificationServer, str]]:
    with private_session_bus() as address, FakeNotificationServer(address) as fake:
        yield fake, address


def config_file(tmp_path: Path) -> Path:
    path = tmp_path / "attention.yaml"
    path.write_text(CONFIG, encoding="utf-8")
    return path


def reported(page: Page, viewing: str, focused: bool) -> None:
    """Waits until the backend has heard what the page shows and whether it has the focus."""
    page.wait_for_selector(
        f"[data-testid=attention-reported][data-viewing='{viewing}']"
        f"[data-focused={str(focused).lower()}]",
        state="attached",
        timeout=WAIT,
    )


def open_conversation(page: Page, name: str) -> None:
    page.locator("[data-testid=channel-item], [data-testid=direct-item]", has_text=name).click()
    page.wait_for_function(
        "(n) => document.querySelector('#conversation-title')?.textContent.trim().startsWith(n)",
        arg=name,
        timeout=WAIT,
    )


def test_an_answer_while_the_window_is_away_is_notified_counted_and_opened_by_a_click(
    server: tuple[FakeNotificationServer, str], tmp_path: Path, shots: Path
) -> None:
    fake, address = server
    log = tmp_path / "app.log"
    env = {"DBUS_SESSION_BUS_ADDRESS": address}
    with running_app(["--config", str(config_file(tmp_path))], log, env) as (page, _proc):
        direct = api(page, "ChannelService", "Direct", "demo")
        general = api(page, "ChannelService", "Create", "general")
        open_conversation(page, "general")
        reported(page, general["id"], True)

        # The person goes to another window: the page's blur handling tells the backend.
        page.evaluate("() => window.dispatchEvent(new Event('blur'))")
        reported(page, general["id"], False)
        api(page, "ChannelService", "Send", direct["id"], "/echo All **tests** pass\nDetails")

        [shown] = fake.wait_for_shown(1, timeout=30)
        assert (shown.app_name, shown.title, shown.body) == ("Sidekicks", "Demo", "All tests pass")
        badge = page.locator(DIRECT_UNREAD)
        badge.wait_for(timeout=WAIT)
        assert badge.get_attribute("data-count") == "1"
        assert badge.get_attribute("title") == "1 unread answer"
        page.wait_for_function("() => document.title === '(1) Sidekicks'", timeout=WAIT)
        wait_for(lambda: "window title: (1) Sidekicks" in log.read_text(), timeout=10)
        page.locator("[data-testid=direct-item]").screenshot(path=str(shots / "unread-badge.png"))

        # A click on the notification opens the conversation (the window comes to the front).
        fake.click(shown.id)
        open_conversation(page, "Demo")
        wait_for(lambda: "window raised and activated" in log.read_text(), timeout=10)  # Qt
        page.evaluate("() => window.dispatchEvent(new Event('focus'))")
        reported(page, direct["id"], True)
        badge.wait_for(state="detached", timeout=WAIT)
        page.wait_for_function("() => document.title === 'Sidekicks'", timeout=WAIT)
        wait_for(lambda: "window title: Sidekicks" in log.read_text(), timeout=10)
        assert api(page, "InboxService", "Attention")["total"] == 0


def test_the_app_reopens_on_the_conversation_last_on_screen(tmp_path: Path) -> None:
    path = config_file(tmp_path)
    with running_app(["--config", str(path)], tmp_path / "first.log") as (page, _proc):
        general = api(page, "ChannelService", "Create", "general")
        api(page, "ChannelService", "Direct", "demo")
        open_conversation(page, "general")
        reported(page, general["id"], True)
        page.click("[data-testid=nav-agents]")
        reported(page, "", True)  # the Agents panel: the conversation to reopen stays general

    with running_app(["--config", str(path)], tmp_path / "second.log") as (page, _proc):
        page.wait_for_function(
            "() => document.querySelector('#conversation-title')?.textContent.trim() === 'general'",
            timeout=WAIT,
        )
        reported(page, general["id"], True)


def test_the_preferences_toggle_turns_notifications_off_in_the_file(
    tmp_path: Path, shots: Path
) -> None:
    path = tmp_path / "attention.yaml"
    path.write_text("language: fr\n" + CONFIG, encoding="utf-8")
    with running_app(["--config", str(path)], tmp_path / "app.log") as (page, _proc):
        page.click("[data-testid=nav-settings]")
        toggle = page.get_by_test_id("notifications-toggle")
        toggle.wait_for(timeout=WAIT)
        assert toggle.is_checked()  # absent from the file: on by default
        label = page.locator("label", has=toggle)
        assert label.inner_text().strip() == "Notifications"
        assert "Prévenir quand un agent répond" in (label.get_attribute("title") or "")

        # The Preferences form writes the file at once (SetPreferences); the editor follows it.
        toggle.uncheck()
        editor = page.locator("[data-testid=config-editor] .cm-content")
        page.wait_for_function(
            "() => document.querySelector('[data-testid=config-editor] .cm-content')"
            ".textContent.includes('notifications: false')",
            timeout=WAIT,
        )
        assert "language: fr" in editor.inner_text()
        panel = page.get_by_test_id("settings-panel")
        panel.screenshot(path=str(shots / "notifications-toggle.png"))
        page.wait_for_selector("[data-testid=settings-panel][data-dirty=false]", timeout=WAIT)
        assert path.read_text(encoding="utf-8") == "language: fr\nnotifications: false\n" + CONFIG

        toggle.check()  # and back: the line says true
        page.wait_for_function(
            "() => document.querySelector('[data-testid=config-editor] .cm-content')"
            ".textContent.includes('notifications: true')",
            timeout=WAIT,
        )
