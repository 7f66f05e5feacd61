"""The code-signing hooks scripts/package runs (build/macos/sign, build/windows/sign): skipped
with a message when their variables are unset; otherwise the signing tools get the documented
arguments (recorded here by fake codesign, xcrun, ditto, spctl and signtool programs)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BASH = shutil.which("bash")
pytestmark = pytest.mark.posix_only("fakes the signing tools with executable scripts on PATH")


TOOLS = ("codesign", "xcrun", "ditto", "spctl", "signtool")


def run_hook(
    hook: str, target: str, tmp_path: Path, fakes: tuple[str, ...] = TOOLS, **env: str
) -> tuple[int, str, list[str]]:
    """Runs the hook with fake tools first on PATH; its exit code, its stderr, the tools' calls."""
    assert BASH is not None
    tools = tmp_path / "tools"
    tools.mkdir(exist_ok=True)
    calls = tmp_path / "calls.txt"
    for tool in fakes:
        fake = tools / tool
        fake.write_text(f'#!/bin/sh\necho "{tool} $*" >> "{calls}"\n', encoding="utf-8")
        fake.chmod(0o755)
    done = subprocess.run(
        [BASH, str(ROOT / hook), target],
        env={"PATH": f"{tools}:/usr/bin:/bin", **env},
        capture_output=True,
        text=True,
        timeout=60,
    )
    said = calls.read_text(encoding="utf-8").splitlines() if calls.exists() else []
    return done.returncode, done.stderr, said


def test_macos_signing_is_skipped_and_said_without_an_identity(tmp_path: Path) -> None:
    code, stderr, calls = run_hook("build/macos/sign", "dist/Sidekicks.app", tmp_path)
    assert code == 0
    assert "SIDEKICKS_MACOS_SIGN_IDENTITY is not set" in stderr
    assert calls == []


def test_macos_signing_uses_the_hardened_runtime_and_notarizes_with_a_profile(
    tmp_path: Path,
) -> None:
    identity = "Developer ID Application: Jane Doe (TEAM123)"
    code, stderr, calls = run_hook(
        "build/macos/sign",
        "dist/Sidekicks.app",
        tmp_path,
        SIDEKICKS_MACOS_SIGN_IDENTITY=identity,
        SIDEKICKS_MACOS_NOTARY_PROFILE="notary",
        SIDEKICKS_MACOS_NOTARY_KEYCHAIN="/tmp/ci.keychain-db",
    )
    assert code == 0, stderr
    entitlements = ROOT / "build" / "macos" / "entitlements.plist"
    assert calls[0] == (
        "codesign --force --deep --timestamp --options runtime "
        f"--entitlements {entitlements} --sign {identity} dist/Sidekicks.app"
    )
    assert calls[1] == "codesign --verify --deep --strict --verbose=2 dist/Sidekicks.app"
    assert calls[2].startswith("ditto -c -k --keepParent dist/Sidekicks.app ")
    submit = calls[3].split()
    assert submit[:3] == ["xcrun", "notarytool", "submit"]
    assert "--keychain-profile notary --keychain /tmp/ci.keychain-db --wait" in calls[3]
    assert calls[4:] == [
        "xcrun stapler staple dist/Sidekicks.app",
        "spctl --assess --type execute --verbose dist/Sidekicks.app",
    ]


def test_macos_signing_without_a_profile_is_not_notarized(tmp_path: Path) -> None:
    code, stderr, calls = run_hook(
        "build/macos/sign", "dist/Sidekicks.app", tmp_path, SIDEKICKS_MACOS_SIGN_IDENTITY="Me"
    )
    assert code == 0, stderr
    assert "signed, not notarized" in stderr
    assert [c.split()[0] for c in calls] == ["codesign", "codesign"]


def test_windows_signing_is_skipped_and_said_without_a_certificate(tmp_path: Path) -> None:
    code, stderr, calls = run_hook("build/windows/sign", "dist/Sidekicks/Sidekicks.exe", tmp_path)
    assert code == 0
    assert "SIDEKICKS_WINDOWS_SIGN_CERT is not set" in stderr
    assert calls == []


def test_windows_signing_timestamps_with_sha256_and_verifies(tmp_path: Path) -> None:
    code, stderr, calls = run_hook(
        "build/windows/sign",
        "dist/Sidekicks/Sidekicks.exe",
        tmp_path,
        SIDEKICKS_WINDOWS_SIGN_CERT="/certs/sidekicks.pfx",
        SIDEKICKS_WINDOWS_SIGN_PASSWORD="secret",
    )
    assert code == 0, stderr
    assert calls == [
        "signtool sign /f /certs/sidekicks.pfx /p secret /fd SHA256 "
        "/tr http://timestamp.digicert.com /td SHA256 dist/Sidekicks/Sidekicks.exe",
        "signtool verify /pa dist/Sidekicks/Sidekicks.exe",
    ]


def test_windows_signing_without_signtool_fails_and_says_where_to_get_it(tmp_path: Path) -> None:
    code, stderr, calls = run_hook(
        "build/windows/sign",
        "dist/Sidekicks/Sidekicks.exe",
        tmp_path,
        fakes=(),
        SIDEKICKS_WINDOWS_SIGN_CERT="/certs/sidekicks.pfx",
    )
    assert code == 1
    assert (
        "signtool.exe was not found (install the Windows SDK or set SIDEKICKS_SIGNTOOL)" in stderr
    )
    assert calls == []
