"""The CI workflow (.github/workflows/ci.yml) runs the README's commands on the three systems and
expects the packages where scripts/package puts them (tests/packaging/layout.py)."""

from __future__ import annotations

import fnmatch
from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML

from tests.packaging.layout import layout

ROOT = Path(__file__).resolve().parents[2]
# The matrix's name: its runner's prefix, its sys.platform.
SYSTEMS = {
    "Linux": ("ubuntu-", "linux"),
    "macOS": ("macos-", "darwin"),
    "Windows": ("windows-", "win32"),
}


def workflow() -> dict[str, Any]:
    loaded: dict[str, Any] = YAML(typ="safe").load(ROOT / ".github" / "workflows" / "ci.yml")
    return loaded


def build_steps() -> list[dict[str, Any]]:
    steps: list[dict[str, Any]] = workflow()["jobs"]["build"]["steps"]
    return steps


def step_running(command: str) -> dict[str, Any]:
    return next(s for s in build_steps() if command in s.get("run", ""))


def matrix() -> dict[str, dict[str, str]]:
    rows = workflow()["jobs"]["build"]["strategy"]["matrix"]["include"]
    return {row["name"]: row for row in rows}


def test_one_job_per_system_each_with_a_time_limit_and_older_runs_cancelled() -> None:
    rows = matrix()
    assert set(rows) == set(SYSTEMS)
    for name, (runner, _) in SYSTEMS.items():
        assert rows[name]["os"].startswith(runner)
    flow = workflow()
    assert flow["concurrency"]["cancel-in-progress"] is True
    assert all("timeout-minutes" in job for job in flow["jobs"].values())
    assert flow["jobs"]["build"]["strategy"]["fail-fast"] is False


def test_every_step_runs_in_bash_git_bash_on_windows() -> None:
    assert workflow()["defaults"]["run"]["shell"] == "bash"
    assert not [s for s in build_steps() if "shell" in s]


def test_the_readme_commands_run_package_then_self_test_then_the_suite() -> None:
    runs = [s.get("run", "") for s in build_steps()]
    package = next(i for i, r in enumerate(runs) if "./scripts/package" in r)
    self_test = next(i for i, r in enumerate(runs) if "--self-test" in r)
    suite = next(i for i, r in enumerate(runs) if r.startswith(".ci/run"))
    assert package < self_test < suite
    assert "--junitxml=test-output/" in runs[suite]
    # The packaging tests check what the package step built instead of building it again.
    assert step_running(".ci/run")["env"] == {"SIDEKICKS_TEST_BUILT_PACKAGE": "1"}
    assert "cancelled()" in step_running(".ci/run")["if"]  # the suite runs if packaging failed


@pytest.mark.parametrize("system", list(SYSTEMS))
def test_the_job_starts_and_uploads_what_scripts_package_builds_there(system: str) -> None:
    row, platform = matrix()[system], SYSTEMS[system][1]
    built = layout(ROOT / "dist", platform, "arm64" if system == "macOS" else "x86_64", True)
    assert ROOT / row["binary"] == built.binary
    globs = row["packages"].split()
    uploaded = [a for a in built.artifacts if a.suffix in (".zip", ".deb", ".gz", ".AppImage")]
    assert uploaded
    for artifact in uploaded:
        assert any(fnmatch.fnmatch(f"dist/{artifact.name}", g) for g in globs), artifact.name


def test_the_packages_are_uploaded_and_the_test_report_when_something_failed() -> None:
    uploads = [s for s in build_steps() if s.get("uses", "").startswith("actions/upload-artifact")]
    packages = next(s for s in uploads if s["with"]["path"] == "${{ matrix.packages }}")
    assert packages["with"]["if-no-files-found"] == "error"
    report = next(s for s in uploads if s["with"]["path"] == "test-output/")
    assert report["if"] == "failure()"
