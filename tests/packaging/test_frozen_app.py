"""The packaged app: built once by scripts/package, then run as a person would run it.

Each system has its own artifacts (tests/packaging/layout.py): Linux the folder, AppDir, .deb,
tarball (and .AppImage where appimagetool is installed), macOS the .app and its zip, Windows the
folder with Sidekicks.exe and its zip. CI builds the package in its own step first and sets
SIDEKICKS_TEST_BUILT_PACKAGE=1: the tests then use dist/ as it is instead of building it again.
The build, `packaged`, is tests/packaging/conftest.py's: once per run for these tests and
test_frozen_launcher.py's.
"""

from __future__ import annotations

import os
import plistlib
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from app.version import __version__
from tests.e2e.window import api, running_frozen_app
from tests.packaging.layout import DIST, Layout, offscreen
from tests.waiting import wait_for

# Building the package (PyInstaller, with its first install on a fresh clone) takes minutes.
pytestmark = [pytest.mark.slow, pytest.mark.timeout(1800)]


def test_the_artifacts_are_built(packaged: Layout) -> None:
    assert os.access(packaged.binary, os.X_OK)
    for artifact in packaged.artifacts:
        assert artifact.exists(), f"{artifact.name} is missing from dist/"
    resources = packaged.resources
    assert (resources / "ui" / "dist" / "index.html").is_file()
    assert (resources / "locales" / "fr" / "LC_MESSAGES" / "messages.mo").is_file()
    assert (resources / "scripts" / "agents.sh").is_file()
    for unwanted in ("pytest", "hypothesis", "playwright", "mypy", "tkinter", "babel", "PIL"):
        assert not list(resources.glob(f"{unwanted}*")), f"{unwanted} was bundled"


def test_the_frozen_app_prints_its_version(packaged: Layout) -> None:
    out = subprocess.run([packaged.binary, "--version"], capture_output=True, text=True,
                         timeout=120)  # fmt: skip
    assert out.stdout.strip() == f"Sidekicks {__version__}"


def test_the_frozen_app_opens_its_window_and_its_bridge_answers(
    packaged: Layout, tmp_path: Path
) -> None:
    """--self-test: this system's own window (Qt offscreen, WKWebView, WebView2) loads the UI,
    a bridge call and a pushed event go through under the page's CSP, then the app exits 0."""
    config = tmp_path / "frozen.yaml"
    config.write_text("agents:\n  - name: demo\n    builtin: demo\n", encoding="utf-8")
    # The verdict also goes to a file: a windowed app (Windows, a macOS bundle) has no stderr.
    verdict = tmp_path / "self-test.txt"
    out = subprocess.run(
        [packaged.binary, "--self-test", "--config", str(config)],
        capture_output=True,
        text=True,
        timeout=180,
        # The default window (a developer's SIDEKICKS_GUI=gtk is for the GTK variant).
        env={**offscreen(), "SIDEKICKS_SELF_TEST_REPORT": str(verdict), "SIDEKICKS_GUI": ""},
    )
    said = verdict.read_text(encoding="utf-8") if verdict.exists() else "(no report)"
    assert out.returncode == 0, said + out.stdout[-3000:] + out.stderr[-3000:]
    # This system's own window (the backend the spec bundles for it).
    backend = {"darwin": "cocoa", "win32": "edgechromium"}.get(sys.platform, "qt")
    assert said.startswith(f"self-test passed on the {backend} backend"), said


@pytest.mark.linux_only("drives the Qt window over CDP (QtWebEngine's remote debugging)")
def test_the_frozen_app_renders_and_the_demo_answers_without_python(
    packaged: Layout, tmp_path: Path
) -> None:
    config = tmp_path / "frozen.yaml"
    config.write_text("agents:\n  - name: demo\n    builtin: demo\n", encoding="utf-8")
    # No Python on PATH: the demo agent must run from the frozen executable itself.
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": ""}
    with running_frozen_app(packaged.binary, ["--config", str(config)], tmp_path / "app.log",
                            env) as page:  # fmt: skip
        assert api(page, "ConfigService", "Current")["path"] == str(config)
        direct = api(page, "ChannelService", "Direct", "demo")
        api(page, "ChannelService", "Send", direct["id"], "/echo hello from the frozen app")

        def answer() -> str:
            messages = api(page, "ChannelService", "Conversation", direct["id"])["messages"]
            done = [m for m in messages if m["role"] == "agent" and m["done"]]
            return done[-1]["parts"][0]["text"] if done else ""

        assert wait_for(answer, timeout=60) == "hello from the frozen app"


@pytest.mark.linux_only("a .deb is a Debian/Ubuntu package (dpkg)")
def test_the_deb_installs_a_desktop_entry_and_the_binary(packaged: Layout, tmp_path: Path) -> None:
    deb = DIST / f"sidekicks_{__version__}_amd64.deb"
    root = tmp_path / "root"
    subprocess.run(["dpkg", "-x", deb, root], check=True, timeout=300)
    desktop = (root / "usr/share/applications/sidekicks.desktop").read_text()
    assert "Exec=sidekicks %f" in desktop
    assert "Icon=sidekicks" in desktop
    assert "Type=Application" in desktop
    assert (root / "usr/share/icons/hicolor/512x512/apps/sidekicks.png").is_file()
    link = root / "usr/bin/sidekicks"
    assert link.is_symlink() and os.readlink(link) == "/opt/sidekicks/sidekicks"
    installed = root / "opt/sidekicks/sidekicks"
    assert installed.read_bytes()[:4] == b"\x7fELF"
    out = subprocess.run([installed, "--version"], capture_output=True, text=True, timeout=60)
    assert out.stdout.strip() == f"Sidekicks {__version__}"
    info = subprocess.run(
        ["dpkg-deb", "--field", deb, "Package", "Version"], capture_output=True, text=True
    )
    assert info.stdout.split() == ["Package:", "sidekicks", "Version:", __version__]


@pytest.mark.macos_only("the .app bundle is built on macOS only")
def test_the_app_bundle_says_who_it_is_and_comes_out_of_its_zip_still_signed(
    packaged: Layout, tmp_path: Path
) -> None:
    app = DIST / "Sidekicks.app"
    info = plistlib.loads((app / "Contents" / "Info.plist").read_bytes())
    assert info["CFBundleIdentifier"] == "dev.sidekicks.Sidekicks"
    assert info["CFBundleExecutable"] == "Sidekicks"
    assert info["CFBundleShortVersionString"] == __version__
    assert info["NSHighResolutionCapable"] is True
    assert info["LSMinimumSystemVersion"] == "11.0"
    assert (app / "Contents" / "Resources" / info["CFBundleIconFile"]).is_file()
    archive = next(a for a in packaged.artifacts if a.suffix == ".zip")
    # Unzipped as Finder would: the bundle's links (Frameworks <-> Resources) and its signature
    # (ad-hoc unless build/macos/sign signed it) come through, else macOS refuses to open it.
    subprocess.run(["ditto", "-x", "-k", archive, tmp_path], check=True, timeout=300)
    unzipped = tmp_path / "Sidekicks.app"
    assert (unzipped / "Contents" / "MacOS" / "Sidekicks").is_file()
    signed = subprocess.run(["codesign", "--verify", "--deep", "--strict", unzipped],
                            capture_output=True, text=True, timeout=300)  # fmt: skip
    assert signed.returncode == 0, signed.stderr


@pytest.mark.windows_only("Sidekicks.exe is built on Windows only")
def test_the_exe_has_no_console_a_version_resource_and_its_zip_holds_it(packaged: Layout) -> None:
    import pefile  # type: ignore[import-untyped]  # PyInstaller's own dependency on Windows

    exe = pefile.PE(str(packaged.binary))
    assert exe.OPTIONAL_HEADER.Subsystem == pefile.SUBSYSTEM_TYPE["IMAGE_SUBSYSTEM_WINDOWS_GUI"]
    strings = {
        key.decode(): value.decode()
        for info in exe.FileInfo[0]
        if info.Key == b"StringFileInfo"
        for table in info.StringTable
        for key, value in table.entries.items()
    }
    assert strings["ProductName"] == "Sidekicks"
    assert strings["ProductVersion"] == __version__
    assert strings["OriginalFilename"] == "Sidekicks.exe"
    archive = next(a for a in packaged.artifacts if a.suffix == ".zip")
    names = set(zipfile.ZipFile(archive).namelist())
    assert "Sidekicks/Sidekicks.exe" in names
    assert "Sidekicks/_internal/ui/dist/index.html" in names
