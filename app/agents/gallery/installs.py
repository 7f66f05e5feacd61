"""Binary installs: the archive for this system downloaded, its sha256 checked, unpacked into
`<agents folder>/<id>/<version>/`, with `install:progress` events and Cancel.

Everything happens in a temporary folder beside the agents' folders (`.tmp-…`, the same disk, so
the last step is one rename); any failure or a Cancel removes it, so nothing half-unpacked is
ever left where a command could run it. Each install writes `install.json` (the registry's
cmd, args, env and sha256) inside the folder before the rename: a version folder without it is
not an install. Older versions are kept, since configured agents may still run them.
"""

from __future__ import annotations

import asyncio
import json
import logging
import shutil
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path

from app.agents.gallery.archive import ArchiveError, archive_format, unpack
from app.agents.gallery.download import Cancelled, DownloadError, Progress, fetch_file
from app.agents.gallery.registry_file import BinaryTarget, RegistryAgent
from app.agents.gallery.versions import newest
from app.core.errors import UserError
from app.events import names
from app.events.bus import EventBus
from app.i18n import _
from app.models.gallery import InstallPhase, InstallProgress

log = logging.getLogger(__name__)

MAX_ARCHIVE_BYTES = 1024 * 1024 * 1024
DOWNLOAD_TIMEOUT = 30.0  # per read: a stalled server, not a slow one
MARKER = "install.json"


@dataclass(frozen=True)
class Installed:
    version: str
    folder: Path
    program: Path
    args: tuple[str, ...]
    env: dict[str, str]


class Installs:
    """The installed binary agents and the installs under way (on the core loop)."""

    def __init__(self, folder: Path, bus: EventBus) -> None:
        self._folder = folder  # <user config dir>/sidekicks/agents
        self._bus = bus
        self._running: dict[str, threading.Event] = {}

    @property
    def folder(self) -> Path:
        return self._folder

    def installed(self, agent_id: str) -> Installed | None:
        """The newest version of `agent_id` installed (a quick look at a few folders)."""
        versions = {}
        try:
            for child in (self._folder / agent_id).iterdir():
                if (child / MARKER).is_file():
                    versions[child.name] = child
        except OSError:
            return None
        if not versions:
            return None
        version = newest(list(versions))
        return read_install(versions[version])

    def busy(self, agent_id: str) -> bool:
        return agent_id in self._running

    def cancel(self, agent_id: str) -> bool:
        cancel = self._running.get(agent_id)
        if cancel is None:
            return False
        cancel.set()
        return True

    def cancel_all(self) -> None:
        for cancel in self._running.values():
            cancel.set()

    async def install(self, agent: RegistryAgent, target: BinaryTarget) -> Installed:
        if agent.id in self._running:
            raise UserError(_("{name} is already being installed").format(name=agent.name))
        if not target.sha256:
            raise UserError(
                _(
                    "the registry gives no sha256 for {name}'s download, so it cannot be checked;"
                    " it is not installed"
                ).format(name=agent.name)
            )
        cancel = threading.Event()
        self._running[agent.id] = cancel
        try:
            return await self._install(agent, target, cancel)
        finally:
            del self._running[agent.id]

    async def _install(
        self, agent: RegistryAgent, target: BinaryTarget, cancel: threading.Event
    ) -> Installed:
        loop = asyncio.get_running_loop()

        def progress(done: int, total: int) -> None:  # on the download's thread
            loop.call_soon_threadsafe(self._emit, agent.id, "download", done, total, "")

        self._emit(agent.id, "download", 0, 0, "")
        try:
            installed = await asyncio.to_thread(
                self._install_blocking, agent, target, cancel, progress, loop
            )
        except Cancelled:
            self._emit(agent.id, "cancelled", 0, 0, "")
            raise UserError(
                _("the install of {name} was cancelled").format(name=agent.name)
            ) from None
        except (DownloadError, ArchiveError, OSError) as err:
            error = _("{name} could not be installed: {error}").format(name=agent.name, error=err)
            self._emit(agent.id, "failed", 0, 0, error)
            raise UserError(error) from None
        self._emit(agent.id, "done", 0, 0, "")
        return installed

    def _install_blocking(
        self,
        agent: RegistryAgent,
        target: BinaryTarget,
        cancel: threading.Event,
        progress: Progress,
        loop: asyncio.AbstractEventLoop,
    ) -> Installed:
        self._folder.mkdir(parents=True, exist_ok=True)
        work = Path(tempfile.mkdtemp(prefix=".tmp-", dir=self._folder))
        try:
            archive = work / "download"
            got = fetch_file(
                target.archive,
                archive,
                max_bytes=MAX_ARCHIVE_BYTES,
                timeout=DOWNLOAD_TIMEOUT,
                progress=progress,
                cancel=cancel,
            )
            loop.call_soon_threadsafe(self._emit, agent.id, "verify", got.size, got.size, "")
            if got.sha256.lower() != target.sha256.lower():
                raise DownloadError(
                    _("its sha256 is {got}, the registry says {expected}").format(
                        got=got.sha256, expected=target.sha256.lower()
                    )
                )
            if cancel.is_set():
                raise Cancelled
            loop.call_soon_threadsafe(self._emit, agent.id, "unpack", got.size, got.size, "")
            tree = work / "tree"
            tree.mkdir()
            program = unpack(archive, archive_format(target.archive), tree, target.cmd)
            marker = {
                "id": agent.id,
                "version": agent.version,
                "archive": target.archive,
                "sha256": target.sha256.lower(),
                "cmd": str(program.relative_to(tree)),
                "args": list(target.args),
                "env": dict(target.env),
            }
            (tree / MARKER).write_text(json.dumps(marker, indent=1) + "\n", encoding="utf-8")
            if cancel.is_set():
                raise Cancelled
            final = self._folder / agent.id / (agent.version or "0")
            final.parent.mkdir(parents=True, exist_ok=True)
            if final.exists():  # the same version again (a repair): the old one goes
                old = work / "old"
                final.rename(old)
            tree.rename(final)
        finally:
            shutil.rmtree(work, ignore_errors=True)
        installed = read_install(final)
        if installed is None:
            raise ArchiveError(_("the unpacked program could not be found"))
        return installed

    def _emit(self, agent_id: str, phase: InstallPhase, done: int, total: int, error: str) -> None:
        self._bus.emit(
            names.INSTALL_PROGRESS,
            InstallProgress(id=agent_id, phase=phase, done=done, total=total, error=error),
        )


def read_install(folder: Path) -> Installed | None:
    try:
        marker = json.loads((folder / MARKER).read_text(encoding="utf-8"))
        program = folder / str(marker["cmd"])
        args = tuple(str(a) for a in marker.get("args", []))
        env = {str(k): str(v) for k, v in dict(marker.get("env", {})).items()}
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as err:
        log.info("install in %s not read: %s", folder, err)
        return None
    if not program.is_file():
        return None
    return Installed(str(marker.get("version", folder.name)), folder, program, args, env)
