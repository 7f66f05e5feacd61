"""Turns the services' results into the JSON the page receives: here, and nowhere else.

The services return models (app/core/expose.py). pywebview encodes every js_api result with
`json.dumps(result)` inside `webview.util.js_bridge_call`, which reaches `json` as a global of
`webview.util`. That global is replaced by a module-like object whose `dumps` encodes pydantic
models (also inside lists and dicts) by alias, the SPEC's camelCase, and passes a `WireJson`'s
text through as the JSON it already is. The text is still escaped and quoted by pywebview
afterwards, exactly as its own output would be. A test runs pywebview's real `js_bridge_call` to
catch a pywebview that no longer calls `json.dumps` this way.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel

from app.models.wire import WireJson


class BridgeJson:
    """`json`, except that `dumps` encodes models by alias and a `WireJson` as its text."""

    @staticmethod
    def dumps(value: Any, *args: Any, **kwargs: Any) -> str:
        if isinstance(value, WireJson):
            return value.text
        kwargs.setdefault("default", _model_value)
        return json.dumps(value, *args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(json, name)


def _model_value(value: object) -> Any:
    """The JSON value of what `json` cannot encode by itself (its `default`)."""
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json", by_alias=True)
    if isinstance(value, WireJson):
        return dict(value)
    raise TypeError(f"{type(value).__name__} is not JSON serializable")


def install() -> None:
    from webview import util

    if not isinstance(getattr(util, "json", None), BridgeJson):
        util.json = BridgeJson()  # type: ignore[assignment,attr-defined]
