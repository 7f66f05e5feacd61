"""The js_api pywebview gets: the services' exposed methods, each answering the JSON text the page
receives (here, and nowhere else, results become JSON).

The services return models (app/core/expose.py). pywebview encodes a js_api result with plain
`json.dumps`, which knows no pydantic model. So pywebview is given the page API: one object per
service of the app's api (`Sidekicks.api`), holding that service's exposed methods and nothing
else; each calls the service's method and returns its result as JSON text: models by alias (the
SPEC's camelCase, also inside lists and dicts), a `WireJson` as the text it already is. pywebview
sends that text as a JSON string, and the injected script (its `_checkValue`, patched by
app/bridge/csp.py) parses it once more: the page receives the same values as before, and
`window.pywebview.api.<Service>.<Method>` keeps its parameters (pywebview reads them from the
signature). The headless api (`Sidekicks.api`, tests, scripts) keeps returning models.

Each answer waits, once its result is known, for the events emitted before it to reach the page
(`settle`, the event pump's): the page then hears of a change before the answer that follows it.
"""

from __future__ import annotations

import functools
import inspect
import json
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel

from app.bridge.allowlist import allowed_calls
from app.models.wire import WireJson


def encode(value: Any) -> str:
    """The JSON text of a result, as the page receives it."""
    if isinstance(value, WireJson):
        return value.text
    return json.dumps(value, default=_model_value, ensure_ascii=False, separators=(",", ":"))


def _model_value(value: object) -> Any:
    """The JSON value of what `json` cannot encode by itself (its `default`)."""
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json", by_alias=True)
    if isinstance(value, WireJson):
        return dict(value)
    raise TypeError(f"{type(value).__name__} is not JSON serializable")


class PageApi:
    """The page's view of the app's api: one PageService per service (public attributes)."""


class PageService:
    """One service as the page sees it: its exposed methods, answering JSON text. The service
    itself is private (pywebview lists public attributes only; the allow-list refuses the rest)."""

    def __init__(self, service: object, settle: Callable[[], object]) -> None:
        self._service = service
        self._settle = settle


def _answer_at_once() -> None:
    """No events to wait for (a page api without a pump)."""


def page_api(api: object, settle: Callable[[], object] = _answer_at_once) -> PageApi:
    """The js_api for pywebview: every `<Service>.<Method>` allowlist.allowed_calls finds in
    `api`, answering JSON text once `settle` returned (after the call, failed or not)."""
    page = PageApi()
    methods: dict[str, dict[str, Callable[..., str]]] = {}
    for name in sorted(allowed_calls(api)):
        service_name, method_name = name.split(".")
        service = getattr(api, service_name)
        function = inspect.getattr_static(type(service), method_name)
        methods.setdefault(service_name, {})[method_name] = _answering_text(method_name, function)
    for service_name, namespace in methods.items():
        kind = type(service_name, (PageService,), namespace)
        setattr(page, service_name, kind(getattr(api, service_name), settle))
    return page


def _answering_text(name: str, function: Callable[..., Any]) -> Callable[..., str]:
    """A PageService method calling the service's `name` and encoding what it returns."""

    @functools.wraps(function)  # keeps __exposed__ (the allow-list reads it) and the name
    def answer(self: PageService, *args: Any) -> str:
        try:
            return encode(getattr(self._service, name)(*args))
        finally:
            self._settle()

    # pywebview gives the page's function the parameters of the signature it reads.
    answer.__signature__ = inspect.signature(function)  # type: ignore[attr-defined]
    return answer
