"""The Windows taskbar's attention signal, by simulation: a fake user32 stands for the API."""

from __future__ import annotations

from typing import Any

from app.attention.taskbar_windows import (
    FLASHW_TIMERNOFG,
    FLASHW_TRAY,
    FLASHWINFO,
    flash_taskbar,
)


class FakeUser32:
    """Three top-level windows: two of our process (one hidden), one of another."""

    def __init__(self, pid: int) -> None:
        self.owners = {101: pid, 102: pid, 201: pid + 1}
        self.visible = {101: True, 102: False, 201: True}
        self.flashed: list[tuple[int, int, int]] = []

    def EnumWindows(self, callback: Any, _: int) -> bool:
        for hwnd in self.owners:
            if not callback(hwnd, None):
                break
        return True

    def GetWindowThreadProcessId(self, hwnd: int, owner: Any) -> int:
        owner._obj.value = self.owners[hwnd]
        return 1

    def IsWindowVisible(self, hwnd: int) -> bool:
        return self.visible[hwnd]

    def FlashWindowEx(self, info: Any) -> bool:
        flash: FLASHWINFO = info._obj
        assert flash.cbSize > 0
        self.flashed.append((flash.hwnd, flash.dwFlags, flash.uCount))
        return True


def test_only_the_apps_visible_windows_flash_until_they_come_to_the_foreground() -> None:
    user32 = FakeUser32(pid=4242)
    assert flash_taskbar(user32, pid=4242) == 1
    assert user32.flashed == [(101, FLASHW_TRAY | FLASHW_TIMERNOFG, 0)]


def test_a_process_without_a_visible_window_flashes_nothing() -> None:
    user32 = FakeUser32(pid=4242)
    assert flash_taskbar(user32, pid=999) == 0
    assert user32.flashed == []


def test_on_windows_the_badge_flashes_when_the_count_grows_not_when_it_falls(
    monkeypatch: Any,
) -> None:
    import asyncio
    import sys

    from app.attention import badge, taskbar_windows

    flashes: list[int] = []
    monkeypatch.setattr(sys, "platform", "win32")
    monkeypatch.setattr(taskbar_windows, "flash_taskbar", lambda: flashes.append(1) or 1)
    launcher = badge.LauncherBadge()
    for total in (1, 2, 2, 1, 0, 3):
        asyncio.run(launcher.show(total))
    assert len(flashes) == 3  # 0→1, 1→2, 0→3
