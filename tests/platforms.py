"""Platform marks: a test that can only run on some systems says so, with its reason.

    @pytest.mark.linux_only("reads /proc to find the test's processes")
    @pytest.mark.posix_only("process groups and SIGTERM")
    @pytest.mark.windows_only("Job Objects")
    @pytest.mark.macos_only("the dock badge")

Elsewhere the test is skipped with "<mark>: <reason>", which `-ra` prints in the summary: a
skipped platform test is always visible, never silent. A mark without a reason is an error.
"""

from __future__ import annotations

import sys

import pytest

SYSTEMS = {
    "linux_only": ("linux",),
    "posix_only": ("linux", "darwin"),
    "windows_only": ("win32",),
    "macos_only": ("darwin",),
}
PLATFORM_MARKS = tuple(SYSTEMS)


def this_system(platform: str = sys.platform) -> str:
    if platform.startswith("linux"):
        return "linux"
    if platform == "darwin":
        return "darwin"
    if platform in ("win32", "cygwin"):
        return "win32"
    return platform


def skip_reason(mark: str, reason: str, platform: str = sys.platform) -> str | None:
    """Why a test marked `mark` does not run on `platform` (None: it runs)."""
    if not reason.strip():
        raise ValueError(
            f"@pytest.mark.{mark} needs a reason: say why the test cannot run elsewhere"
        )
    if this_system(platform) in SYSTEMS[mark]:
        return None
    return f"{mark}: {reason}"


def apply_platform_marks(items: list[pytest.Item], platform: str = sys.platform) -> None:
    for item in items:
        for mark in PLATFORM_MARKS:
            for marker in item.iter_markers(mark):
                reason = marker.args[0] if marker.args else marker.kwargs.get("reason", "")
                why = skip_reason(mark, str(reason), platform)
                if why is not None:
                    item.add_marker(pytest.mark.skip(reason=why))
