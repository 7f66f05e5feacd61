"""The ACP SDK's wire models (`acp.schema`, 273 pydantic classes) imported without pydantic's
attribute-docstring pass.

The SDK's models say `use_attribute_docstrings=True`: for each class pydantic finds its source,
reads it with `inspect` and tokenizes it to copy the docstring under each field into the field's
`description`. That is 40 % of the import (0.39 s → 0.22 s of CPU here), paid by the app when its
first agent starts and by every built-in agent at its start. The descriptions only ever go into
a JSON Schema (`model_json_schema`), which neither the app nor its agents make from these models:
validation and serialization do not read them.

`install()` (from `app/__init__.py`, before anything can import the SDK) adds an import finder
that wraps the loader of `acp.schema` alone: while that module runs, pydantic's pass is a no-op;
then it is put back, for every other model. (The switch is the process's while the module runs:
a model another thread made at that moment would miss its descriptions too; none of the app's
models asks for them.) Where pydantic no longer has that private function,
nothing is patched and the SDK imports as before (slower, never wrong); `import_seconds` in
bench/sdk_import.py measures both ways.

While it runs, the models are also made with `defer_build`: pydantic builds a model's validator
and serializer at its first use instead of at its class statement. A process uses a few dozen
of the 273 (an agent's handshake, its sessions and their updates), so it no longer builds the
others: about 0.1 s of CPU less for the built-in agent through its first answer, and for the
app's first agent start. The setting is written into the SDK's own base class as it is made, so
it stays theirs alone; the app's models are built as they are declared.
"""

from __future__ import annotations

import importlib.machinery
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    # Not at run time: importlib.abc brings importlib.resources, tempfile, shutil… (7 ms), and
    # every start of the app imports this module. The import system needs only the methods.
    from importlib.abc import Loader

SCHEMA_MODULE = "acp.schema"
# pydantic/_internal/_fields.py (pydantic 2.7 to 2.14 at least): called by name at each class.
_DOCSTRING_PASS = "_update_fields_from_docstrings"


def _skip(*_args: object, **_kwargs: object) -> None:
    return None


@contextmanager
def without_attribute_docstrings() -> Iterator[bool]:
    """Pydantic's docstring pass is a no-op inside; says whether it could be turned off."""
    try:
        from pydantic._internal import _fields
    except ImportError:
        yield False
        return
    original: Callable[..., None] | None = getattr(_fields, _DOCSTRING_PASS, None)
    if original is None:
        yield False
        return
    setattr(_fields, _DOCSTRING_PASS, _skip)
    try:
        yield True
    finally:
        setattr(_fields, _DOCSTRING_PASS, original)


@contextmanager
def deferred_model_builds() -> Iterator[None]:
    """The models made inside build their validators at their first use (`defer_build`)."""
    from pydantic import BaseModel

    config = BaseModel.model_config
    before = config.get("defer_build")
    config["defer_build"] = True
    try:
        yield
    finally:
        if before is None:
            config.pop("defer_build", None)
        else:
            config["defer_build"] = before


class _QuickLoader:
    """The module's own loader (a source file, a frozen archive…), run without the pass."""

    def __init__(self, inner: Loader) -> None:
        self._inner = inner

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType | None:
        return self._inner.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        with without_attribute_docstrings(), deferred_model_builds():
            self._inner.exec_module(module)

    def __getattr__(self, name: str) -> Any:
        # get_source, get_filename, is_package…: what tools ask the module's loader.
        return getattr(self._inner, name)


class _QuickSchemaFinder:
    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname != SCHEMA_MODULE:
            return None
        for finder in sys.meta_path:
            find = getattr(finder, "find_spec", None)
            if finder is self or find is None:
                continue
            spec: importlib.machinery.ModuleSpec | None = find(fullname, path, target)
            if spec is None:
                continue
            if spec.loader is not None and hasattr(spec.loader, "exec_module"):
                spec.loader = _QuickLoader(spec.loader)  # type: ignore[assignment]
            return spec
        return None


def install() -> None:
    """Adds the finder once, first in line (before the path and a frozen app's finders)."""
    if not any(isinstance(finder, _QuickSchemaFinder) for finder in sys.meta_path):
        sys.meta_path.insert(0, _QuickSchemaFinder())
