"""Built-in agents, run by the app's own executable (`--agent NAME`), so they work from source
and from the frozen app alike, with no Python on PATH."""

from __future__ import annotations

import os
import sys

from app.config.builtin_names import BUILTIN_NAMES, BuiltinName
from app.paths import is_frozen, resource_root


def builtin_command(name: BuiltinName) -> tuple[list[str], dict[str, str]]:
    """The command line and extra environment that start built-in agent `name`."""
    if is_frozen():
        return [sys.executable, "--agent", name], {}
    # From source: the interpreter running the app, with the repo on its import path.
    path = os.pathsep.join(p for p in (str(resource_root()), os.environ.get("PYTHONPATH")) if p)
    return [sys.executable, "-m", "app", "--agent", name], {"PYTHONPATH": path}


def run_builtin(name: str) -> int:
    if name == "demo":
        from app.agents.builtin.demo import main

        return main()
    known = ", ".join(BUILTIN_NAMES)
    print(
        f"sidekicks: there is no built-in agent named {name!r} (there is: {known})", file=sys.stderr
    )
    return 2
