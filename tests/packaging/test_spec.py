"""build/sidekicks.spec read for each system (quick: PyInstaller's build steps are recorded, not
run), so that the macOS and Windows branches, which only their runners build, are checked here
too; and the Windows version resource as scripts/package fills it in."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any
from unittest import mock

import pytest

from app.version import __version__

ROOT = Path(__file__).resolve().parents[2]
SPEC = ROOT / "build" / "sidekicks.spec"
ICONS = ROOT / "build" / "icons"


def read_spec(platform: str) -> dict[str, dict[str, Any]]:
    """The keyword arguments each PyInstaller step (Analysis, EXE, COLLECT, BUNDLE) got."""
    steps: dict[str, dict[str, Any]] = {}

    def step(name: str) -> Any:
        def record(*args: Any, **kwargs: Any) -> SimpleNamespace:
            steps[name] = {"args": args, **kwargs}
            return SimpleNamespace(datas=[("ui/dist/index.html", "", "DATA")], pure=[],
                                   scripts=[], binaries=[])  # fmt: skip

        return record

    names = {n: step(n) for n in ("Analysis", "PYZ", "EXE", "COLLECT", "BUNDLE")}
    with mock.patch.object(sys, "platform", platform):
        exec(compile(SPEC.read_text(encoding="utf-8"), str(SPEC), "exec"),
             {"SPECPATH": str(SPEC.parent), "__name__": "spec", **names})  # fmt: skip
    return steps


def test_macos_builds_a_bundle_with_its_identity_the_cocoa_window_and_the_icns() -> None:
    steps = read_spec("darwin")
    exe, bundle = steps["EXE"], steps["BUNDLE"]
    assert exe["name"] == "Sidekicks" and exe["console"] is False
    assert exe["icon"] == str(ICONS / "sidekicks.icns") == bundle["icon"]
    assert bundle["name"] == "Sidekicks.app"
    assert bundle["bundle_identifier"] == "dev.sidekicks.Sidekicks"
    plist = bundle["info_plist"]
    assert plist["CFBundleShortVersionString"] == plist["CFBundleVersion"] == __version__
    assert plist["NSHighResolutionCapable"] is True
    assert plist["LSMinimumSystemVersion"] == "11.0"
    assert plist["NSAppTransportSecurity"] == {"NSAllowsLocalNetworking": True}
    analysis = steps["Analysis"]
    assert "webview.platforms.cocoa" in analysis["hiddenimports"]
    assert "desktop_notifier.backends.macos" in analysis["hiddenimports"]
    assert "webview.platforms.cocoa" not in analysis["excludes"]
    assert {"PyQt6", "webview.platforms.qt"} <= set(analysis["excludes"])
    assert not [m for m in analysis["hiddenimports"] if "Qt" in m]


def test_windows_builds_a_windowed_exe_with_its_version_the_webview2_window_and_the_ico() -> None:
    steps = read_spec("win32")
    exe = steps["EXE"]
    assert "BUNDLE" not in steps
    assert exe["name"] == "Sidekicks" and exe["console"] is False
    assert exe["icon"] == str(ICONS / "sidekicks.ico")
    assert exe["version"] == str(ROOT / "build" / "windows" / "version_info.txt")
    analysis = steps["Analysis"]
    wanted = {"webview.platforms.winforms", "webview.platforms.edgechromium", "clr", "winpty"}
    assert wanted <= set(analysis["hiddenimports"])
    assert "app.terminals.windows" in analysis["hiddenimports"]
    assert not wanted & set(analysis["excludes"])
    assert {"PyQt6", "webview.platforms.qt"} <= set(analysis["excludes"])


def test_linux_builds_the_lowercase_binary_with_the_qt_window() -> None:
    steps = read_spec("linux")
    exe = steps["EXE"]
    assert "BUNDLE" not in steps
    assert exe["name"] == "sidekicks" and exe["icon"] is None and exe["version"] is None
    analysis = steps["Analysis"]
    assert {"webview.platforms.qt", "PyQt6.QtWebEngineWidgets"} <= set(analysis["hiddenimports"])
    assert "webview.platforms.cocoa" in analysis["excludes"]


@pytest.mark.parametrize("version", ["0.1.0", "2.10"])
def test_the_version_resource_filled_in_as_scripts_package_does_is_valid(version: str) -> None:
    """PyInstaller evaluates the version file as Python with its versioninfo classes."""
    major, minor, *rest = version.split(".")
    text = (ROOT / "build" / "windows" / "version_info.template").read_text(encoding="utf-8")
    for key, value in {"MAJOR": major, "MINOR": minor, "PATCH": rest[0] if rest else "0",
                       "VERSION": version}.items():  # fmt: skip
        text = text.replace(f"@{key}@", value)
    assert not re.search(r"@\w+@", text)

    def made(kind: str) -> Any:
        return lambda *args, **kwargs: (kind, args, kwargs)

    kinds = ("VSVersionInfo", "FixedFileInfo", "StringFileInfo", "StringTable", "StringStruct",
             "VarFileInfo", "VarStruct")  # fmt: skip
    info = eval(text, {k: made(k) for k in kinds})  # the template is ours
    fixed = info[2]["ffi"][2]
    assert fixed["filevers"][:2] == (int(major), int(minor))
    strings = dict(s[1] for s in info[2]["kids"][0][1][0][0][1][1])
    assert strings["ProductVersion"] == version
    assert strings["OriginalFilename"] == "Sidekicks.exe"
