"""A session's title as shown (ACP `session/list` titles, `session_info_update`)."""

from __future__ import annotations

from app.core.text import valid_text

MAX_TITLE = 200  # characters of a title kept


def title_text(title: str | None) -> str:
    """A title as shown: valid text on one line, cut to MAX_TITLE characters."""
    text = " ".join(valid_text(title or "").split())
    return text if len(text) <= MAX_TITLE else text[: MAX_TITLE - 1] + "…"
