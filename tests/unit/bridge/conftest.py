"""Fixtures of the bridge's unit tests."""

from __future__ import annotations

import threading
import webbrowser

import pytest


@pytest.fixture
def opened(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Addresses handed to the system browser (webbrowser.open, from any thread)."""
    urls: list[str] = []
    lock = threading.Lock()

    def open_(url: str, new: int = 0, autoraise: bool = True) -> bool:
        with lock:
            urls.append(url)
        return True

    monkeypatch.setattr(webbrowser, "open", open_)
    return urls
