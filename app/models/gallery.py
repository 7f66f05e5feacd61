"""The agent gallery's wire models (issue 27): the catalog of agents one may add, where its
list came from, and an install's progress (`install:progress`)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from app.models.wire import WireModel

CatalogKind = Literal["npx", "uvx", "binary", "path"]
RegistrySource = Literal["registry", "cache", "builtin"]
InstallPhase = Literal["download", "verify", "unpack", "done", "failed", "cancelled"]


class CatalogEntry(WireModel):
    """One agent the gallery offers: a registry entry, or a program detected on PATH."""

    # The registry's id ("claude-acp"), or "path:<program>" for a program on PATH that no
    # registry entry runs.
    id: str
    name: str
    version: str = ""  # the registry's; "" for a detected program not in the registry
    description: str = ""
    icon: str = ""  # an emoji or 1-2 letters: registry SVG icons are never fetched (CSP)
    kind: CatalogKind
    installed: str = ""  # binary kind: the version unpacked in the data folder
    detected: str = ""  # the `--version` text of the matching program on PATH
    needs: list[str] = Field(default_factory=list)  # what is missing to run it; [] = ready
    added: list[str] = Field(default_factory=list)  # configured agents that run this entry
    update: bool = False  # binary kind: the registry has a newer version than `installed`
    repository: str = ""
    license: str = ""


class RegistryInfo(WireModel):
    """Where the catalog's registry entries come from."""

    source: RegistrySource
    url: str
    fetched_at: str = ""  # ISO 8601 UTC date of the registry file in use ("" for builtin)
    error: str = ""  # why the last fetch failed, in a sentence


class InstallProgress(WireModel):
    """Event `install:progress`: a binary install's bytes, or an npx/uvx first start's
    package download (`agent` names the configured agent then)."""

    id: str
    agent: str = ""
    phase: InstallPhase
    done: int = 0  # bytes
    total: int = 0  # bytes, 0 = unknown
    error: str = ""
