"""Text from outside (agents, the page) that Python accepts but UTF-8 cannot store.

JSON may carry UTF-16 surrogate halves as `\\ud83d` escapes; Python decodes them into lone
surrogate characters, which no UTF-8 encoder (history, JSON for the page) accepts. A pair that
arrives together is joined into its character; a half alone becomes U+FFFD.
"""

from __future__ import annotations

import re

SURROGATE = re.compile("[\ud800-\udfff]")
REPLACEMENT = "\ufffd"


def is_high_surrogate(char: str) -> bool:
    return "\ud800" <= char <= "\udbff"


def valid_text(text: str) -> str:
    """`text` with surrogate pairs joined and lone halves replaced (fast when there are none)."""
    if SURROGATE.search(text) is None:
        return text
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
