"""Comparing registry versions ("1.2.10" > "1.2.9"; "1.0.0-beta" < "1.0.0")."""

from __future__ import annotations

import re

_PART = re.compile(r"\d+|[A-Za-z]+")


def version_key(version: str) -> tuple[tuple[int, int | str], ...]:
    core, _dash, pre = version.lstrip("vV").partition("-")
    numbers: list[tuple[int, int | str]] = [
        (2, int(p)) if p.isdigit() else (1, p) for p in _PART.findall(core)
    ]
    # After the parts: a pre-release (0, …) sorts before its release (1, ""), and both
    # before a longer version's next number (2, n).
    numbers.append((0, pre) if pre else (1, ""))
    return tuple(numbers)


def newer(candidate: str, than: str) -> bool:
    return version_key(candidate) > version_key(than)


def newest(versions: list[str]) -> str:
    return max(versions, key=version_key)
