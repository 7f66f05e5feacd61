"""What the person typed, made into an FTS5 query that cannot be misread.

The syntax offered is small: words (every one must match), "quoted phrases" (the words in
that order), `word*` (any word starting so), and the last word matches as a prefix while it is
being typed (no space after it yet): "conf" finds "configuration" as you type. Nothing the
person types is FTS5 syntax: every word goes to FTS5 inside double quotes, so `OR`, `NEAR(`,
`-`, `:` and stray quotes are plain text. A word is what the index's tokenizer calls one
(app/search/words.py): "main.py" or "don't" are phrases of two words, as FTS5 reads them.

A prefix needs two characters (one would match a large part of the vocabulary); a single
letter followed by `*` or being typed matches that word alone.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property

from app.core.errors import UserError
from app.i18n import _
from app.search.words import fold, pattern_of, words

MAX_QUERY = 1000  # characters: a search box, not a document
MAX_TERMS = 32
MIN_PREFIX = 2
# A quoted phrase (its closing quote may not be typed yet, and a `*` may follow it), or a run
# of anything but spaces and quotes.
_PIECE = re.compile(r'"([^"]*)("?)(\*?)|([^\s"]+)')
_WORD_CHARS = r"[^\W_]"


@dataclass(frozen=True, slots=True)
class Term:
    """Words that must follow each other (one word, or a phrase); the last one may be a
    prefix."""

    words: tuple[str, ...]
    prefix: bool = False

    def fts(self) -> str:
        # Words hold letters and digits only, but quotes are doubled all the same: what
        # reaches FTS5 is a string literal whatever a word holds.
        phrase = " ".join(word.replace('"', '""') for word in self.words)
        return f'"{phrase}"' + ("*" if self.prefix else "")


@dataclass(frozen=True)
class Query:
    terms: tuple[Term, ...]

    @property
    def empty(self) -> bool:
        return not self.terms

    def fts(self) -> str:
        """The MATCH expression, on the message's text only."""
        return "text : (" + " AND ".join(term.fts() for term in self.terms) + ")"

    @cached_property
    def pattern(self) -> re.Pattern[str]:
        """Finds the query's words in a text, accents and case folded as the index folds
        them: whole words, and the prefixes followed by the rest of their word."""
        exact, prefixes = set(), set()
        for term in self.terms:
            folded = [fold(word) for word in term.words]
            if term.prefix:
                prefixes.add(folded.pop())
            exact.update(folded)
        choices = [pattern_of(word) for word in sorted(exact, key=len, reverse=True)]
        choices += [pattern_of(prefix) + _WORD_CHARS + "*" for prefix in sorted(prefixes)]
        return re.compile(
            f"(?<!{_WORD_CHARS})(?:{'|'.join(choices)})(?!{_WORD_CHARS})", re.IGNORECASE
        )


def parse(text: str) -> Query:
    """The query in `text`; empty when it holds no word (only spaces or punctuation)."""
    if len(text) > MAX_QUERY:
        raise UserError(_("a search has at most {limit} characters").format(limit=MAX_QUERY))
    terms: list[Term] = []
    last_open = False  # the last piece is still being typed: no space or closing quote after
    for match in _PIECE.finditer(text):
        phrase, closed, star, chunk = match.groups()
        found = words(phrase if chunk is None else chunk)
        if not found:
            continue
        explicit = bool(star) if chunk is None else chunk.endswith("*")
        terms.append(Term(tuple(found), explicit and _long_enough(found[-1])))
        last_open = match.end() == len(text) and (chunk is not None or not closed)
    if terms and last_open and not terms[-1].prefix and _long_enough(terms[-1].words[-1]):
        terms[-1] = Term(terms[-1].words, prefix=True)
    return Query(tuple(_unique(terms)[:MAX_TERMS]))


def _long_enough(word: str) -> bool:
    return len(fold(word)) >= MIN_PREFIX


def _unique(terms: list[Term]) -> list[Term]:
    """The same term twice adds nothing but work."""
    return list(dict.fromkeys(terms))
