"""What closes `python -m app --headless`: SIGTERM, Ctrl-C, and Ctrl-Break on Windows; the wait
ends once a handler ran (Windows runs handlers between the main thread's waits only)."""

from __future__ import annotations

import signal
import threading
from types import SimpleNamespace
from typing import Any

import pytest

import app.__main__ as main_module
from tests.waiting import wait_for


def test_sigterm_and_ctrl_c_close_it_everywhere_and_ctrl_break_where_it_exists(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delattr(signal, "SIGBREAK", raising=False)  # as on Linux and macOS
    assert main_module.stop_signals() == [signal.SIGTERM, signal.SIGINT]
    monkeypatch.setattr(signal, "SIGBREAK", 21, raising=False)  # its number on Windows
    assert main_module.stop_signals() == [signal.SIGTERM, signal.SIGINT, 21]


def test_a_stop_signal_ends_the_headless_wait(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    handlers: dict[int, Any] = {}
    monkeypatch.setattr(
        signal, "signal", lambda number, handler: handlers.update({number: handler})
    )
    info = SimpleNamespace(valid=True, problems=[], created=False, path="c.yaml", source="flag")
    app = SimpleNamespace(api=SimpleNamespace(ConfigService=SimpleNamespace(Current=lambda: info)))
    waiting = threading.Thread(target=main_module._serve_headless, args=(app,), daemon=True)
    waiting.start()
    wait_for(lambda: set(main_module.stop_signals()) <= set(handlers), what="the handlers")
    assert waiting.is_alive()
    handlers[signal.SIGTERM](signal.SIGTERM, None)
    waiting.join(5)
    assert not waiting.is_alive()
    assert "Running headless" in capsys.readouterr().out
