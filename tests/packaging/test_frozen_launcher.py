"""The packaged app launches agents by short name itself (`Sidekicks --launch-agent`, what its
default configuration writes on Windows, where no Python exists): the agent's exit code comes
back, a wrong name is refused, and an agent speaks ACP through it — stdin and stdout handed on."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from app import Sidekicks
from app.agents.supervisor import Tuning
from tests.agents import fake_command, write_config
from tests.packaging.layout import BUILT, DIST, ROOT, Layout, layout

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1800)]


@pytest.fixture(scope="module")
def frozen(request: pytest.FixtureRequest) -> Layout:
    """dist/ as CI built it, or as this run built it (newer than every source file of the
    app); otherwise built here (`packaged`, tests/packaging/conftest.py: once per run)."""
    built = layout(DIST)
    newest_source = max(path.stat().st_mtime for path in (ROOT / "app").rglob("*.py"))
    current = built.binary.is_file() and built.binary.stat().st_mtime > newest_source
    if os.environ.get(BUILT) == "1" or current:
        return built
    result: Layout = request.getfixturevalue("packaged")
    return result


def launch(app: Layout, *args: str) -> subprocess.CompletedProcess[str]:
    command = [str(app.binary), "--launch-agent", *args]
    return subprocess.run(
        command, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=120
    )


def test_the_frozen_app_returns_the_launched_agents_exit_code(frozen: Layout) -> None:
    assert launch(frozen, "run", sys.executable, "-c", "raise SystemExit(5)").returncode == 5


def test_the_frozen_app_refuses_an_unknown_agent_name(frozen: Layout) -> None:
    result = launch(frozen, "nobody")
    assert result.returncode == 2
    assert "unknown agent 'nobody'" in result.stderr


def test_an_agent_speaks_acp_through_the_frozen_launcher(frozen: Layout, tmp_path: Path) -> None:
    command = [str(frozen.binary), "--launch-agent", "run", *fake_command()]
    config = write_config(tmp_path / "c.yaml", f"  - name: a\n    command: {json.dumps(command)}\n")
    with Sidekicks(config=config, tuning=Tuning(stdin_grace=5, term_grace=3)) as sk:
        assert sk.api.AgentService.Start("a").state == "ready"
        sk.api.AgentService.Stop("a")
