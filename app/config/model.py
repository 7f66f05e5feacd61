"""The configuration model (DESIGN §4 Configuration). The JSON Schema is generated from it.

Models are strict (no "4" for 4, no 4 for "4") so that the pydantic model and the generated JSON
Schema accept and reject the same documents; a test proves it. Unknown keys are rejected here and
turned into warnings by the validator, which then builds the model without them.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainValidator,
    StringConstraints,
    WithJsonSchema,
    field_validator,
    model_validator,
)
from pydantic.json_schema import GenerateJsonSchema, JsonSchemaValue
from pydantic_core import PydanticKnownError, core_schema

from app.config.builtin_names import BuiltinName
from app.config.custom_errors import Custom, raise_custom
from app.config.durations import DURATION_PATTERN, parse_duration
from app.models.mcp import EnvValue, McpServer, NonEmpty
from app.models.mentions import EVERY_MEMBER

AGENT_NAME_PATTERN = r"^[a-z0-9][a-z0-9_-]*(?![\s\S])"  # see DURATION_PATTERN for the ending
AGENT_NAME_MAX = 40


def _whole_number(value: Any) -> Any:
    # JSON Schema counts 4.0 as an integer; so does the model, for the two to agree.
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _preset_value(value: Any) -> str | bool:
    # One error for both alternatives (a plain `str | bool` reports one per alternative).
    if value is None:
        raise PydanticKnownError("string_type")  # shown as "`KEY` has no value", like env
    if not isinstance(value, str | bool):
        raise_custom(Custom.PRESET_VALUE)
    return value


PresetValue = Annotated[
    str | bool,
    PlainValidator(_preset_value),
    WithJsonSchema({"type": ["string", "boolean"]}),
]
Duration = Annotated[
    int,
    BeforeValidator(parse_duration),
    WithJsonSchema(
        {
            "description": "90s, 15m, 2h, 1h30m, or a number of seconds; 0 means never",
            "anyOf": [
                {"type": "integer", "minimum": 0},
                {"type": "string", "pattern": DURATION_PATTERN},
            ],
        }
    ),
]

# Python's `re` for patterns, like the jsonschema library that checks the generated schema.
_STRICT = ConfigDict(strict=True, extra="forbid", regex_engine="python-re")


def _refuse_empty_values(data: Any) -> Any:
    if isinstance(data, dict):
        for key, value in data.items():
            if value is None:
                raise_custom(Custom.EMPTY_VALUE, key=key)
    return data


class _Section(BaseModel):
    """A mapping of the file. An empty value (`title:` with nothing after it) is refused rather
    than read as "unset", so that the JSON Schema (which has no null) and the model agree."""

    model_config = _STRICT

    @model_validator(mode="before")
    @classmethod
    def _no_empty_values(cls, data: Any) -> Any:
        return _refuse_empty_values(data)


class Limits(_Section):
    max_running_agents: Annotated[int, BeforeValidator(_whole_number)] = Field(
        4, ge=1, alias="maxRunningAgents", description="How many agents may run at once."
    )
    stop_idle_agents_after: Duration = Field(
        900,
        alias="stopIdleAgentsAfter",
        description="Stop an idle agent after this long (90s, 15m, 2h); 0 = never.",
    )


class Checkpoints(_Section):
    """The checkpoints of the agents' folders around each answer (docs/checkpoints.md)."""

    enabled: bool = Field(
        True, description="Snapshot the agents' folders when each answer starts and ends."
    )
    ignore: list[NonEmpty] = Field(
        default_factory=list,
        description="More .gitignore patterns left out of the checkpoints (on top of each "
        "folder's .gitignore and node_modules/, .venv/, __pycache__/).",
    )
    max_file_bytes: Annotated[int, BeforeValidator(_whole_number)] = Field(
        5 * 1024 * 1024,
        ge=0,
        alias="maxFileBytes",
        description="Files larger than this (bytes) are left out of the checkpoints.",
    )


# The shared model of an MCP server (app/models/mcp.py), with the rule of every mapping of the file.
McpServerEntry = Annotated[McpServer, BeforeValidator(_refuse_empty_values)]


class AgentDef(_Section):
    model_config = ConfigDict(
        strict=True,
        extra="forbid",
        regex_engine="python-re",
        json_schema_extra={"oneOf": [{"required": ["command"]}, {"required": ["builtin"]}]},
    )

    name: Annotated[
        str, StringConstraints(pattern=AGENT_NAME_PATTERN, max_length=AGENT_NAME_MAX)
    ] = Field(
        description="Used in @name and /name:command: lowercase letters, digits, - and _ "
        "(not here nor all: @here and @all mention every member).",
        json_schema_extra={"not": {"enum": list(EVERY_MEMBER)}},
    )
    title: str | None = Field(None, description="Shown in the app; defaults to the name.")
    icon: str = Field("", description="An emoji or a short text.")
    description: str = ""
    builtin: BuiltinName | None = Field(None, description="A built-in agent.")
    command: list[NonEmpty] | None = Field(
        None, min_length=1, description="The program and its arguments, e.g. [npx, -y, pkg]."
    )
    env: dict[str, EnvValue] = Field(
        default_factory=dict, description="Added to the user's environment."
    )
    cwd: str | None = Field(
        None, description="Working folder of the agent and its sessions (default: home)."
    )
    folders: list[NonEmpty] = Field(
        default_factory=list,
        description="More folders the agent may write files in without asking, besides its "
        "cwd (relative to the configuration file's folder, like cwd).",
    )
    mcp_servers: list[McpServerEntry] = Field(default_factory=list, alias="mcpServers")
    isolation: Literal["none", "worktree"] = Field(
        "none",
        description="worktree: in every channel the agent works in a Git worktree of its cwd of "
        "its own (branch sidekicks/<channel>/<agent>, merged back from the Changes panel); "
        "none: in its cwd itself. The person can change it per channel.",
    )
    mode: NonEmpty | None = Field(
        None,
        description="The session mode new sessions start in (e.g. plan, read-only), unless "
        "the person chose one in that conversation.",
    )
    options: dict[NonEmpty, PresetValue] = Field(
        default_factory=dict,
        description="Session options new sessions start with (e.g. model: gpt-5), unless the "
        "person chose them in that conversation: a text, or true/false.",
    )

    @field_validator("name")
    @classmethod
    def _not_reserved(cls, name: str) -> str:
        # @here and @all mention every member of a channel (app/channels/routing.py).
        if name.lower() in EVERY_MEMBER:
            raise_custom(Custom.RESERVED_NAME, name=f"`{name}`", plain=name.lower())
        return name

    @model_validator(mode="after")
    def _command_or_builtin(self) -> AgentDef:
        if self.command is not None and self.builtin is not None:
            raise_custom(Custom.COMMAND_AND_BUILTIN)
        if self.command is None and self.builtin is None:
            raise_custom(Custom.NO_COMMAND_NOR_BUILTIN)
        return self

    @property
    def display_title(self) -> str:
        return self.title or self.name


class Config(_Section):
    model_config = ConfigDict(strict=True, extra="forbid", title="Sidekicks configuration")

    theme: Literal["system", "light", "dark"] = "system"
    language: Literal["system", "en", "fr"] = "system"
    notifications: bool = Field(
        True,
        description="Notify when an agent finishes an answer or asks for a permission while "
        "the window is not focused.",
    )
    limits: Limits = Field(default_factory=lambda: Limits.model_validate({}))
    checkpoints: Checkpoints = Field(default_factory=lambda: Checkpoints.model_validate({}))
    agents: list[AgentDef] = Field(default_factory=list, description="In the app's order.")

    @field_validator("agents")
    @classmethod
    def _unique_names(cls, agents: list[AgentDef]) -> list[AgentDef]:
        first_spelling: dict[str, str] = {}
        for agent in agents:
            key = agent.name.lower()
            if key in first_spelling:
                raise_custom(Custom.DUPLICATE_NAME, first=f"`{first_spelling[key]}`")
            first_spelling[key] = agent.name
        return agents


class _NoNullSchema(GenerateJsonSchema):
    # Optional fields are "absent or a value", never null (see _Section).
    def nullable_schema(self, schema: core_schema.NullableSchema) -> JsonSchemaValue:
        return self.generate_inner(schema["schema"])

    def default_schema(self, schema: core_schema.WithDefaultSchema) -> JsonSchemaValue:
        result = super().default_schema(schema)
        if result.get("default", 0) is None:
            del result["default"]
        return result


def json_schema() -> dict[str, Any]:
    schema = Config.model_json_schema(
        by_alias=True, mode="validation", schema_generator=_NoNullSchema
    )
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    return schema
