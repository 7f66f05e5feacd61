"""`python -m app --self-test`: the real window on this system's own backend (Qt offscreen here;
cocoa on the macOS runner, edgechromium on Windows) proves the bridge and exits 0, says why and
exits 1 when a step does not happen (a lost event; the navigation lock removed), and a pywebview
whose code changed under a patch opens no window (exit 3, the backend named)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from app.bridge.backends import running_backend
from app.bridge.window import ui_index

ROOT = Path(__file__).resolve().parents[2]
SECONDS = 90  # the app's own limit is 30 s for the steps; starting a window may be slow


def app_env() -> dict[str, str]:
    # Linux has no display here: Qt offscreen. macOS and Windows open their real window.
    return {**os.environ, "QT_QPA_PLATFORM": "offscreen", "QTWEBENGINE_DISABLE_SANDBOX": "1"}


def run(
    argv: list[str], prelude: str = "", report: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """`python -m app ARGV`, after `prelude` (Python run first in the app's process)."""
    code = f"import sys\n{prelude}\nfrom app.__main__ import main\nsys.exit(main({argv!r}))"
    env = {**app_env(), **({"SIDEKICKS_SELF_TEST_REPORT": str(report)} if report else {})}
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=SECONDS,
    )  # fmt: skip


def config(tmp_path: Path) -> str:
    path = tmp_path / "agents.yaml"
    path.write_text("agents: []\n", encoding="utf-8")
    return str(path)


def test_the_self_test_proves_the_bridge_in_the_real_window_and_exits_0(tmp_path: Path) -> None:
    assert ui_index().is_file(), "the self-test needs the built UI (cd ui && npm run build)"
    report = tmp_path / "self-test.txt"  # what a windowed app without stderr says
    result = subprocess.run(
        [sys.executable, "-m", "app", "--self-test", "--config", config(tmp_path)],
        cwd=ROOT, env={**app_env(), "SIDEKICKS_SELF_TEST_REPORT": str(report)},
        capture_output=True, text=True, timeout=SECONDS,
    )  # fmt: skip
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    passed = f"self-test passed on the {running_backend().name} backend"
    assert passed in output
    assert report.read_text(encoding="utf-8").startswith(passed)
    assert "'call': 'ok', 'event': True, 'inline': 'refused'" in output


def test_the_environment_variable_asks_for_the_self_test_too(tmp_path: Path) -> None:
    env = {**app_env(), "SIDEKICKS_SELF_TEST": "1"}
    result = subprocess.run(
        [sys.executable, "-m", "app", "--config", config(tmp_path)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=SECONDS,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    assert "self-test passed" in result.stderr


def test_a_self_test_whose_event_never_arrives_exits_1_with_the_reason(tmp_path: Path) -> None:
    prelude = (
        "from app.bridge import self_test, pump\n"
        # The event is waited for 2 s once the page's call answered (the steps before it keep
        # the app's 30 s: a slow window start is not this failure).
        "self_test.EVENT_SECONDS = 2\n"
        "put = pump.EventPump.put\n"
        "pump.EventPump.put = lambda s, n, p: None if n == self_test.EVENT else put(s, n, p)\n"
    )
    result = run(["--self-test", "--config", config(tmp_path)], prelude)
    output = result.stdout + result.stderr
    assert result.returncode == 1, output
    backend = running_backend().name
    assert f"self-test failed on the {backend} backend: the pushed event did not reach" in output


def test_a_changed_pywebview_opens_no_window_and_names_the_backend(tmp_path: Path) -> None:
    prelude = "from app.bridge import csp\ncsp.ORIGINAL = csp.ORIGINAL.replace('new', 'old')\n"
    report = tmp_path / "self-test.txt"
    result = run(["--self-test", "--config", config(tmp_path)], prelude, report)
    assert result.returncode == 3, result.stdout + result.stderr
    changed = f"pywebview's bridge script for the {running_backend().name} backend changed"
    assert f"sidekicks: {changed}" in result.stderr
    assert "opening the window" not in result.stderr
    assert report.read_text(encoding="utf-8").startswith(f"refused to open the window: {changed}")


def test_a_page_server_that_cannot_listen_opens_no_window_and_says_why(tmp_path: Path) -> None:
    prelude = (
        "from app.bridge import http_server\n"
        "def refused(*args, **kwargs):\n"
        "    raise OSError(98, 'Address already in use')\n"
        "http_server.make_server = refused\n"
    )
    report = tmp_path / "self-test.txt"
    result = run(["--self-test", "--config", config(tmp_path)], prelude, report)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "sidekicks: the window's page server could not listen (port " in result.stderr
    assert "Address already in use" in result.stderr
    assert "Traceback" not in result.stderr
    said = report.read_text(encoding="utf-8")
    assert said.startswith("could not open the window: the window's page server could not listen")


def test_a_backend_that_cannot_start_closes_the_window_opened_beside_it(tmp_path: Path) -> None:
    # The backend starts on its own thread while the window opens (app/bridge/starting.py): a
    # broken install (here, pydantic that cannot be imported) closes the window and says why.
    result = run(["--config", config(tmp_path)], "sys.modules['pydantic'] = None\n")
    assert result.returncode == 1, result.stdout + result.stderr
    assert "opening the window" in result.stderr  # the window did not wait for the backend
    assert "sidekicks: the backend did not start: ModuleNotFoundError(" in result.stderr
    assert "import of pydantic halted; None in sys.modules" in result.stderr


def lock_removed(module: str) -> str:
    return f"from app.bridge import {module}\n{module}.install = lambda app_page: None\n"


def assert_the_window_left(result: subprocess.CompletedProcess[str]) -> None:
    output = result.stdout + result.stderr
    assert result.returncode == 1, output
    assert "self-test failed" in output
    assert "the window left the app's page for http://127.0.0.1:" in output


@pytest.mark.linux_only("Qt is the backend with the navigation lock on Linux")
def test_without_the_qt_navigation_lock_the_self_test_fails(tmp_path: Path) -> None:
    result = run(["--self-test", "--config", config(tmp_path)], lock_removed("qt_navigation"))
    assert_the_window_left(result)


@pytest.mark.windows_only("edgechromium is the backend on Windows")
def test_without_the_edgechromium_navigation_lock_the_self_test_fails(tmp_path: Path) -> None:
    result = run(["--self-test", "--config", config(tmp_path)], lock_removed("edge_navigation"))
    assert_the_window_left(result)


@pytest.mark.macos_only("cocoa is the backend on macOS")
def test_without_the_cocoa_navigation_lock_the_self_test_fails(tmp_path: Path) -> None:
    result = run(["--self-test", "--config", config(tmp_path)], lock_removed("cocoa_navigation"))
    assert_the_window_left(result)
