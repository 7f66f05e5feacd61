"""The configuration's own errors: each kind has a code and one text, written here only.

The model raises them (`raise_custom`) with the English text, which pydantic fills in; the
validator recognises them by code and shows the text in the user's language (`custom_message`).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, NoReturn

from pydantic_core import PydanticCustomError

from app.i18n import N_, _
from app.models.mcp import COMMAND_OR_URL, COMMAND_OR_URL_TEXT


class Custom(StrEnum):
    """Codes of the errors the model raises itself; pydantic reports them as the error `type`."""

    EMPTY_VALUE = "empty_value"
    COMMAND_AND_BUILTIN = "command_and_builtin"
    NO_COMMAND_NOR_BUILTIN = "no_command_nor_builtin"
    MCP_COMMAND_OR_URL = COMMAND_OR_URL  # raised by the shared model (app/models/mcp.py)
    DUPLICATE_NAME = "duplicate_name"
    PRESET_VALUE = "preset_value"
    RESERVED_NAME = "reserved_name"


_TEXTS = {
    Custom.EMPTY_VALUE: N_("`{key}` has no value: give it one or remove the line"),
    Custom.COMMAND_AND_BUILTIN: N_("an agent has either `command` or `builtin`, not both"),
    Custom.NO_COMMAND_NOR_BUILTIN: N_(
        "an agent needs `command` (the program to run) or `builtin` (e.g. demo)"
    ),
    Custom.MCP_COMMAND_OR_URL: COMMAND_OR_URL_TEXT,
    Custom.DUPLICATE_NAME: N_("an agent named {first} already exists (names ignore case)"),
    Custom.PRESET_VALUE: N_("an option's value is a text, or true or false"),
    Custom.RESERVED_NAME: N_(
        "{name} cannot be an agent's name: @{plain} mentions every member of a channel; "
        "choose another name"
    ),
}


def raise_custom(kind: Custom, **context: Any) -> NoReturn:
    """Raises error `kind` from a validator; `context` fills the text's placeholders."""
    raise PydanticCustomError(kind.value, _TEXTS[kind], context)


def custom_kind(error_type: str) -> Custom | None:
    """The kind of a pydantic error `type`, or None when pydantic raised it, not the model."""
    try:
        return Custom(error_type)
    except ValueError:
        return None


def custom_message(kind: Custom, context: dict[str, Any]) -> str:
    """The text of error `kind` in the user's language."""
    return _(_TEXTS[kind]).format(**context)
