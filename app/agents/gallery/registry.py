"""Where the gallery's registry entries come from: the ACP Registry's file fetched from its
public address, the copy cached in the app's folder with its date, or the built-in short list.

`$SIDEKICKS_REGISTRY_URL` names another address (tests serve their own file on 127.0.0.1);
`off` fetches nothing. A fetch that fails, or brings a file that is not a registry file, keeps
what was in use (the cache, else the built-in list) and says why in `RegistryInfo.error`. The
cache is written only with a file that parsed.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from app.agents.gallery.builtin import BUILTIN_AGENTS
from app.agents.gallery.download import DownloadError, fetch_bytes
from app.agents.gallery.registry_file import (
    MAX_FILE_BYTES,
    RegistryAgent,
    RegistryFileError,
    parse_registry,
)
from app.core.atomic import write_atomic, write_bytes_atomic
from app.models.gallery import RegistryInfo, RegistrySource

log = logging.getLogger(__name__)

DEFAULT_REGISTRY_URL = "https://cdn.agentclientprotocol.com/registry/v1/latest/registry.json"
REGISTRY_URL_ENV = "SIDEKICKS_REGISTRY_URL"
FETCH_TIMEOUT = 10.0
CACHE_FILE = "registry.json"
CACHE_META = "fetched.json"  # {"url": …, "fetchedAt": ISO 8601 UTC}


def registry_url() -> str:
    """The address to fetch, or "off"."""
    return os.environ.get(REGISTRY_URL_ENV, "").strip() or DEFAULT_REGISTRY_URL


@dataclass
class Loaded:
    agents: tuple[RegistryAgent, ...]
    source: RegistrySource
    fetched_at: str = ""


class Registry:
    """The entries in use and the last fetch's outcome. Lives on the core loop; the network
    and the disk are used from worker threads."""

    def __init__(self, folder: Path) -> None:
        self._folder = folder  # <user config dir>/sidekicks/registry
        self._loaded = Loaded(BUILTIN_AGENTS, "builtin")
        self._error = ""
        self._fetching: asyncio.Task[None] | None = None

    @property
    def agents(self) -> tuple[RegistryAgent, ...]:
        return self._loaded.agents

    def info(self) -> RegistryInfo:
        return RegistryInfo(
            source=self._loaded.source,
            url=registry_url(),
            fetched_at=self._loaded.fetched_at,
            error=self._error,
        )

    async def load_cache(self) -> None:
        """Uses the cached file, if there is a good one (the built-in list otherwise)."""
        cached = await asyncio.to_thread(self._read_cache)
        if cached is not None and self._loaded.source == "builtin":
            self._loaded = cached

    async def refresh(self) -> None:
        """Fetches the registry (one fetch at a time: a second caller waits for the first)."""
        if self._fetching is None or self._fetching.done():
            self._fetching = asyncio.get_running_loop().create_task(self._fetch())
        await asyncio.shield(self._fetching)

    async def _fetch(self) -> None:
        url = registry_url()
        if url.lower() == "off":
            self._error = ""
            return
        try:
            data = await asyncio.to_thread(
                fetch_bytes, url, max_bytes=MAX_FILE_BYTES, timeout=FETCH_TIMEOUT
            )
            agents = parse_registry(data)
        except (DownloadError, RegistryFileError) as err:
            self._error = str(err)
            log.info("registry not updated from %s: %s", url, err)
            return
        fetched_at = datetime.now(UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")
        try:
            await asyncio.to_thread(self._write_cache, data, url, fetched_at)
        except OSError as err:  # the entries are used all the same, for this run
            log.warning("registry cache not written: %s", err)
        self._loaded = Loaded(tuple(agents), "registry", fetched_at)
        self._error = ""

    def _read_cache(self) -> Loaded | None:
        try:
            data = (self._folder / CACHE_FILE).read_bytes()
            meta = json.loads((self._folder / CACHE_META).read_text(encoding="utf-8"))
            agents = parse_registry(data)
        except (OSError, ValueError, RegistryFileError) as err:
            if not isinstance(err, FileNotFoundError):
                log.info("registry cache not used: %s", err)
            return None
        fetched_at = meta.get("fetchedAt", "") if isinstance(meta, dict) else ""
        return Loaded(tuple(agents), "cache", str(fetched_at))

    def _write_cache(self, data: bytes, url: str, fetched_at: str) -> None:
        self._folder.mkdir(parents=True, exist_ok=True)
        write_bytes_atomic(self._folder / CACHE_FILE, data)
        write_atomic(
            self._folder / CACHE_META, json.dumps({"url": url, "fetchedAt": fetched_at}) + "\n"
        )
