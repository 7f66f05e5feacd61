"""A module imported on its first use rather than with the module that names it.

The idle window does not need libraries that only a feature in use needs (pygit2 for worktrees
and checkpoints: ~3 MB and 0.1-0.4 s at start-up, docs/benchmarks.md). Written as

    if TYPE_CHECKING:
        import pygit2
    else:
        pygit2 = LazyModule("pygit2")

the type checker sees the real module, and the first attribute read (`pygit2.Repository`, in an
`except` clause too) imports it, under the interpreter's import lock: safe from any thread.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any


class LazyModule:
    def __init__(self, name: str) -> None:
        self._name = name
        self._module: ModuleType | None = None

    def __getattr__(self, attribute: str) -> Any:
        module = self._module
        if module is None:
            module = self._module = importlib.import_module(self._name)
        return getattr(module, attribute)

    def __repr__(self) -> str:
        return f"<LazyModule {self._name!r} ({'loaded' if self._module else 'not loaded'})>"
