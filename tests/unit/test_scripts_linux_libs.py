"""scripts/linux_libs.sh: the system libraries the Qt window misses (ldd) become Debian/Ubuntu
package names; setup installs them for tests and packaging, or says which to install (fake ldd,
apt-get, apt-cache and id on PATH)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BASH = shutil.which("bash")
pytestmark = pytest.mark.posix_only("fakes ldd and apt-get with executable scripts on PATH")

MISSING = ["libxkbfile.so.1", "libasound.so.2", "libxcb-xinput.so.0", "libnss3.so", "libfoo.so.9"]


def check(tmp_path: Path, install: int, root: bool = True, t64: bool = True) -> tuple[str, str]:
    """check_linux_libs in a folder with a venv's Qt; its stderr and the apt-get calls."""
    assert BASH is not None
    qt = tmp_path / ".venv/lib/python3.11/site-packages/PyQt6/Qt6"
    qt.mkdir(parents=True)
    tools = tmp_path / "tools"
    tools.mkdir()
    calls = tmp_path / "apt-calls.txt"
    not_found = "".join(f"\\t{lib} => not found\\n" for lib in MISSING)
    fakes = {
        "ldd": f'printf "\\tlibc.so.6 => /lib/libc.so.6\\n{not_found}"',
        "id": f"echo {0 if root else 1000}",
        "sudo": "exit 1",
        "apt-get": f'echo "apt-get $*" >> "{calls}"',
        # Ubuntu 24.04 knows libasound2t64; Debian 12 does not.
        "apt-cache": f'[ "$2" = libasound2t64 ] && exit {0 if t64 else 1}; exit 1',
    }
    for name, body in fakes.items():
        (tools / name).write_text(f"#!/bin/sh\n{body}\n", encoding="utf-8")
        (tools / name).chmod(0o755)
    script = (
        f'say() {{ echo "[setup] $*" >&2; }}; . "{ROOT / "scripts/linux_libs.sh"}"; '
        f"check_linux_libs {install}"
    )
    done = subprocess.run(
        [BASH, "-c", script],
        cwd=tmp_path,
        env={"PATH": f"{tools}:/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    return done.stderr, calls.read_text(encoding="utf-8") if calls.exists() else ""


def test_missing_libraries_are_said_as_the_packages_to_install(tmp_path: Path) -> None:
    said, apt = check(tmp_path, install=0)
    assert apt == ""
    assert "sudo apt-get install libasound2 libnss3 libxcb-xinput0 libxkbfile1" in said, said
    assert "the Qt window also misses: libfoo.so.9" in said


def test_tests_and_packaging_install_them_with_the_t64_names_where_ubuntu_has_them(
    tmp_path: Path,
) -> None:
    _, apt = check(tmp_path, install=1)
    assert "apt-get update -qq" in apt
    assert (
        "apt-get install -y -qq --no-install-recommends "
        "libasound2t64 libnss3 libxcb-xinput0 libxkbfile1"
    ) in apt


def test_the_old_names_where_there_is_no_t64_package(tmp_path: Path) -> None:
    _, apt = check(tmp_path, install=1, t64=False)
    assert "--no-install-recommends libasound2 libnss3 libxcb-xinput0 libxkbfile1" in apt


def test_without_root_or_sudo_nothing_is_installed_and_the_command_is_said(
    tmp_path: Path,
) -> None:
    said, apt = check(tmp_path, install=1, root=False)
    assert apt == ""
    assert "sudo apt-get install libasound2 libnss3" in said
