"""The older ACP session models: the `models` field of `session/new` and `session/load` answers
(`availableModels`, `currentModelId`) and `session/set_model`, which agents that predate config
options still use (gemini-cli 0.61 offers its models only this way). The pinned SDK (0.12.1)
parses neither: these are typed extensions of its classes — remove when the SDK has them.

A session's models are shown as a select option of category "model" (app/acp/translate.py
session_setup), unless the agent also offers a config option of that category, which wins.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, TypeVar

from acp.schema import (
    BaseModel,
    LoadSessionResponse,
    NewSessionResponse,
    ResumeSessionResponse,
)
from acp.utils import serialize_params, validate_model_from_dict
from pydantic import Field, ValidationError, field_validator

SET_MODEL = "session/set_model"  # remove when the SDK's meta.py names it
MODELS_OPTION_ID = "model"  # the option the models are shown as (and YAML presets name)

if TYPE_CHECKING:
    from acp.client.connection import ClientSideConnection

ModelT = TypeVar("ModelT", bound=BaseModel)


class ModelInfo(BaseModel):
    """One model the agent offers (remove when the SDK has it)."""

    model_id: Annotated[str, Field(alias="modelId")]
    name: str
    description: str | None = None
    field_meta: Annotated[dict[str, Any] | None, Field(alias="_meta")] = None


class SessionModelState(BaseModel):
    """The models a session offers and the one it uses (remove when the SDK has it)."""

    available_models: Annotated[list[ModelInfo], Field(alias="availableModels")]
    current_model_id: Annotated[str, Field(alias="currentModelId")]
    field_meta: Annotated[dict[str, Any] | None, Field(alias="_meta")] = None


def _salvaged(value: Any, handler: Any) -> Any:
    """A malformed `models` field is as if the agent had sent none (the session still opens)."""
    try:
        return handler(value)
    except ValidationError:
        return None


class NewSessionResponseWithModels(NewSessionResponse):
    """`session/new`'s answer with its `models` (remove when the SDK has it)."""

    models: SessionModelState | None = None

    @field_validator("models", mode="wrap")
    @classmethod
    def _salvage_models(cls, value: Any, handler: Any) -> Any:
        return _salvaged(value, handler)


class LoadSessionResponseWithModels(LoadSessionResponse):
    """`session/load`'s answer with its `models` (remove when the SDK has it)."""

    models: SessionModelState | None = None

    @field_validator("models", mode="wrap")
    @classmethod
    def _salvage_models(cls, value: Any, handler: Any) -> Any:
        return _salvaged(value, handler)


class ResumeSessionResponseWithModels(ResumeSessionResponse):
    """`session/resume`'s answer with its `models` (remove when the SDK has it)."""

    models: SessionModelState | None = None

    @field_validator("models", mode="wrap")
    @classmethod
    def _salvage_models(cls, value: Any, handler: Any) -> Any:
        return _salvaged(value, handler)


class SetSessionModelRequest(BaseModel):
    """`session/set_model`'s params (remove when the SDK has it); its answer is `{}`."""

    session_id: Annotated[str, Field(alias="sessionId")]
    model_id: Annotated[str, Field(alias="modelId")]
    field_meta: Annotated[dict[str, Any] | None, Field(alias="_meta")] = None


class SetModelAnswer(BaseModel):
    """`session/set_model`'s answer (remove when the SDK has it)."""

    field_meta: Annotated[dict[str, Any] | None, Field(alias="_meta")] = None


def response_models(response: object) -> SessionModelState | None:
    """The `models` of a session answer, if it has them (any session answer type)."""
    models = getattr(response, "models", None)
    return models if isinstance(models, SessionModelState) else None


async def request(
    conn: ClientSideConnection, method: str, params: BaseModel, answer: type[ModelT]
) -> ModelT:
    """Sends `method` as the SDK would, and reads its answer as `answer` (one of the classes
    above, which the SDK's own methods cannot be told to use)."""
    rpc = conn._conn  # the SDK's JSON-RPC connection: it has no public way to name the answer
    response = await rpc.send_request(method, serialize_params(params))
    return validate_model_from_dict(response, answer)
