"""The window's title with what waits for the person: "Sidekicks", or "(3) Sidekicks"."""

from __future__ import annotations

APP_TITLE = "Sidekicks"


def window_title(total: int) -> str:
    return f"({total}) {APP_TITLE}" if total > 0 else APP_TITLE
