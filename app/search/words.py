"""Words as the index sees them, on the Python side: the same cuts and folding as SQLite's
`unicode61 remove_diacritics 2` tokenizer, so the snippets' highlights land where the index
matched (its own markers are never used: agent text could contain them).

A word is a run of letters and digits (anything else, `_` included, separates words, as in
unicode61); folding lowercases and removes accents ("Été" and "ete" are the same word)."""

from __future__ import annotations

import re
import unicodedata

WORD = re.compile(r"[^\W_]+")
# Letters with accents in the Latin, Greek and Cyrillic blocks, each to its letter without them
# (one character to one: positions in a folded text are those of the original).
_ACCENTED_BLOCKS = ((0x00C0, 0x0250), (0x0370, 0x0530), (0x1E00, 0x1F00))


def fold(text: str) -> str:
    """Lowercase, accents removed ("ÉTÉ" -> "ete")."""
    decomposed = unicodedata.normalize("NFD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).lower()


def _accents() -> dict[int, str]:
    table = {}
    for low, high in _ACCENTED_BLOCKS:
        for code in range(low, high):
            bare = fold(chr(code))
            if len(bare) == 1 and bare != chr(code).lower():
                table[code] = bare
    return table


_ACCENTS = _accents()


def fold_in_place(text: str) -> str:
    """`fold` keeping every character where it stands (same length), to find words in a
    text and point at them in the original; a character whose folding is longer (rare:
    "İ") is only lowercased if that keeps one character."""
    lowered = text.lower()
    if len(lowered) != len(text):
        lowered = "".join(c.lower() if len(c.lower()) == 1 else c for c in text)
    return lowered.translate(_ACCENTS)


def words(text: str) -> list[str]:
    return WORD.findall(text)
