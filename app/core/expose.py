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
    wrapper.__arguments__ = arguments  # type: ignore[attr-defined]  # tests build its validators
    return wrapper


class Arguments:
    """A method's parameters and a pydantic validator for each annotated one, built once
    (plain tuples and dicts: `inspect.Parameter` properties cost more than the check itself)."""

    def __init__(self, method: Callable[..., Any]) -> None:
        self.method = method.__qualname__
        parameters = list(inspect.signature(method).parameters.values())
        for parameter in parameters:
            if parameter.kind not in (parameter.POSITIONAL_OR_KEYWORD, parameter.KEYWORD_ONLY):
                raise TypeError(f"{self.method}: an exposed method takes named parameters only")
        self.names = tuple(p.name for p in parameters)
        self.name_set = frozenset(self.names)
        self.positional = tuple(p.name for p in parameters if p.kind is p.POSITIONAL_OR_KEYWORD)
        self.optional = frozenset(p.name for p in parameters if p.default is not p.empty)
        # Resolved as the class is defined: an annotation that names nothing fails at import,
        # not at the page's first call.
        hints = typing.get_type_hints(method)
        # Each validator is built by the first call that needs it: an idle window calls few of
        # the methods, and every validator (with the models it names) costs memory (issue 29).
        self.hints = {name: hints[name] for name in self.names if name in hints}
        self.validators: dict[str, TypeAdapter[Any]] = {}
        # Plain `str`/`int`/`bool`/`float` parameters: a value of exactly that type needs no
        # validator (most calls; it keeps a page read such as Conversation at its cost).
        self.exact = {
            name: hints[name] for name in self.names if hints.get(name) in (str, int, bool, float)
        }

    def check(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> dict[str, Any]:
        """The arguments by name, validated; the method's defaults fill what is left out."""
        if len(args) > len(self.positional):
            raise UserError(_("{method} was given too many arguments").format(method=self.method))
        values = dict(zip(self.positional, args, strict=False))
        for name, value in kwargs.items():
            if name not in self.name_set:
                raise UserError(
                    _("{method} has no parameter `{name}`").format(method=self.method, name=name)
                )
            if name in values:
                raise UserError(_("`{name}` was given twice").format(name=name))
            values[name] = value
        for name in self.names:
            if name not in values:
                if name not in self.optional:
                    raise UserError(_("`{name}` is missing").format(name=name))
                continue
            value = values[name]
            if type(value) is self.exact.get(name):
                continue
            validator = self.validator(name)
            if validator is None:
                continue
            try:
                values[name] = validator.validate_python(value)
            except ValidationError as err:
                if value is None and name in self.optional:
                    # The page's bindings pass an argument left out as `undefined`, which
                    # pywebview's JSON turns into null: the method's default applies.
                    del values[name]
                    continue
                raise UserError(refusal(name, err)) from None
        return values

    def validator(self, name: str) -> TypeAdapter[Any] | None:
        validator = self.validators.get(name)
        if validator is None and name in self.hints:
            validator = self.validators[name] = TypeAdapter(self.hints[name])
        return validator


def refusal(name: str, err: ValidationError) -> str:
    """What was wrong with argument `name`, for a person (pydantic's first error, translated)."""
    error = err.errors()[0]
    where = name + "".join(f"[{step!r}]" for step in error["loc"])
    return _(_REFUSALS.get(error["type"], _NOT_VALID)).format(name=where)
