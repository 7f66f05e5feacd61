"""The shell scripts run on Linux, macOS (bash 3.2, BSD sed and no sha256sum) and Windows (Git
Bash, a venv with Scripts/python.exe): the constructs that broke there do not come back, and
scripts/common.sh picks each system's programs."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = [
    "scripts/setup",
    "scripts/test",
    "scripts/run",
    "scripts/package",
    "scripts/common.sh",
    "scripts/linux_libs.sh",
    ".ci/run",
    "build/macos/sign",
    "build/windows/sign",
]
RUNNABLE = [s for s in SCRIPTS if not s.endswith(".sh")]
# macOS's own bash is 3.2 (Homebrew's may come first on PATH): the scripts must parse and run there.
BASH = (
    "/bin/bash" if sys.platform == "darwin" and Path("/bin/bash").exists() else shutil.which("bash")
)

# What bash 3.2 (macOS), BSD tools or Git Bash lack, and the portable way (scripts/common.sh).
NOT_PORTABLE = {
    r"\bmapfile\b|\breadarray\b": "bash 4 (macOS has bash 3.2): read in a while loop",
    r"\$\{\w+(,,|\^\^)": "bash 4 case conversion: use tr",
    r"\b(declare|local|typeset) -A\b": "bash 4 associative arrays: use a case statement",
    r"\bsed\b[^|;\n]*\s-i\b": "sed -i differs between GNU and BSD sed: write to another file",
    r"\breadlink -f\b": "BSD readlink has no -f: cd and pwd",
    r"&>>|\|&": "bash 4 redirections: use >>file 2>&1, 2>&1 |",
    r"\bpowershell\b": "not on every Windows shell path: use Python",
}
# Allowed in one place only: the function that chooses (scripts/common.sh).
CHOSEN_IN_COMMON = {
    r"\bsha256sum\b": "macOS has no sha256sum: use sha256 (scripts/common.sh)",
    r"\.venv/bin/": "Windows venvs have Scripts/: use $venv_python, $venv_bin",
    r"(^|[\s(])python3?\s": "Windows may have no python3: use find_python or $venv_python",
}


def code_lines(script: str) -> list[tuple[int, str]]:
    lines = (ROOT / script).read_text(encoding="utf-8").splitlines()
    return [(n, line) for n, line in enumerate(lines, 1) if not line.lstrip().startswith("#")]


@pytest.mark.parametrize("script", SCRIPTS)
def test_the_script_uses_nothing_that_macos_or_git_bash_lacks(script: str) -> None:
    found = [
        f"{script}:{n}: {line.strip()}  ({why})"
        for n, line in code_lines(script)
        for pattern, why in NOT_PORTABLE.items()
        if re.search(pattern, line)
    ]
    if script != "scripts/common.sh":
        found += [
            f"{script}:{n}: {line.strip()}  ({why})"
            for n, line in code_lines(script)
            for pattern, why in CHOSEN_IN_COMMON.items()
            if re.search(pattern, line)
        ]
    assert not found, "\n".join(found)


@pytest.mark.parametrize("script", SCRIPTS)
def test_the_script_has_lf_endings_and_is_valid_bash(script: str) -> None:
    data = (ROOT / script).read_bytes()
    assert b"\r" not in data, f"{script} has CRLF endings: bash cannot run it"
    if BASH is None:
        pytest.skip("no bash on PATH to check the syntax with")
    checked = subprocess.run([BASH, "-n", str(ROOT / script)], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr


@pytest.mark.parametrize("script", RUNNABLE)
def test_the_runnable_script_finds_bash_on_path_stops_on_errors_and_is_executable(
    script: str,
) -> None:
    text = (ROOT / script).read_text(encoding="utf-8")
    assert text.startswith("#!/usr/bin/env bash\n"), "macOS's /bin/bash is 3.2: find bash on PATH"
    assert "set -euo pipefail" in text
    if (ROOT / ".git").exists() and shutil.which("git"):
        staged = subprocess.run(["git", "ls-files", "-s", script], cwd=ROOT,
                                capture_output=True, text=True)  # fmt: skip
        if staged.stdout:  # committed: its mode must say executable (Git Bash reads the shebang)
            assert staged.stdout.startswith("100755"), staged.stdout


def test_every_checkout_keeps_lf_endings_even_with_autocrlf() -> None:
    attributes = (ROOT / ".gitattributes").read_text(encoding="utf-8").splitlines()
    assert "* text=auto eol=lf" in attributes


def fake_program(folder: Path, name: str, body: str) -> None:
    path = folder / name
    path.write_text(f"#!/bin/sh\n{body}\n", encoding="utf-8")
    path.chmod(0o755)


def common(tmp_path: Path, uname: str, command: str, **programs: str) -> str:
    """Runs `command` after sourcing scripts/common.sh, with only fake programs on PATH."""
    assert BASH is not None
    folder = Path(tempfile.mkdtemp(dir=tmp_path))  # a new PATH for each call
    fake_program(folder, "uname", f"echo {uname}")
    for name, body in programs.items():
        fake_program(folder, name.replace("_", "."), body)
    script = f'. "{ROOT / "scripts/common.sh"}"; {command}'
    done = subprocess.run(
        [BASH, "-c", script], env={"PATH": str(folder)}, capture_output=True, text=True
    )
    return done.stdout.strip() + done.stderr.strip()


@pytest.mark.posix_only("fakes uname and python with executable scripts on PATH")
def test_the_venv_is_in_scripts_with_an_exe_under_git_bash(tmp_path: Path) -> None:
    said = common(tmp_path, "MINGW64_NT-10.0-20348", 'echo "$system $venv_bin $venv_python"')
    assert said == "windows .venv/Scripts .venv/Scripts/python.exe"
    said = common(tmp_path, "Darwin", 'echo "$system $venv_bin $venv_python"')
    assert said == "macos .venv/bin .venv/bin/python"
    said = common(tmp_path, "Linux", 'echo "$system $venv_python"')
    assert said == "linux .venv/bin/python"


@pytest.mark.posix_only("fakes uname and shasum with executable scripts on PATH")
def test_the_hash_falls_back_to_shasum_where_sha256sum_is_missing(tmp_path: Path) -> None:
    assert common(tmp_path, "Darwin", "sha256", shasum='echo "shasum $*"') == "shasum -a 256"
    said = common(tmp_path, "Linux", "sha256", sha256sum='echo "sha256sum $*"')
    assert said == "sha256sum"


@pytest.mark.posix_only("fakes uname and python with executable scripts on PATH")
def test_python_is_the_first_that_is_3_11_or_newer(tmp_path: Path) -> None:
    # Windows' python3 may be the Store's placeholder, which fails: python is then the one.
    said = common(tmp_path, "MINGW64_NT", "find_python", python3="exit 9009", python="exit 0")
    assert said == "python"
    said = common(tmp_path, "Linux", "find_python", python3_11="exit 0", python3="exit 0")
    assert said == "python3.11"
    said = common(tmp_path, "MINGW64_NT", "find_python", py='[ "$1" = -3.11 ]')
    assert said == "py -3.11"
    said = common(tmp_path, "Linux", "PYTHON=/opt/py/bin/python3.12 find_python")
    assert said == "/opt/py/bin/python3.12"
    assert "no Python 3.11 or newer" in common(tmp_path, "Linux", "find_python || echo failed")
