"""The marks of every test that talks to a private D-Bus session (tests/fakes/notification_server).

Linux only: D-Bus is the Linux desktop's bus (macOS and Windows notify through their own APIs),
and dbus-fast, which the fake server is made of, is installed on Linux alone (a dependency of
desktop-notifier there). A test module imports the fake server under `if ON_LINUX:` and carries
`pytestmark = NEEDS_DBUS`: elsewhere it is collected, and skipped with the reason.
"""

from __future__ import annotations

import shutil
import sys

import pytest

ON_LINUX = sys.platform.startswith("linux")
DBUS_DAEMON = shutil.which("dbus-daemon")

NEEDS_DBUS = [
    pytest.mark.linux_only("D-Bus notifications: the fake notification server is a D-Bus service"),
    pytest.mark.skipif(
        ON_LINUX and DBUS_DAEMON is None,
        reason="dbus-daemon is missing: install the `dbus` package (./scripts/setup does as root)",
    ),
]
