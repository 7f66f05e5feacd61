"""The names of the built-in agents: what `builtin:` accepts and what `--agent NAME` runs.

A leaf module (no pydantic, no agent code) so that both the configuration model and the built-in
agents' package import it without pulling in each other.
"""

from typing import Literal, get_args

BuiltinName = Literal["demo"]
BUILTIN_NAMES: tuple[str, ...] = get_args(BuiltinName)
