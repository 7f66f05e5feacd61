"""Where scripts/package puts the app and its artifacts on each system (dist/)."""

from __future__ import annotations

import os
import platform as host
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path

from app.version import __version__

ROOT = Path(__file__).resolve().parents[2]
DIST = ROOT / "dist"
# Set by CI, which builds dist/ in its own step: the tests then use it instead of building it.
BUILT = "SIDEKICKS_TEST_BUILT_PACKAGE"


@dataclass(frozen=True)
class Layout:
    binary: Path  # what a person starts
    resources: Path  # the frozen app's sys._MEIPASS: ui/, locales/, scripts/
    artifacts: tuple[Path, ...]  # what CI uploads (and the AppDir)


def arch(machine: str | None = None) -> str:
    """The architecture as scripts/package names it (`uname -m`; Windows says AMD64)."""
    name = machine if machine is not None else host.machine()
    return {"AMD64": "x86_64", "amd64": "x86_64", "ARM64": "arm64"}.get(name, name)


def layout(
    dist: Path,
    platform: str = sys.platform,
    machine: str | None = None,
    appimagetool: bool | None = None,
) -> Layout:
    cpu, version = arch(machine), __version__
    if platform == "darwin":
        app = dist / "Sidekicks.app"
        return Layout(
            binary=app / "Contents" / "MacOS" / "Sidekicks",
            # PyInstaller's .app: binaries in Frameworks (sys._MEIPASS), data in Resources, each
            # linked from the other.
            resources=app / "Contents" / "Frameworks",
            artifacts=(app, dist / f"Sidekicks-{version}-macos-{cpu}.zip"),
        )
    if platform in ("win32", "cygwin"):
        return Layout(
            binary=dist / "Sidekicks" / "Sidekicks.exe",
            resources=dist / "Sidekicks" / "_internal",
            artifacts=(dist / f"Sidekicks-{version}-windows-{cpu}.zip",),
        )
    deb_arch = "amd64" if cpu == "x86_64" else cpu
    artifacts = [
        dist / "Sidekicks.AppDir" / "AppRun",
        dist / f"sidekicks_{version}_{deb_arch}.deb",
        dist / f"sidekicks-{version}-linux-{cpu}.tar.gz",
    ]
    if appimagetool if appimagetool is not None else shutil.which("appimagetool"):
        artifacts.append(dist / f"Sidekicks-{version}-{cpu}.AppImage")
    return Layout(
        binary=dist / "Sidekicks" / "sidekicks",
        resources=dist / "Sidekicks" / "_internal",
        artifacts=tuple(artifacts),
    )


def offscreen(platform: str = sys.platform, base: dict[str, str] | None = None) -> dict[str, str]:
    """The environment the frozen window runs in here: Qt offscreen on Linux (no display on CI;
    Chromium's sandbox off as the e2e tests have it: root, or Ubuntu 24.04's user namespace
    rules). macOS and Windows runners have a desktop session."""
    env = dict(os.environ if base is None else base)
    if platform.startswith("linux"):
        env.update(QT_QPA_PLATFORM="offscreen", QTWEBENGINE_DISABLE_SANDBOX="1")
    return env
