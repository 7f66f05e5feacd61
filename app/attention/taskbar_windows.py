"""Windows: the taskbar button asks for attention (coded, verified by simulation only here).

The count itself is in the window's title, which the taskbar button shows ("(3) Sidekicks").
When the count grows, the button flashes (`FlashWindowEx`, FLASHW_TRAY | FLASHW_TIMERNOFG) until
the window comes to the foreground — what Windows' own chat apps do. A numbered overlay icon
(ITaskbarList3.SetOverlayIcon) would need icons drawn per count: not done.
"""

from __future__ import annotations

import ctypes
import os
from typing import Any

FLASHW_TRAY = 0x2
FLASHW_TIMERNOFG = 0xC


class FLASHWINFO(ctypes.Structure):
    _fields_ = [  # ctypes' own declaration form
        ("cbSize", ctypes.c_uint),
        ("hwnd", ctypes.c_void_p),
        ("dwFlags", ctypes.c_uint),
        ("uCount", ctypes.c_uint),
        ("dwTimeout", ctypes.c_uint),
    ]


def app_windows(user32: Any, pid: int) -> list[int]:
    """The visible top-level windows of process `pid`."""
    found: list[int] = []
    enum_proc = ctypes.CFUNCTYPE(ctypes.c_bool, ctypes.c_void_p, ctypes.c_void_p)

    def visit(hwnd: int, _: Any) -> bool:
        owner = ctypes.c_ulong(0)
        user32.GetWindowThreadProcessId(hwnd, ctypes.byref(owner))
        if owner.value == pid and user32.IsWindowVisible(hwnd):
            found.append(hwnd)
        return True

    user32.EnumWindows(enum_proc(visit), 0)
    return found


def flash_taskbar(user32: Any | None = None, pid: int | None = None) -> int:
    """Flashes the taskbar button of each of the app's windows; how many were asked."""
    if user32 is None:
        user32 = getattr(ctypes, "windll").user32  # noqa: B009 (ctypes.windll: Windows only)
    windows = app_windows(user32, os.getpid() if pid is None else pid)
    for hwnd in windows:
        info = FLASHWINFO(ctypes.sizeof(FLASHWINFO), hwnd, FLASHW_TRAY | FLASHW_TIMERNOFG, 0, 0)
        user32.FlashWindowEx(ctypes.byref(info))
    return len(windows)
