"""The one line a notification shows: an answer's first line as plain text.

Agent output is untrusted and meant for a Markdown renderer and a terminal: a notification server
may interpret a little markup in the body (some render <b>, links), so the text is reduced to
plain words — ANSI sequences, control characters, Markdown marks and angle brackets removed.
"""

from __future__ import annotations

import re
from typing import Any

LIMIT = 120

_ANSI = re.compile(r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)|[@-Z\\-_])")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
# [text](url) and ![alt](src) keep their text. Neither part may contain its own opening bracket:
# from each "[" the match then stops at the next "[", so a long line of unclosed brackets (an
# agent's terminal output: "\u001b[32m" a thousand times) is read once, not once per bracket.
_LINK = re.compile(r"!?\[([^\[\]]*)\]\([^()]*\)")
_LEAD = re.compile(r"^\s*(?:#{1,6}\s+|>\s*|[-*+]\s+(?:\[[ xX]\]\s+)?|\d+[.)]\s+)+")
_MARKS = re.compile(r"(\*\*|__|~~|`+|(?<!\w)[*_](?=\S)|(?<=\S)[*_](?!\w))")
_FENCE = re.compile(r"^\s*(```|~~~)")


def plain_line(text: str, limit: int = LIMIT) -> str:
    """The first line with words in it, without markup, at most `limit` characters (an
    ellipsis says it was cut)."""
    text = _CONTROL.sub("", _ANSI.sub("", text.replace("\r\n", "\n").replace("\r", "\n")))
    for raw in text.split("\n"):
        if _FENCE.match(raw):
            continue  # a code fence's marker line is not what the answer says
        line = _MARKS.sub("", _LINK.sub(r"\1", _LEAD.sub("", raw)))
        line = " ".join(line.replace("<", "").replace(">", "").split())
        if line:
            return line if len(line) <= limit else line[: limit - 1].rstrip() + "…"
    return ""


def answer_line(message: dict[str, Any]) -> str:
    """What an answer says first (its text parts, then its error), for a notification's body."""
    texts = [p.get("text", "") for p in message.get("parts", []) if p.get("kind") == "text"]
    return plain_line("\n".join(texts)) or plain_line(str(message.get("error", "")))
