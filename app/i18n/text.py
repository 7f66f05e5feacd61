"""A sentence for a person kept as its English message and its values, and said in the language
current when it is read: a reason stored before a language switch (an agent's crash or failed
start, on its card) follows the switch instead of staying in the language it was made in."""

from __future__ import annotations

from dataclasses import dataclass, replace

from app.i18n import _


@dataclass(frozen=True, eq=False)
class Text:
    message: str  # the English message (a catalog's msgid), with {named} values
    values: tuple[tuple[str, object], ...] = ()  # a value may itself be a Text
    # Said after the sentence on lines of its own, never translated: an agent's last stderr
    # lines, in its own words.
    detail: str = ""

    def __str__(self) -> str:
        values = {k: str(v) if isinstance(v, Text) else v for k, v in self.values}
        said = _(self.message).format(**values)
        return f"{said}\n{self.detail}" if self.detail else said

    def with_detail(self, detail: str) -> Text:
        return replace(self, detail=detail)


def lazy(message: str, **values: object) -> Text:
    """`message` with `values`, translated each time it is read (mark `message` with `N_`, so
    that it is extracted: `lazy(N_("the agent exited (code {code})"), code=1)`)."""
    return Text(message, tuple(values.items()))
