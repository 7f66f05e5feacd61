"""`python -m app`: flags, and the backend starting on a newly created default configuration."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from app.version import __version__
from tests.integration.app_process import is_headless_ready_line, started_app

ROOT = Path(__file__).resolve().parents[2]


def run_app(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "app", *args],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=60,
    )  # fmt: skip


def test_version_prints_the_version_from_pyproject() -> None:
    result = run_app("--version", env=dict(os.environ))
    assert result.returncode == 0
    assert result.stdout.strip() == f"Sidekicks {__version__}"
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert f'version = "{__version__}"' in pyproject


def test_a_missing_config_flag_exits_with_a_clear_message(tmp_path: Path) -> None:
    result = run_app("--config", str(tmp_path / "nope.yaml"), env=dict(os.environ))
    assert result.returncode == 2
    assert "nope.yaml does not exist" in result.stderr
    # Resolved before the window opens (the backend then starts beside it): no window at all.
    assert "opening the window" not in result.stderr


def test_the_app_starts_on_a_newly_created_default_config(user_config_dir: Path) -> None:
    default = user_config_dir / "sidekicks" / "config.yaml"
    with started_app(["--headless"]) as app:  # ended at the end (its clean close: test_signals)
        ready = app.wait_for_line(is_headless_ready_line)
        assert default.is_file()
    assert f"{default} (created) [default], valid" in ready
