"""A message's Markdown as the plain text a reader sees, for search snippets and conversation
titles (app/channels/conversations.py): "## Demo answer\n
You asked:\n> Hi!" reads "Demo answer · You asked: Hi!". Headings' `#`, quote markers, list
markers, emphasis, link and image syntax (their text stays, not their address), code fences and
backticks are dropped; code, raw HTML (shown as text in the window) and escaped characters keep
their text. The snippet and its highlights are then cut from this text, so the offsets are those
of what is shown."""

from __future__ import annotations

from functools import cache, lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # markdown-it is loaded at the first search, not at start
    from markdown_it import MarkdownIt
    from markdown_it.token import Token

# Between blocks that do not end a sentence ("Demo answer", a list item), so they do not run on.
SEPARATOR = " · "
_ENDS_SENTENCE = tuple(".!?:;…")
_LEAVES = {"inline", "fence", "code_block", "html_block"}


@cache
def _parser() -> MarkdownIt:
    from markdown_it import MarkdownIt

    # The window renders GFM (marked): tables and strikethrough as well as CommonMark.
    return MarkdownIt("commonmark").enable(["table", "strikethrough"])


@lru_cache(maxsize=256)  # typing a query again finds the same hits: their text is parsed once
def plain_text(markdown: str) -> str:
    """`markdown` as the text it shows, on one line."""
    if not any(c in markdown for c in "#>*_`[]<&\\~|-+=!0123456789"):
        return " ".join(markdown.split())  # nothing Markdown could mean
    blocks = [
        text
        for token in _parser().parse(markdown)
        if token.type in _LEAVES and (text := " ".join(_leaf_text(token).split()))
    ]
    out = ""
    for block in blocks:
        if out:
            out += " " if out.endswith(_ENDS_SENTENCE) else SEPARATOR
        out += block
    return out


def _leaf_text(token: Token) -> str:
    if token.type != "inline":
        return token.content  # a code block's code, raw HTML as the text it shows
    pieces: list[str] = []
    for child in token.children or []:
        if child.type in ("text", "code_inline", "html_inline"):
            pieces.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            pieces.append(" ")
        elif child.type == "image":
            pieces.append(child.content)  # its alt text
    return "".join(pieces)
