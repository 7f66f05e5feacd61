"""A found message's snippet: plain text around its first match, and where the matches are.

The message's Markdown is first made the text a reader sees (plain.py: no `##`, `>` or `**`),
then the snippet is cut from that text and the matches found in it, so the offsets are right.

Computed here, not by FTS5's snippet(): its markers would be inserted into text an agent
wrote, which could hold the same markers. The snippet stays plain text (the page shows it as
text); `highlights` are the [start, end) offsets, in code points (an emoji counts one: the
page cuts the snippet with `Array.from`), of every word the query matches.
"""

from __future__ import annotations

from app.search.plain import plain_text
from app.search.query import Query

SNIPPET = 160  # characters, about two lines of the results list
LEAD = 40  # shown before the first match, so it reads in context
# Markdown parsed around the first match: enough for LEAD and SNIPPET once its syntax is gone.
BEFORE = 300
AFTER = 600


def snippet(markdown: str, query: Query) -> tuple[str, list[list[int]]]:
    markdown, cut_before, cut_after = _around_first_match(markdown, query)
    text = plain_text(markdown)
    first = query.pattern.search(text)
    at = first.start() if first else 0
    start = 0 if at <= LEAD else _word_start(text, at - LEAD, at)
    end = min(len(text), start + SNIPPET)
    if end < len(text):
        end = _word_end(text, end, first.end() if first else 0)
    shown = " ".join(text[start:end].split())  # one line: newlines and runs of spaces
    if start > 0 or cut_before:
        shown = "…" + shown
    if end < len(text) or cut_after:
        shown += "…"
    return shown, highlights(shown, query)


def _around_first_match(markdown: str, query: Query) -> tuple[str, bool, bool]:
    """The Markdown around the raw text's first match, cut at blank lines (block boundaries)
    or else line starts: what the snippet can show, parsed alone (a parse costs about 2 ms a
    kilobyte, for each of up to 50 hits). Whether it was cut before and after."""
    found = query.pattern.search(markdown)
    at = found.start() if found else 0
    begin = 0
    if at > BEFORE:
        begin = _boundary_before(markdown, at - BEFORE, at)
    stop = len(markdown)
    if stop - at > AFTER:
        stop = _boundary_after(markdown, at + AFTER, at + 4 * AFTER)
    return markdown[begin:stop], begin > 0, stop < len(markdown)


def _boundary_before(text: str, floor: int, at: int) -> int:
    limit = max(0, floor - BEFORE)
    for mark in ("\n\n", "\n"):
        found = text.rfind(mark, limit, floor)
        if found >= 0:
            return found + len(mark)
    return floor


def _boundary_after(text: str, floor: int, ceiling: int) -> int:
    for mark in ("\n\n", "\n"):
        found = text.find(mark, floor, ceiling)
        if found >= 0:
            return found
    return min(ceiling, len(text))


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
