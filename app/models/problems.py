"""A problem (the file is invalid) or a warning (it works, but look) at a 1-based position."""

from __future__ import annotations

from app.models.wire import WireModel


class Problem(WireModel):
    line: int
    column: int
    message: str
    warning: bool = False


def split(entries: list[Problem]) -> tuple[list[Problem], list[Problem]]:
    """(problems, warnings)"""
    return [p for p in entries if not p.warning], [p for p in entries if p.warning]
