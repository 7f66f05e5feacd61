"""SIGTERM (and Ctrl-C) close the app cleanly from the moment it says it is ready: a supervisor
may stop it as soon as it reads the ready line, and must still get the backend closed (agents
stopped, history flushed) and exit code 0, never the default kill or a traceback."""

from __future__ import annotations

import signal
import subprocess

import pytest

from tests.e2e.window import free_port, offscreen_env, wait_for_cdp
from tests.integration.app_process import AppProcess, is_headless_ready_line, started_app

HEADLESS_RUNS = 10
WINDOW_RUNS = 3  # the window takes about a second to start

# Windows has no signals to send another process: Popen.send_signal(SIGTERM) is TerminateProcess,
# which ends the app at once, past any handler, and SIGINT cannot be sent at all.
NO_SIGNALS = pytest.mark.posix_only("Windows cannot send SIGTERM or SIGINT to another process")
# The window is PyQt6/QtWebEngine offscreen, installed on Linux only (like tests/e2e).
QT_WINDOW = pytest.mark.linux_only("the offscreen window is PyQt6/QtWebEngine, on Linux only")


def assert_closed_cleanly(app: AppProcess) -> None:
    code, output = app.wait_exit(timeout=30)
    assert "Traceback" not in output, output
    assert code == 0, output


@NO_SIGNALS
@pytest.mark.parametrize("run", range(HEADLESS_RUNS))
def test_sigterm_the_moment_the_headless_app_says_it_is_ready_closes_it_cleanly(run: int) -> None:
    with started_app(["--headless"]) as app:
        app.wait_for_line(is_headless_ready_line)
        app.proc.send_signal(signal.SIGTERM)
        assert_closed_cleanly(app)


@NO_SIGNALS
@pytest.mark.parametrize("run", range(3))
def test_ctrl_c_the_moment_the_headless_app_says_it_is_ready_closes_it_cleanly(run: int) -> None:
    with started_app(["--headless"]) as app:
        app.wait_for_line(is_headless_ready_line)
        app.proc.send_signal(signal.SIGINT)
        assert_closed_cleanly(app)


@pytest.mark.windows_only("CTRL_BREAK_EVENT, sent to a console process group, is Windows'")
@pytest.mark.parametrize("run", range(3))
def test_ctrl_break_the_moment_the_headless_app_says_it_is_ready_closes_it_cleanly(
    run: int,
) -> None:
    # How a supervisor stops a console program on Windows (agents are stopped the same way).
    group = getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0)
    with started_app(["--headless"], creationflags=group) as app:
        app.wait_for_line(is_headless_ready_line)
        app.proc.send_signal(getattr(signal, "CTRL_BREAK_EVENT", signal.SIGTERM))
        assert_closed_cleanly(app)


@pytest.mark.e2e
@QT_WINDOW
@pytest.mark.parametrize("run", range(WINDOW_RUNS))
def test_sigterm_the_moment_the_app_says_it_opens_its_window_closes_it_cleanly(run: int) -> None:
    # The window is not shown yet: the close must wait for it, not fail or leave it open.
    with started_app([], env=offscreen_env(free_port())) as app:
        app.wait_for_line(lambda line: "opening the window" in line)
        app.proc.send_signal(signal.SIGTERM)
        assert_closed_cleanly(app)


@pytest.mark.e2e
@QT_WINDOW
@pytest.mark.parametrize("run", range(WINDOW_RUNS))
def test_sigterm_the_moment_the_window_page_can_be_reached_closes_it_cleanly(run: int) -> None:
    port = free_port()
    with started_app([], env=offscreen_env(port)) as app:
        wait_for_cdp(port, app.proc)  # type: ignore[arg-type]
        app.proc.send_signal(signal.SIGTERM)
        assert_closed_cleanly(app)
