"""Full paths of files dropped on the window, for attachments (issue 15).

A page sees a dropped file's name and bytes, never where it is. pywebview's backends (Qt here;
Cocoa and GTK too) read the paths from the native drop before the page gets it, and keep them in
`webview.dom._dnd_state` — but only while someone listens for drops, and they hand them out only
to pywebview's own DOM event handlers, a call the bridge's gate refuses (app/bridge/allowlist.py).
So this module turns the recording on and gives the page, by name, the paths of its last drops
(`AttachmentService.DroppedPaths`), each once. Where no path was recorded (WebView2, or a drop the
backend did not see), the answer is "" and the page reads the bytes instead.
"""

from __future__ import annotations

import threading
import urllib.parse
from typing import Any

KEPT = 64  # recorded drops not asked for (dropped elsewhere in the window) are forgotten past this

_lock = threading.Lock()


def _state() -> dict[str, Any]:
    from webview.dom import _dnd_state

    state: dict[str, Any] = _dnd_state
    return state


def install() -> None:
    """Makes the backend record the paths of the files dropped on the window."""
    state = _state()
    state["num_listeners"] = max(1, int(state.get("num_listeners", 0)))


def take(names: list[str], state: dict[str, Any] | None = None) -> list[str]:
    """The recorded path of each dropped file named in `names` ("" when none), newest drop
    first; each path is given once."""
    state = _state() if state is None else state
    with _lock:
        recorded: list[tuple[str, str]] = state.setdefault("paths", [])
        del recorded[: max(0, len(recorded) - KEPT)]
        found = []
        for name in names:
            match = next(
                (entry for entry in reversed(recorded) if urllib.parse.unquote(entry[0]) == name),
                None,
            )
            if match is None:
                found.append("")
                continue
            recorded.remove(match)
            found.append(urllib.parse.unquote(match[1]))
        return found
