"""The packaged app, built once per run for every test of it (test_frozen_app.py,
test_frozen_launcher.py): scripts/package takes minutes, and its tests share what it built.

Under xdist those tests are one group (tests/scheduling.py): one worker builds dist/ once and
runs them all, in order; no two workers ever build into dist/ at once. CI builds the package in
its own step first and sets SIDEKICKS_TEST_BUILT_PACKAGE=1: the tests then use dist/ as it is.
"""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest

from tests.packaging.built_from import STAMP, digest, remember, still_current
from tests.packaging.layout import BUILT, DIST, ROOT, Layout, layout


@pytest.fixture(scope="session")
def packaged() -> Layout:
    """Runs scripts/package once for the session, unless CI built it already or dist/ was built
    from the files as they are now (tests/packaging/built_from.py); dist/'s layout."""
    venv_stamp = ROOT / ".venv" / ".stamps" / "package"  # scripts/setup --package writes it
    if os.environ.get(BUILT) != "1" and not still_current(DIST, digest(ROOT, venv_stamp)):
        (DIST / STAMP).unlink(missing_ok=True)  # a build that fails leaves no stamp behind
        # `bash` from PATH: on Windows, Git Bash's (CreateProcess would look in System32 first,
        # where bash.exe may be WSL's).
        bash = shutil.which("bash") or "bash"
        # Level 0: the same files, stored without compressing (a valid .deb and .tar.gz): 2 s
        # instead of 14 s at level 1 (scripts/package). The release levels are not tested here.
        quick = {**os.environ, "SIDEKICKS_PACKAGE_GZIP_LEVEL": "0"}
        result = subprocess.run(
            [bash, "scripts/package"],
            cwd=ROOT,
            env=quick,
            capture_output=True,
            text=True,
            timeout=1700,
        )
        assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
        remember(DIST, digest(ROOT, venv_stamp))  # after the build: its setup made the stamp
    built = layout(DIST)
    assert built.binary.is_file(), f"{built.binary} was not built (scripts/package)"
    return built
