"""An agent's question to the person (ACP `elicitation/create`) as the page sees it: a form of
typed fields built from the agent's `requestedSchema`, or a web address to open (url mode).

Every text here is the agent's: the page shows it as text, never as HTML.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from app.models.wire import WireModel

ElicitationFieldKind = Literal["string", "number", "integer", "boolean", "enum", "multiselect"]
ElicitationMode = Literal["form", "url"]
ElicitationAction = Literal["accept", "decline", "cancel"]
ElicitationValue = bool | int | float | str | list[str]


class ElicitationChoice(WireModel):
    value: str
    title: str


class ElicitationField(WireModel):
    """One property of the requested schema, as a form field."""

    name: str
    kind: ElicitationFieldKind
    title: str = ""
    description: str = ""
    required: bool = False
    default: ElicitationValue | None = None
    choices: list[ElicitationChoice] = Field(default_factory=list)  # enum and multiselect
    minimum: float | None = None  # number and integer
    maximum: float | None = None
    min_length: int | None = None  # string
    max_length: int | None = None
    min_items: int | None = None  # multiselect
    max_items: int | None = None
    format: str = ""  # string: "email", "uri", "date", "date-time" (shown as such) or ""


class ElicitationRequested(WireModel):
    """A question waiting for the person (event `elicitation:requested`)."""

    id: str
    channel: str
    agent: str
    message_id: str  # the answer it belongs to
    mode: ElicitationMode
    message: str  # the agent's sentence
    title: str = ""  # the schema's title, if any
    description: str = ""
    fields: list[ElicitationField] = Field(default_factory=list)  # form mode
    url: str = ""  # url mode: http or https only


class ElicitationResolved(WireModel):
    """The question is gone: answered, cancelled (Stop, the agent's exit, the channel deleted)
    or withdrawn by the agent (event `elicitation:resolved`)."""

    id: str
    channel: str
