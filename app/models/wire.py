"""The base of every model that crosses the bridge: snake_case in Python, camelCase on the wire."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any, Generic, TypeVar

from pydantic import BaseModel, ConfigDict
from pydantic.alias_generators import to_camel


class WireModel(BaseModel):
    # defer_build: a model's validator and serializer are built when it is first used, not as
    # its class is defined: the idle window uses few of the ~80 models (issue 29, memory).
    model_config = ConfigDict(
        alias_generator=to_camel, populate_by_name=True, frozen=False, defer_build=True
    )

    def wire(self) -> dict[str, Any]:
        """The JSON value the page receives (SPEC field names, camelCase)."""
        return self.model_dump(mode="json", by_alias=True)


M = TypeVar("M", bound=BaseModel)


class WireJson(Mapping[str, Any], Generic[M]):
    """A result already encoded as the JSON object the page receives, shaped as the model `M`.

    Stored messages are kept as their wire JSON, so a history page can go to the page as the
    bytes the database holds, spliced into the result's text: no decoding into models and
    encoding back (which cost 20 times the database read). The bridge sends `text` as it is
    (app/bridge/results.py); Python callers read it as the mapping it encodes, parsed once on
    first access.
    """

    __slots__ = ("_value", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self._value: dict[str, Any] | None = None

    def _parsed(self) -> dict[str, Any]:
        if self._value is None:
            value = json.loads(self.text)
            if not isinstance(value, dict):
                raise TypeError("a WireJson holds a JSON object")
            self._value = value
        return self._value

    def __getitem__(self, key: str) -> Any:
        return self._parsed()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._parsed())

    def __len__(self) -> int:
        return len(self._parsed())

    def __repr__(self) -> str:
        return f"WireJson({self.text[:80]!r}{'…' if len(self.text) > 80 else ''})"
