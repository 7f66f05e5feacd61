"""Time-sortable identifiers (ULID-like): 48 bits of milliseconds + 80 random bits, Crockford
base32, 26 characters. Ids made in the same process are strictly increasing, even within one
millisecond, so history keys sort in creation order and "the last 100" is a cursor walk."""

from __future__ import annotations

import os
import threading
import time

_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
_lock = threading.Lock()
_last = 0


def new_id() -> str:
    global _last
    with _lock:
        value = (int(time.time() * 1000) << 80) | int.from_bytes(os.urandom(10), "big")
        if value <= _last:
            value = _last + 1
        _last = value
    chars = []
    for _ in range(26):
        chars.append(_ALPHABET[value & 31])
        value >>= 5
    return "".join(reversed(chars))
