"""A found message's snippet: plain text around its first match, and where the matches are.

Computed here, not by FTS5's snippet(): its markers would be inserted into text an agent
wrote, which could hold the same markers. The snippet stays plain text (the page shows it as
text); `highlights` are the [start, end) offsets, in code points (an emoji counts one: the
page cuts the snippet with `Array.from`), of every word the query matches.
"""

from __future__ import annotations

from app.search.query import Query

SNIPPET = 160  # characters, about two lines of the results list
LEAD = 40  # shown before the first match, so it reads in context


def snippet(text: str, query: Query) -> tuple[str, list[list[int]]]:
    first = query.pattern.search(text)
    at = first.start() if first else 0
    start = 0 if at <= LEAD else _word_start(text, at - LEAD, at)
    end = min(len(text), start + SNIPPET)
    if end < len(text):
        end = _word_end(text, end, first.end() if first else 0)
    shown = " ".join(text[start:end].split())  # one line: newlines and runs of spaces
    if start > 0:
        shown = "…" + shown
    if end < len(text):
        shown += "…"
    return shown, highlights(shown, query)


def highlights(shown: str, query: Query) -> list[list[int]]:
    return [[m.start(), m.end()] for m in query.pattern.finditer(shown)]


def _word_start(text: str, start: int, limit: int) -> int:
    """`start` moved on to the beginning of a word (not past `limit`)."""
    space = text.find(" ", start, limit)
    return start if space < 0 else space + 1


def _word_end(text: str, end: int, floor: int) -> int:
    """`end` moved back to the end of a word (not before `floor`, the first match's end)."""
    space = text.rfind(" ", max(floor, 0), end)
    return end if space <= 0 else space
