"""A problem (the file is invalid) or a warning (it works, but look) at a 1-based position."""

from __future__ import annotations

from app.models.wire import WireModel


class Problem(WireModel):
    line: int
    column: int
    message: str  # a sentence for a person, in the current language
    warning: bool = False
    # The underlying tool's own words when the sentence rephrases them (a YAML parser error as
    # ruamel wrote it), for a bug report or a search; "" when the sentence is all there is.
    detail: str = ""


def split(entries: list[Problem]) -> tuple[list[Problem], list[Problem]]:
    """(problems, warnings)"""
    return [p for p in entries if not p.warning], [p for p in entries if p.warning]
