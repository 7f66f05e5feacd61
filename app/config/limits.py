"""How much configuration Sidekicks reads: enough for any real file, never enough to stall it.

A real configuration is a few kilobytes and repeats a handful of values through aliases; the
limits are far above that, and far below what would hold the app for seconds or fill its memory.
"""

from __future__ import annotations

import math

from app.i18n import _

MAX_BYTES = 1024 * 1024  # the text, in UTF-8 bytes (1 MB)
MAX_VALUES = 20_000  # keys, items and scalars, aliases expanded (~60 µs each to read: ~1 s)
MAX_ALIASED_VALUES = 10_000  # of which aliases may repeat, all aliases of the text together
MAX_DEPTH = 50  # values inside values (a real configuration goes about 7 deep)


def megabytes(size: int) -> str:
    """`size` bytes in MB, rounded up to a tenth so that anything over the limit reads over it."""
    return f"{math.ceil(size * 10 / MAX_BYTES) / 10:g}"


def text_too_large(size: int) -> str:
    return _("the configuration is {size} MB; Sidekicks reads at most {limit} MB").format(
        size=megabytes(size), limit=megabytes(MAX_BYTES)
    )


def file_too_large(path: object, size: int) -> str:
    return _("{path} is {size} MB; Sidekicks reads at most {limit} MB").format(
        path=path, size=megabytes(size), limit=megabytes(MAX_BYTES)
    )


def utf8_size_over_limit(text: str) -> int | None:
    """The size of `text` in UTF-8 when it is over the limit, else None (without encoding a text
    that is clearly under or clearly over)."""
    if len(text) * 4 <= MAX_BYTES:
        return None  # even 4 bytes a character stays under
    if len(text) > MAX_BYTES:
        return len(text.encode("utf-8", "surrogatepass"))  # over anyway: say by how much
    size = len(text.encode("utf-8", "surrogatepass"))
    return size if size > MAX_BYTES else None
