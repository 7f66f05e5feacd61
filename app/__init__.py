"""Sidekicks: a desktop home for local ACP coding agents.

`from app import Sidekicks` gives the headless composition root (no window): the same services
the desktop window hands to pywebview, usable from tests, benchmarks and scripts.
"""

from typing import TYPE_CHECKING, Any

from app.acp.quick_import import install as _install_quick_sdk_import
from app.core.pydantic_plugins import install as _install_no_pydantic_plugins
from app.version import __version__

# Before anything imports the ACP SDK, here or in a built-in agent (app/acp/quick_import.py).
_install_quick_sdk_import()
# Before pydantic builds its first validator (app/core/pydantic_plugins.py).
_install_no_pydantic_plugins()

if TYPE_CHECKING:
    from app.sidekicks import Sidekicks

__all__ = ["Sidekicks", "__version__"]


def __getattr__(name: str) -> Any:
    # Imported lazily so that `python -m app --version` and the built-in agents start fast.
    if name == "Sidekicks":
        from app.sidekicks import Sidekicks

        return Sidekicks
    raise AttributeError(name)
