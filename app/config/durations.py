"""Human durations: `90s`, `15m`, `2h`, `1h30m`, or a number of seconds; 0 means never."""

from __future__ import annotations

import re

from app.i18n import N_  # translated where shown (app/config/validate.py)

# `(?![\s\S])` is "end of text" in both Python and ECMAScript (the JSON Schema's regex flavour);
# `$` would also match before a final newline in Python.
DURATION_PATTERN = r"^(0|(?=\d)(\d+h)?(\d+m)?(\d+s)?)(?![\s\S])"
_PART = re.compile(r"(\d+)([hms])")
_UNITS = {"h": 3600, "m": 60, "s": 1}
_NOT_A_DURATION = N_("must be a duration like 90s, 15m or 2h (0 means never)")


def parse_duration(value: object) -> int:
    """Seconds in `value`; raises ValueError with a message a person understands."""
    if isinstance(value, bool):
        raise ValueError(_NOT_A_DURATION)
    if isinstance(value, float) and value.is_integer():
        value = int(value)  # JSON Schema counts 60.0 as an integer: so do we
    if isinstance(value, int):
        if value < 0:
            raise ValueError(N_("must not be negative"))
        return value
    if isinstance(value, str) and re.match(DURATION_PATTERN, value):
        return sum(int(n) * _UNITS[u] for n, u in _PART.findall(value))
    raise ValueError(_NOT_A_DURATION)
