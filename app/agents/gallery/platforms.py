"""This system's key in a registry binary distribution (`linux-x86_64`, `darwin-aarch64`, …)."""

from __future__ import annotations

import platform
import sys

_SYSTEMS = {"linux": "linux", "darwin": "darwin", "win32": "windows"}
_MACHINES = {
    "x86_64": "x86_64",
    "amd64": "x86_64",
    "x64": "x86_64",
    "aarch64": "aarch64",
    "arm64": "aarch64",
}


def platform_key(system: str = sys.platform, machine: str | None = None) -> str | None:
    """The registry's name for this system and processor; None for one it has no name for."""
    os_name = _SYSTEMS.get(system)
    arch = _MACHINES.get((platform.machine() if machine is None else machine).lower())
    return f"{os_name}-{arch}" if os_name and arch else None
