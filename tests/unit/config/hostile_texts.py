"""Configuration texts made to hurt a YAML reader: alias bombs and very long lines."""

from __future__ import annotations

MIB = 1024 * 1024


def alias_bomb(levels: int, width: int = 9) -> str:
    """`a: &a ["lol", …]`, then `b: &b [*a, *a, …]`, …: a few hundred bytes whose aliases,
    once expanded, repeat `width ** levels` values (9 levels of 9 are 387 million)."""
    names = "abcdefghijklmnopqrstuvwxyz"
    rows = [f"a: &a [{', '.join(['lol'] * width)}]"]
    for level in range(1, levels):
        previous, name = names[level - 1], names[level]
        rows.append(f"{name}: &{name} [{', '.join([f'*{previous}'] * width)}]")
    return "\n".join(rows) + "\n"


def long_comment_line(size: int) -> str:
    """A valid configuration with one comment line that makes the text `size` characters long."""
    head, tail = "theme: dark\n# ", "\nagents:\n  - name: demo\n    builtin: demo\n"
    return head + "x" * (size - len(head) - len(tail)) + tail
