"""ACP elicitation (`elicitation/create`, `elicitation/complete`) at the typed boundary.

The agent asks the person for something: a form built from a JSON-Schema subset
(`requestedSchema`: string, number, integer, boolean, single and multiple choice; required,
defaults, titles, descriptions) or a web address to visit (url mode). `elicitation_asked` turns
the SDK's request into an `ElicitationAsked` (fields the page can render, nothing of the SDK);
`check_content` validates what the person sent against those fields before it goes to the agent;
`sdk_response` is the answer in the SDK's terms (accept with content, decline, cancel).

The event types are SDK-free like app/acp/updates.py; only the two functions that read or build
SDK objects import it (lazily).
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from app.i18n import _
from app.models.elicitation import (
    ElicitationAction,
    ElicitationChoice,
    ElicitationField,
    ElicitationMode,
    ElicitationValue,
)

if TYPE_CHECKING:
    from acp.schema import CreateElicitationResponse

# Bounds on what an agent's form may hold (a hostile agent's schema is not rendered unbounded).
MAX_FIELDS = 64
MAX_CHOICES = 256
MAX_TEXT = 4000  # characters of any one agent text shown (message, title, description)
MAX_VALUE = 100_000  # characters of one string the person sends
WEB_SCHEMES = ("http", "https")


@dataclass(frozen=True, slots=True)
class ElicitationReply:
    action: ElicitationAction
    content: dict[str, ElicitationValue] | None = None  # accept in form mode


@dataclass(frozen=True, slots=True)
class ElicitationAsked:
    """The agent asks the person (form or url mode). Whoever handles it sets `reply`; a
    cancelled `reply` means the agent withdrew the question ($/cancel_request) or went away."""

    mode: ElicitationMode
    message: str
    reply: asyncio.Future[ElicitationReply] = field(compare=False)
    title: str = ""
    description: str = ""
    fields: tuple[ElicitationField, ...] = ()
    url: str = ""
    elicitation_id: str = ""  # url mode: what `elicitation/complete` names
    tool_call_id: str | None = None


@dataclass(frozen=True, slots=True)
class ElicitationCompleted:
    """`elicitation/complete`: the agent says a url-mode elicitation is over."""

    elicitation_id: str


class Unusable(ValueError):
    """A request Sidekicks cannot show (why, for the agent's log)."""


def elicitation_asked(
    message: str, mode: Any, reply: asyncio.Future[ElicitationReply]
) -> ElicitationAsked:
    """The SDK's request (`message` and one of its Elicitation*Mode objects) as ours, or
    Unusable: an address that is not http(s), a required field of a kind we cannot show."""
    from acp.schema import (
        ElicitationFormRequestMode,
        ElicitationFormSessionMode,
    )

    tool_call_id = getattr(mode, "tool_call_id", None)
    if isinstance(mode, ElicitationFormSessionMode | ElicitationFormRequestMode):
        schema = mode.requested_schema
        return ElicitationAsked(
            mode="form",
            message=_clip(message),
            reply=reply,
            title=_clip(schema.title or ""),
            description=_clip(schema.description or ""),
            fields=form_fields(schema.properties or {}, schema.required or []),
            tool_call_id=tool_call_id,
        )
    url = str(getattr(mode, "url", ""))
    if urlsplit(url).scheme.lower() not in WEB_SCHEMES:
        raise Unusable(f"url-mode elicitation with a non-web address: {url[:80]!r}")
    return ElicitationAsked(
        mode="url",
        message=_clip(message),
        reply=reply,
        url=url,
        elicitation_id=str(getattr(mode, "elicitation_id", "")),
        tool_call_id=tool_call_id,
    )


def form_fields(properties: Mapping[str, Any], required: list[str]) -> tuple[ElicitationField, ...]:
    """The form's fields, in the schema's order. A property of a kind we do not know is left
    out when optional; a required one makes the form Unusable."""
    if len(properties) > MAX_FIELDS:
        raise Unusable(f"a form of {len(properties)} fields (at most {MAX_FIELDS} are shown)")
    fields = []
    for name, prop in properties.items():
        made = _field(name, prop, name in required)
        if made is None:
            if name in required:
                raise Unusable(f"required field {name!r} has a kind Sidekicks cannot show")
            continue
        fields.append(made)
    return tuple(fields)


def _field(name: str, prop: Any, required: bool) -> ElicitationField | None:
    kind = getattr(prop, "type", None)
    common: dict[str, Any] = {
        "name": name,
        "title": _clip(getattr(prop, "title", None) or ""),
        "description": _clip(getattr(prop, "description", None) or ""),
        "required": required,
    }
    if kind == "string":
        choices = _string_choices(prop)
        if choices:
            default = prop.default if prop.default in {c.value for c in choices} else None
            return ElicitationField(kind="enum", choices=choices, default=default, **common)
        return ElicitationField(
            kind="string",
            default=prop.default,
            min_length=prop.min_length,
            max_length=prop.max_length,
            format=prop.format if prop.format in ("email", "uri", "date", "date-time") else "",
            **common,
        )
    if kind in ("number", "integer"):
        return ElicitationField(
            kind=kind,
            default=prop.default,
            minimum=prop.minimum,
            maximum=prop.maximum,
            **common,
        )
    if kind == "boolean":
        return ElicitationField(kind="boolean", default=prop.default, **common)
    if kind == "array":
        items = prop.items
        any_of = getattr(items, "any_of", None)
        if any_of is not None:
            choices = [ElicitationChoice(value=o.const, title=_clip(o.title)) for o in any_of]
        elif isinstance(getattr(items, "enum", None), list):
            choices = [ElicitationChoice(value=v, title=v) for v in items.enum]
        else:
            return None
        values = {c.value for c in choices}
        default = [v for v in prop.default or [] if v in values] or None
        return ElicitationField(
            kind="multiselect",
            choices=choices[:MAX_CHOICES],
            default=default,
            min_items=prop.min_items,
            max_items=prop.max_items,
            **common,
        )
    return None


def _string_choices(prop: Any) -> list[ElicitationChoice]:
    if prop.one_of:
        return [ElicitationChoice(value=o.const, title=_clip(o.title)) for o in prop.one_of][
            :MAX_CHOICES
        ]
    if prop.enum:
        return [ElicitationChoice(value=v, title=v) for v in prop.enum][:MAX_CHOICES]
    return []


def _clip(text: str) -> str:
    return text if len(text) <= MAX_TEXT else text[:MAX_TEXT] + "…"


def check_content(
    fields: tuple[ElicitationField, ...], content: Mapping[str, Any]
) -> dict[str, ElicitationValue]:
    """The person's answer to a form, checked against its fields (ValueError with the sentence
    to show otherwise). Fields left empty are left out."""
    known = {f.name: f for f in fields}
    unknown = [name for name in content if name not in known]
    if unknown:
        raise ValueError(_("this form has no field {field}").format(field=unknown[0]))
    checked: dict[str, ElicitationValue] = {}
    for f in fields:
        value = content.get(f.name)
        if value is None or value == "" or value == []:
            if f.required:
                raise ValueError(_("{field} is required").format(field=_label(f)))
            continue
        checked[f.name] = _checked(f, value)
    return checked


def _checked(f: ElicitationField, value: Any) -> ElicitationValue:
    label = _label(f)
    if f.kind == "boolean":
        if not isinstance(value, bool):
            raise ValueError(_("{field} must be yes or no").format(field=label))
        return value
    if f.kind in ("number", "integer"):
        if (
            isinstance(value, bool)
            or not isinstance(value, int | float)
            or not math.isfinite(value)
        ):
            raise ValueError(_("{field} must be a number").format(field=label))
        if f.kind == "integer":
            if not float(value).is_integer():
                raise ValueError(_("{field} must be a whole number").format(field=label))
            value = int(value)
        if f.minimum is not None and value < f.minimum:
            raise ValueError(
                _("{field} must be at least {minimum}").format(
                    field=label, minimum=f"{f.minimum:g}"
                )
            )
        if f.maximum is not None and value > f.maximum:
            raise ValueError(
                _("{field} must be at most {maximum}").format(field=label, maximum=f"{f.maximum:g}")
            )
        number: int | float = value
        return number
    if f.kind == "multiselect":
        values = {c.value for c in f.choices}
        if not isinstance(value, list) or not all(
            isinstance(v, str) and v in values for v in value
        ):
            raise ValueError(_("{field} must be one of its choices").format(field=label))
        if len(set(value)) != len(value):
            raise ValueError(_("{field} names a choice twice").format(field=label))
        if f.min_items is not None and len(value) < f.min_items:
            raise ValueError(
                _("choose at least {count} for {field}").format(count=f.min_items, field=label)
            )
        if f.max_items is not None and len(value) > f.max_items:
            raise ValueError(
                _("choose at most {count} for {field}").format(count=f.max_items, field=label)
            )
        return list(value)
    if not isinstance(value, str) or len(value) > MAX_VALUE:
        raise ValueError(_("{field} must be text").format(field=label))
    if f.kind == "enum":
        if value not in {c.value for c in f.choices}:
            raise ValueError(_("{field} must be one of its choices").format(field=label))
        return value
    if f.min_length is not None and len(value) < f.min_length:
        raise ValueError(
            _("{field} needs at least {count} characters").format(field=label, count=f.min_length)
        )
    if f.max_length is not None and len(value) > f.max_length:
        raise ValueError(
            _("{field} takes at most {count} characters").format(field=label, count=f.max_length)
        )
    return value


def _label(f: ElicitationField) -> str:
    return f.title or f.name


def sdk_response(reply: ElicitationReply) -> CreateElicitationResponse:
    """The answer as the SDK sends it."""
    from acp.schema import (
        AcceptElicitationResponse,
        CancelElicitationResponse,
        DeclineElicitationResponse,
    )

    if reply.action == "accept":
        return AcceptElicitationResponse(action="accept", content=reply.content)
    if reply.action == "decline":
        return DeclineElicitationResponse(action="decline")
    return CancelElicitationResponse(action="cancel")
