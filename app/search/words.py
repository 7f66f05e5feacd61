"""Words as the index sees them, on the Python side: the same cuts and folding as SQLite's
`unicode61 remove_diacritics 2` tokenizer, so the snippets' highlights land where the index
matched (its own markers are never used: agent text could contain them).

A word is a run of letters and digits (anything else, `_` included, separates words, as in
unicode61); folding lowercases and removes accents ("Été" and "ete" are the same word)."""

from __future__ import annotations

import re
import unicodedata

WORD = re.compile(r"[^\W_]+")
# Letters with accents in the Latin, Greek and Cyrillic blocks, by the letter they fold to.
_ACCENTED_BLOCKS = ((0x00C0, 0x0250), (0x0370, 0x0530), (0x1E00, 0x1F00))


def fold(text: str) -> str:
    """Lowercase, accents removed ("ÉTÉ" -> "ete")."""
    decomposed = unicodedata.normalize("NFD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).lower()


def _variants() -> dict[str, str]:
    found: dict[str, set[str]] = {}
    for low, high in _ACCENTED_BLOCKS:
        for code in range(low, high):
            bare = fold(chr(code))
            if len(bare) == 1 and bare != chr(code).lower():
                found.setdefault(bare, {bare}).add(chr(code).lower())
    return {bare: "".join(sorted(chars)) for bare, chars in found.items()}


_VARIANTS = _variants()


def pattern_of(folded: str) -> str:
    """A regular expression (to compile with IGNORECASE) matching `folded` as written in a
    text: each letter with or without its accents ("ete" matches "Été"). Searching the
    original text this way finds words where they stand, without folding the text."""
    return "".join(
        f"[{re.escape(_VARIANTS[c])}]" if c in _VARIANTS else re.escape(c) for c in folded
    )


def words(text: str) -> list[str]:
    return WORD.findall(text)
