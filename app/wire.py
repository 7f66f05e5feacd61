"""The base of every model that crosses the bridge: snake_case in Python, camelCase on the wire."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict
from pydantic.alias_generators import to_camel


class WireModel(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, frozen=False)

    def wire(self) -> dict[str, Any]:
        """The JSON value the page receives (SPEC field names, camelCase)."""
        return self.model_dump(mode="json", by_alias=True)


def to_wire(value: Any) -> Any:
    """Turns models (and lists/dicts of them) into JSON values; leaves JSON values alone."""
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json", by_alias=True)
    if isinstance(value, list | tuple):
        return [to_wire(v) for v in value]
    if isinstance(value, dict):
        return {k: to_wire(v) for k, v in value.items()}
    return value
