"""Pydantic without its plugin scan (issue 29, memory).

Pydantic looks for plugins (packages that watch every validation) when it builds its first
validator: its loader, `pydantic.plugin._loader`, imports `importlib.metadata` to read every
installed package's entry points, which brings `zipfile`, `csv`, `email` parsing and the
metadata of the whole environment: 0.6 MB of the idle window's process, for a scan that finds
nothing. Sidekicks is an application with its own environment (its .venv, or the frozen app),
not a library in someone's: it loads no pydantic plugin, as `PYDANTIC_DISABLE_PLUGINS=__all__`
would say.

`install()` (from `app/__init__.py`, before pydantic is imported) puts a module of that name in
`sys.modules` whose `get_plugins` finds none. Anything else asked of it (a later pydantic that
reads another name there) is the real loader's, imported then: never wrong, only without the
saving.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Iterable
from types import ModuleType
from typing import Any

LOADER = "pydantic.plugin._loader"


def get_plugins() -> Iterable[Any]:
    return ()


def _real_loader() -> ModuleType:
    """pydantic's own module, imported under its name while ours steps aside."""
    ours = sys.modules.pop(LOADER)
    try:
        return importlib.import_module(LOADER)
    finally:
        sys.modules[LOADER] = ours


class _NoPlugins(ModuleType):
    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        value = getattr(_real_loader(), name)
        setattr(self, name, value)
        return value


def install() -> None:
    """Once, before pydantic loads its loader; a loader already imported is left alone."""
    if LOADER in sys.modules:
        return
    module = _NoPlugins(LOADER, __doc__)
    module.get_plugins = get_plugins  # type: ignore[attr-defined]
    sys.modules[LOADER] = module
