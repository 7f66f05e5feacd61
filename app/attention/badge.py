"""The count on the app's launcher icon: the Unity LauncherEntry D-Bus signal on Linux (GNOME
with Dash to Dock/Ubuntu Dock, KDE's task manager and Plank read it), the dock tile's badge on
macOS; on Windows the taskbar button flashes when the count grows (app/attention/taskbar_windows.py:
the count itself is in the window title the button shows).

Best effort: a desktop without a session bus or a dock shows no badge, and nothing fails.
"""

from __future__ import annotations

import asyncio
import logging
import sys
from typing import Any

log = logging.getLogger(__name__)

DESKTOP_ID = "application://sidekicks.desktop"  # build/linux/sidekicks.desktop
UNITY_PATH = "/com/canonical/unity/launcherentry/sidekicks"
UNITY_INTERFACE = "com.canonical.Unity.LauncherEntry"


def unity_update(total: int) -> Any:
    """The D-Bus signal that sets (or hides, at 0) the count on the launcher entry."""
    from dbus_fast import Message, Variant

    return Message.new_signal(
        UNITY_PATH,
        UNITY_INTERFACE,
        "Update",
        "sa{sv}",
        [DESKTOP_ID, {"count": Variant("x", total), "count-visible": Variant("b", total > 0)}],
    )


class LauncherBadge:
    """Shows the count; used on the notifier's loop (its D-Bus connection belongs to it)."""

    def __init__(self) -> None:
        self._bus: Any = None
        self._shown = 0

    async def show(self, total: int) -> None:
        grew, self._shown = total > self._shown, total
        try:
            if sys.platform == "darwin":
                _dock_badge(total)
            elif sys.platform.startswith("linux"):
                await self._unity(total)
            elif sys.platform == "win32" and grew:
                from app.attention.taskbar_windows import flash_taskbar

                flash_taskbar()
        except Exception:
            log.debug("the launcher badge was not updated", exc_info=True)

    async def _unity(self, total: int) -> None:
        from dbus_fast.aio import MessageBus

        if self._bus is None or not self._bus.connected:
            self._bus = None
            self._bus = await asyncio.wait_for(MessageBus().connect(), 5)
        await self._bus.send(unity_update(total))

    def close(self) -> None:
        if self._bus is not None:
            self._bus.disconnect()
            self._bus = None


def _dock_badge(total: int) -> None:
    """macOS (coded, not verified here): NSDockTile's badge label, set on the main thread."""
    import AppKit  # type: ignore[import-not-found]  # pyobjc, present with pywebview's Cocoa

    label = str(total) if total else ""

    def apply() -> None:
        AppKit.NSApplication.sharedApplication().dockTile().setBadgeLabel_(label)

    AppKit.NSOperationQueue.mainQueue().addOperationWithBlock_(apply)
