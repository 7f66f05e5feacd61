"""`@exposed`: a service method callable from the page through pywebview's bridge.

pywebview calls methods on its own threads and sends the result with `json.dumps`, so an exposed
method returns JSON values (models are dumped by alias: the SPEC's camelCase). Errors meant for a
person pass through as they are; anything else becomes a UserError with a readable message, and
the original is logged. The method keeps its signature and annotations, which pywebview reads for
the JS side and scripts/gen_bindings.py reads for the TypeScript bindings.
"""

from __future__ import annotations

import functools
import inspect
import logging
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

from app.core.errors import UserError
from app.models.wire import to_wire

log = logging.getLogger(__name__)
P = ParamSpec("P")
R = TypeVar("R")


def exposed(method: Callable[P, R]) -> Callable[P, Any]:
    @functools.wraps(method)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> Any:
        try:
            return to_wire(method(*args, **kwargs))
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
