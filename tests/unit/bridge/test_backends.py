"""Which pywebview backend runs the window: Qt on Linux unless $SIDEKICKS_GUI=gtk, pywebview's own
choice (cocoa, winforms) elsewhere."""

from __future__ import annotations

import logging
import sys

import pytest

from app.bridge import backends
from app.bridge.backends import gui_backend


@pytest.mark.parametrize(
    ("chosen", "backend"), [(None, "qt"), ("qt", "qt"), ("gtk", "gtk"), (" GTK ", "gtk")]
)
def test_linux_runs_qt_unless_gtk_is_asked_for(
    monkeypatch: pytest.MonkeyPatch, chosen: str | None, backend: str
) -> None:
    monkeypatch.setattr(sys, "platform", "linux")
    if chosen is None:
        monkeypatch.delenv(backends.GUI_OVERRIDE, raising=False)
    else:
        monkeypatch.setenv(backends.GUI_OVERRIDE, chosen)
    assert gui_backend() == backend


def test_an_unknown_backend_on_linux_is_said_and_qt_runs(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setenv(backends.GUI_OVERRIDE, "cocoa")
    with caplog.at_level(logging.WARNING, logger=backends.__name__):
        assert gui_backend() == "qt"
    assert "SIDEKICKS_GUI=cocoa is not one of" in caplog.text


@pytest.mark.parametrize("system", ["darwin", "win32"])
def test_elsewhere_pywebview_chooses_and_the_override_is_ignored_with_a_log_line(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, system: str
) -> None:
    monkeypatch.setattr(sys, "platform", system)
    monkeypatch.setenv(backends.GUI_OVERRIDE, "gtk")
    with caplog.at_level(logging.INFO, logger=backends.__name__):
        assert gui_backend() is None
    assert "SIDEKICKS_GUI=gtk ignored" in caplog.text
