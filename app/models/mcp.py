"""An MCP server handed to an agent in `session/new`: a command (stdio) or a url (http/sse).

The configuration's `mcpServers` entries are these (app/config/model.py adds the file's rule that
no key is left empty); app/acp/mcp.py turns them into the SDK's types. Like the configuration's
models, it is strict, so that the generated JSON Schema accepts and rejects the same entries.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StringConstraints,
    WithJsonSchema,
    model_validator,
)
from pydantic_core import PydanticCustomError

from app.i18n import N_

# The error's code and English text: app/config/custom_errors.py knows it by this code and shows
# the text in the user's language.
COMMAND_OR_URL = "mcp_command_or_url"
COMMAND_OR_URL_TEXT = N_(
    "an MCP server needs `command` (stdio) or `url` (http, sse): one of the two"
)


def _scalar_to_text(value: Any) -> Any:
    # Environment values are often written bare (`PORT: 8080`, `DEBUG: true`): take them as text.
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return str(value)
    return value


EnvValue = Annotated[
    str,
    BeforeValidator(_scalar_to_text),
    WithJsonSchema({"type": ["string", "number", "boolean"]}),
]
NonEmpty = Annotated[str, StringConstraints(min_length=1)]


class McpServer(BaseModel):
    """An MCP server handed to the agent in `session/new`: a command (stdio) or a url (http/sse)."""

    model_config = ConfigDict(
        strict=True,
        extra="forbid",
        regex_engine="python-re",
        json_schema_extra={"oneOf": [{"required": ["command"]}, {"required": ["url"]}]},
    )

    name: NonEmpty
    command: NonEmpty | None = None
    args: list[str] = Field(default_factory=list)
    env: dict[str, EnvValue] = Field(default_factory=dict)
    url: NonEmpty | None = None
    type: Literal["http", "sse"] = "http"
    headers: dict[str, EnvValue] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _command_or_url(self) -> McpServer:
        if (self.command is None) == (self.url is None):
            raise PydanticCustomError(COMMAND_OR_URL, COMMAND_OR_URL_TEXT)
        return self
