"""Our own words and names (titles, agents' names, sentences) as literal Markdown text, escaped
only where a character would otherwise mean something in that position: the document reads
right rendered AND raw ("# #Code Review!", not "# \\#Code Review!"; "@a_b", not "@a\\_b").

What is escaped, after CommonMark and GFM (marked's dialect):
- always: a backtick (code span) and `[` (link, image, reference; `]` alone does nothing);
- `*` and `_` where they could open or close emphasis (`2 * 3` and `snake_case` cannot);
- `~` where it could strike through (GFM: one or two, not between spaces);
- `<` before what could be a tag or an autolink; `&` before an entity (`&amp;`);
- `\\` before punctuation (elsewhere it is a plain backslash);
- at the start of a paragraph line: a heading's `#`, a quote's `>`, a list's `-`, `+`, `*` or
  `1.`/`1)`; at the end of a heading: a closing run of `#`.
Whitespace runs become one space (a title never spans lines)."""

from __future__ import annotations

import re
import string

_ENTITY = re.compile(r"&(?:#\d{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")
_TAG_START = re.compile(r"[A-Za-z/!?]")
_PUNCTUATION = frozenset(string.punctuation)
_BLOCK_MARK = re.compile(r"(?:#{1,6}|[-+*])(?= |$)|>|[- ]*-[- ]*-[- ]*-[- ]*$")
_ORDERED_MARK = re.compile(r"\d{1,9}(?=[.)](?: |$))")
_CLOSING_HASHES = re.compile(r"(?:^| )(#+)$")


def escape_inline(text: str) -> str:
    """`text` as literal inline Markdown in the middle of a line."""
    text = " ".join(text.split())
    out: list[str] = []
    for at, char in enumerate(text):
        if _needs_escape(text, at, char):
            out.append("\\")
        out.append(char)
    return "".join(out)


def escape_heading(text: str) -> str:
    """`text` as the content of an ATX heading (after `# `)."""
    escaped = escape_inline(text)
    closing = _CLOSING_HASHES.search(escaped)
    if closing:  # "Review #" would lose its "#" as the heading's closing sequence
        at = closing.start(1)
        escaped = f"{escaped[:at]}\\{escaped[at:]}"
    return escaped


def escape_paragraph(text: str) -> str:
    """`text` as a paragraph of its own (at the start of a line)."""
    escaped = escape_inline(text)
    if _BLOCK_MARK.match(escaped):  # "# x", "> x", "- x", "---" would start a block
        return "\\" + escaped
    if ordered := _ORDERED_MARK.match(escaped):  # "1\\. x" (a backslash before "1" is a backslash)
        return f"{escaped[: ordered.end()]}\\{escaped[ordered.end() :]}"
    return escaped


def _needs_escape(text: str, at: int, char: str) -> bool:
    # At either end the neighbour is unknown: the text may sit inside our own `*…*`.
    before = text[at - 1] if at > 0 else ""
    after = text[at + 1] if at + 1 < len(text) else ""
    if char in "`[":
        return True
    if char == "*":
        return not (before == " " and after == " ")
    if char == "_":
        between_words = before.isalnum() and after.isalnum()
        return not (between_words or (before == " " and after == " "))
    if char == "~":
        return not (before == " " and after == " ")
    if char == "<":
        return bool(_TAG_START.match(after))
    if char == "&":
        return bool(_ENTITY.match(text, at))
    if char == "\\":
        return after != "" and after in _PUNCTUATION
    return False
