"""An npx/uvx agent's first start: the package download's progress as `install:progress`.

When an agent whose command runs npx or uvx starts, the folders those tools unpack new
packages into are watched: npm's `_npx/<hash>` (one per package set, made on its first run)
and uv's `archive-v0/<hash>`. Folders that appear after the start are this download (another
download at the same moment would count too: good enough for a progress bar). Every 250 ms,
off the core loop, their size is summed; while it grows, `{agent, phase: "download", done,
total: 0}` is sent; once the handshake ends, `done` (only when something was downloaded).
A package already in the cache makes no folder, so nothing is shown.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
from collections.abc import Callable
from pathlib import Path, PurePath

from app.core.tasks import Background
from app.events import names
from app.events.bus import EventBus
from app.models.gallery import InstallProgress

EVERY = 0.25  # seconds
_MAX_FILES = 200_000  # a walk stops counting there (a cache is never that new)


def npm_cache() -> Path:
    named = os.environ.get("NPM_CONFIG_CACHE") or os.environ.get("npm_config_cache")  # noqa: SIM112
    if named:
        return Path(named)
    if sys.platform == "win32":
        local = os.environ.get("LOCALAPPDATA")
        return Path(local) / "npm-cache" if local else Path.home() / "AppData/Local/npm-cache"
    return Path.home() / ".npm"


def uv_cache() -> Path:
    named = os.environ.get("UV_CACHE_DIR")
    if named:
        return Path(named)
    if sys.platform == "win32":
        local = os.environ.get("LOCALAPPDATA")
        return (Path(local) if local else Path.home() / "AppData/Local") / "uv" / "cache"
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg and os.path.isabs(xdg) else Path.home() / ".cache") / "uv"


def runner_of(command: list[str]) -> str | None:
    """`npx` or `uvx` when the command runs one (directly or through the launcher's `run`)."""
    for arg in command[:4]:
        name = PurePath(arg.replace("\\", "/")).name.lower()
        name = name.removesuffix(".cmd").removesuffix(".bat").removesuffix(".exe")
        if name in ("npx", "uvx"):
            return name
    return None


def watched_folders(runner: str) -> list[Path]:
    return [npm_cache() / "_npx"] if runner == "npx" else [uv_cache() / "archive-v0"]


def _children(folders: list[Path]) -> set[Path]:
    found: set[Path] = set()
    for folder in folders:
        with contextlib.suppress(OSError):
            found.update(folder.iterdir())
    return found


def _size(paths: set[Path]) -> int:
    total, files = 0, 0
    for top in paths:
        for root, _dirs, names_ in os.walk(top):
            for name in names_:
                files += 1
                if files > _MAX_FILES:
                    return total
                with contextlib.suppress(OSError):
                    total += os.lstat(os.path.join(root, name)).st_size
    return total


class FirstStarts:
    """Watches the caches while an npx/uvx agent starts (bus events in, bus events out)."""

    def __init__(
        self,
        bus: EventBus,
        command_of: Callable[[str], list[str] | None],
        entry_of: Callable[[list[str]], str],
    ) -> None:
        self._bus = bus
        self._command_of = command_of  # an agent's configured command (None: builtin, unknown)
        self._entry_of = entry_of  # the catalog id a command runs ("" when none)
        self._watching: dict[str, asyncio.Event] = {}
        self._tasks = Background()

    def on_event(self, name: str, payload: dict[str, object]) -> None:
        """A bus subscriber (on the core loop): `agent:state` starts and ends the watch."""
        if name != names.AGENT_STATE:
            return
        agent, state = str(payload.get("agent", "")), payload.get("state")
        if state == "starting":
            if agent in self._watching:
                return
            command = self._command_of(agent)
            runner = runner_of(command) if command else None
            if runner is None or command is None:
                return
            ended = asyncio.Event()
            self._watching[agent] = ended
            folders = watched_folders(runner)
            # Listed now, before the process can make its folder (one listing of one folder).
            before = _children(folders)
            self._tasks.start(self._watch(agent, self._entry_of(command), folders, before, ended))
        elif agent in self._watching:
            self._watching.pop(agent).set()

    async def _watch(
        self, agent: str, entry: str, folders: list[Path], before: set[Path], ended: asyncio.Event
    ) -> None:
        shown = 0
        while not ended.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(ended.wait(), EVERY)
            new = await asyncio.to_thread(_children, folders) - before
            size = await asyncio.to_thread(_size, new) if new else 0
            if size > shown:
                shown = size
                self._emit(agent, entry, "download", size)
        if shown:
            self._emit(agent, entry, "done", shown)

    def _emit(self, agent: str, entry: str, phase: str, done: int) -> None:
        self._bus.emit(
            names.INSTALL_PROGRESS,
            InstallProgress(
                id=entry,
                agent=agent,
                phase="download" if phase == "download" else "done",
                done=done,
                total=0,
            ),
        )

    def stop(self) -> None:
        for ended in self._watching.values():
            ended.set()
        self._watching.clear()

    async def wait(self) -> None:
        await self._tasks.wait()
