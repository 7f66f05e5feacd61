"""What a sign-in prints for the person: a web address to open and a prompt for a code.

Two places print them, as text meant for a terminal:

- an `agent` method's agent on its stdout, while `authenticate` is pending (gemini's "Log in
  with Google" without a browser: "Please visit the following URL to authorize the
  application:", the address, then "Enter the authorization code: " and it reads a line from
  its stdin, the same stdin as ACP);
- a `terminal` method's program on its pseudo-terminal (claude's login: its OAuth address
  hard-wrapped by the program over several lines at the terminal's width, between escape codes,
  then "Paste code here if prompted >").

`PromptWatch` keeps the tail of that text and says when what it finds changes. The address is
an OSC 8 hyperlink's target when the program gives one (exact), else the last `http(s)://` in
the text without escape codes, joined across lines while the next line is nothing but address
characters (a program that wraps an address leaves no space in it; prose has spaces). A code
is asked when one of the last lines says to enter, paste or type a code and ends like a prompt
(":", ">" or "?"); once asked it stays asked (the person's typing then follows the prompt).
Pure text work, no I/O: tested in tests/unit/agents/test_sign_in_prompts.py.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from app.acp.ansi import strip_ansi

TAIL = 16 * 1024  # characters of output kept: an OAuth address is ~600, a login screen ~3 KB
MAX_URL = 4096
OSC8 = re.compile(r"\x1b\]8;[^;\x07\x1b]*;(https?://[^\x07\x1b]+)(?:\x07|\x1b\\)")
LINE_ENDS = re.compile(r"\r+\n")
URL_START = re.compile(r"https?://", re.IGNORECASE)
URL_CHARS = re.compile(r"[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=%]+")
ONLY_URL_CHARS = re.compile(r"[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=%]+$")
BORDERS = " \t│┃║|"  # a box drawn around the text (Ink, TUI libraries)
TRAILING = ".,;:!?'\""  # punctuation after an address in a sentence
ASKS = re.compile(r"\b(enter|paste|type|input|provide)\b.*\b(code|token)\b", re.IGNORECASE)
PROMPT_END = re.compile(r"[:>?]\s*$")
WRAPPED = 40  # a line shorter than this was not wrapped (no terminal is that narrow)
PROMPT_LINES = 3  # the prompt is among the last lines (a TUI may draw a hint under it)


@dataclass(frozen=True)
class Found:
    url: str = ""
    asks_code: bool = False


class PromptWatch:
    """Feed it the output as it comes; `feed` returns what it found when that changed."""

    def __init__(self) -> None:
        self._tail = ""
        self._found = Found()

    @property
    def found(self) -> Found:
        return self._found

    def feed(self, data: str, pending: str = "") -> Found | None:
        """`data`: more output. `pending`: the line being written, not yet ended (a prompt
        waits on it), looked at now but not kept (it is fed again once complete)."""
        self._tail = (self._tail + data)[-TAIL:]
        found = find(self._tail + pending)
        found = Found(found.url or self._found.url, found.asks_code or self._found.asks_code)
        if found == self._found:
            return None
        self._found = found
        return found


def find(text: str) -> Found:
    """The web address and whether a code is asked in `text` (terminal output)."""
    return Found(find_url(text), asks_code(text))


def find_url(text: str) -> str:
    links = OSC8.findall(text)
    if links:
        return _checked(links[-1])
    lines = plain_lines(text)
    for at in range(len(lines) - 1, -1, -1):
        starts = list(URL_START.finditer(lines[at]))
        if starts:
            return _checked(_joined(lines, at, starts[-1].start()))
    return ""


def asks_code(text: str) -> bool:
    lines = [line.strip(BORDERS) for line in plain_lines(text)]
    last = [line for line in lines if line][-PROMPT_LINES:]
    return any(ASKS.search(line) and PROMPT_END.search(line) for line in last)


def plain_lines(text: str) -> list[str]:
    """`text` as lines without escape codes (a carriage return alone starts a line again; a
    terminal's "\r\r\n", a program's "\r\n" after the pty's own, ends one line)."""
    text = LINE_ENDS.sub("\n", text).replace("\r", "\n")
    return strip_ansi(text).split("\n")


def _joined(lines: list[str], at: int, start: int) -> str:
    """The address starting at `start` of line `at`, with the lines it was wrapped onto."""
    line = lines[at].rstrip(BORDERS)
    match = URL_CHARS.match(line, start)
    url = match.group(0) if match else ""
    wrapped = match is not None and match.end() == len(line)
    for following in lines[at + 1 :]:
        if not wrapped or len(line) < WRAPPED or len(url) >= MAX_URL:
            break
        line = following.rstrip(BORDERS)
        piece = line.lstrip(BORDERS)
        if not piece or not ONLY_URL_CHARS.match(piece) or URL_START.match(piece):
            break
        url += piece
    return url


def _checked(url: str) -> str:
    url = url.rstrip(TRAILING)
    if url.endswith(")") and url.count("(") < url.count(")"):
        url = url[:-1]
    if not URL_START.match(url) or len(url) > MAX_URL or len(url) <= len("https://"):
        return ""
    return url
