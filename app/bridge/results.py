"""Sends `WireJson` results through pywebview's bridge as the JSON text they already are.

pywebview encodes every js_api result with `json.dumps(result)` inside
`webview.util.js_bridge_call`, which reaches `json` as a global of `webview.util`. That global is
replaced by a module-like object whose `dumps` passes a `WireJson`'s text through and hands
everything else to the real `json.dumps` unchanged. The text is still escaped and quoted by
pywebview afterwards, exactly as its own output would be. A test runs pywebview's real
`js_bridge_call` to catch a pywebview that no longer calls `json.dumps` this way.
"""

from __future__ import annotations

import json
from typing import Any

from app.models.wire import WireJson


class BridgeJson:
    """`json`, except that `dumps(WireJson)` is the object's text."""

    @staticmethod
    def dumps(value: Any, *args: Any, **kwargs: Any) -> str:
        if isinstance(value, WireJson):
            return value.text
        return json.dumps(value, *args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(json, name)


def install() -> None:
    from webview import util

    if not isinstance(getattr(util, "json", None), BridgeJson):
        util.json = BridgeJson()  # type: ignore[assignment,attr-defined]
