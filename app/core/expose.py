"""`@exposed`: a service method callable from the page through pywebview's bridge.

The method returns what it says it returns (models included): the bridge turns results into JSON
(app/bridge/results.py), so Python callers get the models. Its arguments, which come from the page
as JSON values, are checked once here against its annotations, with pydantic; a wrong or missing
one is refused with a message that names it. Errors meant for a person pass through as they are;
anything else becomes a UserError with a readable message, and the original is logged. The method
keeps its signature and annotations, which pywebview reads for the JS side and
scripts/gen_bindings.py reads for the TypeScript bindings.
"""

from __future__ import annotations

import functools
import inspect
import logging
import typing
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

from pydantic import TypeAdapter, ValidationError

from app.core.errors import UserError
from app.i18n import N_, _

log = logging.getLogger(__name__)
P = ParamSpec("P")
R = TypeVar("R")

# A wrong argument's message, by pydantic's error type (the first error of the value is shown).
_REFUSALS = {
    "missing": N_("`{name}` is missing"),
    "string_type": N_("`{name}` must be text"),
    "int_type": N_("`{name}` must be a whole number"),
    "int_parsing": N_("`{name}` must be a whole number"),
    "int_from_float": N_("`{name}` must be a whole number"),
    "bool_type": N_("`{name}` must be true or false"),
    "bool_parsing": N_("`{name}` must be true or false"),
    "list_type": N_("`{name}` must be a list"),
    "dict_type": N_("`{name}` must be an object"),
    "model_type": N_("`{name}` must be an object"),
    "model_attributes_type": N_("`{name}` must be an object"),
}
_NOT_VALID = N_("`{name}` is not valid")


def exposed(method: Callable[P, R]) -> Callable[P, R]:
    arguments = Arguments(method)

    @functools.wraps(method)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return method(**arguments.check(args, kwargs))  # type: ignore[call-arg]
        except UserError:
            raise
        except TimeoutError as err:
            raise UserError(str(err)) from err
        except Exception as err:
            log.exception("%s failed", method.__qualname__)
            raise UserError(f"{type(err).__name__}: {err}") from err

    wrapper.__signature__ = inspect.signature(method)  # type: ignore[attr-defined]
    wrapper.__exposed__ = True  # type: ignore[attr-defined]
    return wrapper


class Arguments:
    """A method's parameters and a pydantic validator for each annotated one, built once."""

    def __init__(self, method: Callable[..., Any]) -> None:
        self.method = method.__qualname__
        self.parameters = list(inspect.signature(method).parameters.values())
        for parameter in self.parameters:
            if parameter.kind not in (parameter.POSITIONAL_OR_KEYWORD, parameter.KEYWORD_ONLY):
                raise TypeError(f"{self.method}: an exposed method takes named parameters only")
        self.positional = [p for p in self.parameters if p.kind is p.POSITIONAL_OR_KEYWORD]
        # Resolved as the class is defined: an annotation that names nothing fails at import,
        # not at the page's first call.
        hints = typing.get_type_hints(method)
        self.validators = {
            p.name: TypeAdapter(hints[p.name]) for p in self.parameters if p.name in hints
        }

    def check(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> dict[str, Any]:
        """The arguments by name, validated; the method's defaults fill what is left out."""
        if len(args) > len(self.positional):
            raise UserError(_("{method} was given too many arguments").format(method=self.method))
        values = {p.name: value for p, value in zip(self.positional, args, strict=False)}
        names = {p.name for p in self.parameters}
        for name, value in kwargs.items():
            if name not in names:
                raise UserError(
                    _("{method} has no parameter `{name}`").format(method=self.method, name=name)
                )
            if name in values:
                raise UserError(_("`{name}` was given twice").format(name=name))
            values[name] = value
        for parameter in self.parameters:
            has_default = parameter.default is not parameter.empty
            if parameter.name not in values:
                if not has_default:
                    raise UserError(_("`{name}` is missing").format(name=parameter.name))
                continue
            validator = self.validators.get(parameter.name)
            if validator is None:
                continue
            value = values[parameter.name]
            try:
                values[parameter.name] = validator.validate_python(value)
            except ValidationError as err:
                if value is None and has_default:
                    # The page's bindings pass an argument left out as `undefined`, which
                    # pywebview's JSON turns into null: the method's default applies.
                    del values[parameter.name]
                    continue
                raise UserError(refusal(parameter.name, err)) from None
        return values


def refusal(name: str, err: ValidationError) -> str:
    """What was wrong with argument `name`, for a person (pydantic's first error, translated)."""
    error = err.errors()[0]
    where = name + "".join(f"[{step!r}]" for step in error["loc"])
    return _(_REFUSALS.get(error["type"], _NOT_VALID)).format(name=where)
