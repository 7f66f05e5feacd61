"""The js_api pywebview is given before the backend exists (starting.py).

pywebview reads a window's js_api only to inject it into a loaded page: `inject_pywebview` lists
its functions (`dir`, then `getattr` of each name) on a thread of its own, once the page has
loaded, and each of the page's calls resolves its name with `getattr`. This object answers both
with the page api (results.page_api) once it is given, and makes the injection wait until then:
the page learns the services' names only when they can answer. Until then the bridge's gate
(allowlist.py, installed with this object: nothing public) refuses every call.
"""

from __future__ import annotations

import threading
from typing import Any


class LateApi:
    def __init__(self) -> None:
        self._given = threading.Event()
        self._lock = threading.Lock()
        self._api: object | None = None

    def give(self, api: object | None) -> None:
        """The page api; None when the backend did not start, or the window closed first (the
        page gets no functions). The first one given stays."""
        with self._lock:
            if self._given.is_set():
                return
            self._api = api
            self._given.set()

    def _wait(self) -> object | None:
        self._given.wait()
        return self._api

    def __dir__(self) -> list[str]:
        api = self._wait()
        return [] if api is None else dir(api)

    def __getattr__(self, name: str) -> Any:
        # Only names this object does not have arrive here; its own private ones never do,
        # and no private name is looked up on the api through it.
        if name.startswith("_"):
            raise AttributeError(name)
        api = self._wait()
        if api is None:
            raise AttributeError(name)
        return getattr(api, name)
