"""Terminal escape codes out of agents' texts, for the places that show plain text (errors).

Agents write coloured output for terminals (stderr, error messages); in a sentence for a person
the codes are noise. The Logs keep the raw lines: the UI renders their colours (ui/src/agents/
ansi.ts)."""

from __future__ import annotations

import re

# CSI (ESC [ or the 8-bit 0x9b) with parameters and a final byte, up to the end if unterminated;
# OSC / DCS / PM / APC / SOS strings up to BEL or ST (ESC \), or the end; any other ESC + one
# or two bytes (charset choices, keypad modes, save/restore cursor); then control characters
# other than newline and tab (a lone \r would make a terminal overwrite the line).
ESCAPES = re.compile(
    r"(?:\x1b\[|\x9b)[0-?]*[ -/]*(?:[@-~]|$)"
    r"|(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])(?:[^\x07\x1b\x9c]*)(?:\x07|\x1b\\|\x9c|$)"
    r"|\x1b[ -/]*[0-~]?"
    r"|[\x00-\x08\x0b-\x1f\x7f-\x9f]"
)

CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def strip_ansi(text: str) -> str:
    """`text` without escape sequences and control characters, newlines and tabs kept."""
    if "\x1b" not in text and not CONTROL.search(text):
        return text
    return ESCAPES.sub("", text)
