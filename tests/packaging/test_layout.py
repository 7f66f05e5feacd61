"""The packaging tests' expectations follow the system they run on (quick: builds nothing)."""

from __future__ import annotations

from pathlib import Path

from app.version import __version__
from tests.packaging.layout import arch, layout, offscreen

DIST = Path("dist")


def test_linux_has_the_folder_binary_the_deb_the_tarball_and_the_appimage_with_its_tool() -> None:
    built = layout(DIST, "linux", "x86_64", appimagetool=True)
    assert built.binary == DIST / "Sidekicks" / "sidekicks"
    assert built.resources == DIST / "Sidekicks" / "_internal"
    assert {a.name for a in built.artifacts} == {
        "AppRun",
        f"sidekicks_{__version__}_amd64.deb",
        f"sidekicks-{__version__}-linux-x86_64.tar.gz",
        f"Sidekicks-{__version__}-x86_64.AppImage",
    }
    without = layout(DIST, "linux", "x86_64", appimagetool=False)
    assert not [a for a in without.artifacts if a.suffix == ".AppImage"]


def test_macos_has_the_app_bundle_and_its_zip_named_for_its_processor() -> None:
    built = layout(DIST, "darwin", "arm64")
    assert built.binary == DIST / "Sidekicks.app" / "Contents" / "MacOS" / "Sidekicks"
    assert built.resources == DIST / "Sidekicks.app" / "Contents" / "Frameworks"
    assert [a.name for a in built.artifacts] == [
        "Sidekicks.app",
        f"Sidekicks-{__version__}-macos-arm64.zip",
    ]


def test_windows_has_the_exe_in_its_folder_and_the_zip_named_as_uname_says() -> None:
    built = layout(DIST, "win32", "AMD64")
    assert built.binary == DIST / "Sidekicks" / "Sidekicks.exe"
    assert built.resources == DIST / "Sidekicks" / "_internal"
    assert [a.name for a in built.artifacts] == [f"Sidekicks-{__version__}-windows-x86_64.zip"]
    assert arch("AMD64") == arch("x86_64") == "x86_64"


def test_only_linux_runs_the_window_offscreen() -> None:
    assert offscreen("linux", {"HOME": "/h"}) == {
        "HOME": "/h",
        "QT_QPA_PLATFORM": "offscreen",
        "QTWEBENGINE_DISABLE_SANDBOX": "1",
    }
    for system in ("darwin", "win32"):
        assert offscreen(system, {"HOME": "/h"}) == {"HOME": "/h"}
