"""The SPEC's event tables, read from their verbatim copy in spec_events.md."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

COPY = Path(__file__).with_name("spec_events.md")

_ROW = re.compile(r"^\| `([a-z]+:[a-z]+)` \| `(\{.*\})` \|", re.MULTILINE)
_FIELD = re.compile(r"\s*(\w+)(\?)?(?:\[\])?")


@dataclass(frozen=True)
class SpecField:
    """A payload field as the SPEC writes it (`error?` is optional; `usage: {used, size}` nests)."""

    name: str
    optional: bool
    fields: tuple[SpecField, ...] = ()


def spec_events() -> dict[str, tuple[SpecField, ...]]:
    """Every event of the SPEC's tables → the fields of its payload."""
    return {
        name: parse_payload(payload)
        for name, payload in _ROW.findall(COPY.read_text(encoding="utf-8"))
    }


def parse_payload(text: str) -> tuple[SpecField, ...]:
    """`{a, b?, c[], d: {e, f}}` → a, b (optional), c, d (with e and f)."""
    fields, end = _object(text, 0)
    if end != len(text):
        raise ValueError(f"unexpected text after the payload: {text[end:]!r}")
    return fields


def _object(text: str, start: int) -> tuple[tuple[SpecField, ...], int]:
    if text[start] != "{":
        raise ValueError(f"a payload starts with '{{': {text[start:]!r}")
    fields: list[SpecField] = []
    at = start + 1
    while True:
        match = _FIELD.match(text, at)
        if match is None or not match[1]:
            raise ValueError(f"a field name was expected: {text[at:]!r}")
        at = match.end()
        nested: tuple[SpecField, ...] = ()
        if text.startswith(": ", at):
            nested, at = _object(text, at + 2)
        fields.append(SpecField(match[1], optional=bool(match[2]), fields=nested))
        if text[at] == "}":
            return tuple(fields), at + 1
        if text[at] != ",":
            raise ValueError(f"',' or '}}' was expected: {text[at:]!r}")
        at += 1
