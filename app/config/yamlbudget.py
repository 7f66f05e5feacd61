"""ruamel's composer, counting what the document would become before anything is expanded.

Composing shares an aliased node, but turning the document into plain values repeats it, and an
alias of an alias of … multiplies: 9 levels of 9 aliases in 400 bytes are 387 million values.
Reading costs ~60 µs a value in pure Python, so 1 MB of `- 1` lines would take 15 s; and the
scanner's work grows with the square of the nesting depth (`[[[[…` 1,350 deep took 2.5 s).
`BudgetComposer` counts the values (keys, items, scalars; an alias counts as all it repeats) and
the depth as it composes — the scanner and parser only run as far as it asks — and stops at the
first value that passes a limit, with its position.
"""

from __future__ import annotations

from typing import Any

from ruamel.yaml.composer import Composer
from ruamel.yaml.events import AliasEvent

from app.config.limits import MAX_ALIASED_VALUES, MAX_DEPTH, MAX_VALUES


class OverBudget(Exception):
    """The document passes a limit at a value: `line` and `column` are 0-based, as ruamel's."""

    def __init__(self, line: int, column: int) -> None:
        super().__init__(f"{line}:{column}")
        self.line, self.column = line, column


class TooManyAliasedValues(OverBudget):
    def __init__(self, alias: str, line: int, column: int) -> None:
        super().__init__(line, column)
        self.alias = alias


class TooManyValues(OverBudget):
    pass


class TooDeep(OverBudget):
    pass


class BudgetComposer(Composer):
    """Raises TooManyAliasedValues at the alias that makes the values repeated by aliases pass
    MAX_ALIASED_VALUES, TooManyValues at the value that makes all of them pass MAX_VALUES, and
    TooDeep at the value nested deeper than MAX_DEPTH."""

    def __init__(self, loader: Any = None) -> None:
        super().__init__(loader)
        self._values = 0  # values composed so far, an alias counting as all the values it repeats
        self._repeated = 0  # of which repeated by aliases
        self._sizes: dict[int, int] = {}  # id of an anchored node -> its values, itself included
        self._depth = 0

    def compose_node(self, parent: Any, index: Any) -> Any:
        event = self.parser.peek_event()
        if isinstance(event, AliasEvent):
            self._count_alias(event)
            return super().compose_node(parent, index)
        before = self._values
        self._count(1, event)
        self._depth += 1
        if self._depth > MAX_DEPTH:
            raise TooDeep(event.start_mark.line, event.start_mark.column)
        node = super().compose_node(parent, index)
        self._depth -= 1
        if event.anchor is not None:
            self._sizes[id(node)] = self._values - before
        return node

    def _count_alias(self, event: Any) -> None:
        target = self.anchors.get(event.anchor)
        if target is None:
            return  # an undefined alias: ruamel reports it
        # A node not finished yet is an alias inside its own anchor: ruamel makes it None.
        size = self._sizes.get(id(target), 1)
        self._repeated += size
        if self._repeated > MAX_ALIASED_VALUES:
            mark = event.start_mark
            raise TooManyAliasedValues(str(event.anchor), mark.line, mark.column)
        self._count(size, event)

    def _count(self, values: int, event: Any) -> None:
        self._values += values
        if self._values > MAX_VALUES:
            raise TooManyValues(event.start_mark.line, event.start_mark.column)
