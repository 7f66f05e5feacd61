"""Which members an agent's answer hands work to: its `@name` mentions, read as the person's
messages are (app/channels/routing.py `mentions`), but only in its prose. A mention inside
inline code, a fenced code block or a quoted (`>`) line is an example or a citation, not an
address; the agent itself and agents that are not members never count."""

from __future__ import annotations

import re

from app.channels.routing import mentions

FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
QUOTE = re.compile(r"^ {0,3}>")
INLINE_CODE = re.compile(r"(`+)(?!`).+?(?<!`)\1(?!`)", re.DOTALL)


def prose(text: str) -> str:
    """The answer without its code blocks, quoted lines and inline code."""
    kept: list[str] = []
    fence = ""  # the fence that opened the block we are in ("" outside one)
    for line in text.splitlines():
        opened = FENCE.match(line)
        if fence:
            if opened and opened.group(1)[0] == fence[0] and len(opened.group(1)) >= len(fence):
                fence = ""
            continue
        if opened:
            fence = opened.group(1)
            continue
        if not QUOTE.match(line):
            kept.append(line)
    return INLINE_CODE.sub(" ", "\n".join(kept))


def handed_to(text: str, agent: str, members: list[str]) -> list[str]:
    """The members `agent`'s answer `text` mentions in its prose, in order, once each."""
    return [m for m in mentions(prose(text), members) if m != agent]
