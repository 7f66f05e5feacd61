"""The gallery's state on the core loop: the registry in use, the programs found on PATH and
the installs; GalleryService and AgentService's Catalog/Add/Remove call into it.

Its files are the app's, not one configuration's: `<user config dir>/sidekicks/registry/`
(the cached registry file and its date) and `<user config dir>/sidekicks/agents/<id>/<version>/`
(installed binary agents), so an agent downloaded once serves every configuration file.
"""

from __future__ import annotations

import asyncio
import logging

from app.agents.gallery.adding import agent_item, checked_cwd, chosen_name
from app.agents.gallery.catalog import Offer, Situation, offers, package_name
from app.agents.gallery.detection import Detector
from app.agents.gallery.first_start import FirstStarts
from app.agents.gallery.installs import Installed, Installs
from app.agents.gallery.platforms import platform_key
from app.agents.gallery.registry import Registry
from app.agents.supervisor import Supervisor
from app.config.defaults import agent_launcher
from app.config.store import ConfigStore
from app.config.yaml_edit import with_agent, without_agent
from app.core.errors import UserError
from app.core.tasks import Background
from app.events.bus import EventBus
from app.i18n import _
from app.models.agents import AgentInfo
from app.models.gallery import CatalogEntry, RegistryInfo
from app.models.problems import Problem, split
from app.paths import app_config_dir

log = logging.getLogger(__name__)


class Gallery:
    def __init__(self, bus: EventBus, supervisor: Supervisor, store: ConfigStore) -> None:
        self._bus = bus
        self._supervisor = supervisor
        self._store = store
        self._registry = Registry(app_config_dir() / "registry")
        self._installs = Installs(app_config_dir() / "agents", bus)
        self._detector = Detector()
        self._background = Background()
        self._starting: asyncio.Task[None] | None = None
        self._first_starts = FirstStarts(bus, self._command_of, self._entry_of)
        self._unsubscribe = bus.subscribe(self._first_starts.on_event)

    # ---- lifetime (on the loop) ------------------------------------------------------------

    def start(self) -> None:
        """At the app's start: the cached registry, then a fetch, in the background."""
        self._starting = self._background.start(self._start())

    async def _start(self) -> None:
        await self._registry.load_cache()
        await self._registry.refresh()

    async def close(self) -> None:
        self._unsubscribe()
        self._first_starts.stop()
        self._installs.cancel_all()
        if self._starting is not None:  # a fetch is not worth waiting 10 s for at the exit
            self._starting.cancel()
        await self._first_starts.wait()
        await self._background.wait()

    # ---- the catalog -----------------------------------------------------------------------

    async def _offers(self) -> list[Offer]:
        found = await self._detector.found()
        agents = self._registry.agents
        installed: dict[str, Installed] = {}
        for agent in agents:
            if agent.distribution.binary:
                done = self._installs.installed(agent.id)
                if done is not None:
                    installed[agent.id] = done
        situation = Situation(
            agents=agents,
            found=found,
            installed=installed,
            configured=tuple(self._store.config.agents),
            platform=platform_key(),
            agents_folder=self._installs.folder,
        )
        return offers(situation)

    async def catalog(self) -> list[CatalogEntry]:
        return [offer.entry for offer in await self._offers()]

    async def _offer(self, entry_id: str) -> Offer:
        for offer in await self._offers():
            if offer.entry.id == entry_id:
                return offer
        raise UserError(_("{id} is not in the gallery").format(id=f"`{entry_id}`"))

    def registry_info(self) -> RegistryInfo:
        return self._registry.info()

    async def refresh(self) -> RegistryInfo:
        self._detector.forget()
        await asyncio.gather(self._registry.refresh(), self._detector.found())
        return self._registry.info()

    # ---- installs --------------------------------------------------------------------------

    async def install(self, entry_id: str) -> CatalogEntry:
        offer = await self._offer(entry_id)
        if offer.agent is None or offer.entry.kind != "binary":
            raise UserError(
                _("{name} is not a download: it needs no install").format(name=offer.entry.name)
            )
        if offer.target is None:
            raise UserError(
                _("the registry has no download of {name} for this system").format(
                    name=offer.entry.name
                )
            )
        await self._installs.install(offer.agent, offer.target)
        return (await self._offer(entry_id)).entry

    def cancel_install(self, entry_id: str) -> bool:
        return self._installs.cancel(entry_id)

    # ---- the configuration -----------------------------------------------------------------

    async def add(self, entry_id: str, name: str, cwd: str) -> AgentInfo:
        offer = await self._offer(entry_id)
        taken = [a.name for a in self._store.config.agents]
        chosen = chosen_name(name, entry_id, taken)
        folder = checked_cwd(cwd)
        installed = self._installs.installed(entry_id) if offer.entry.kind == "binary" else None
        item = agent_item(offer, chosen, folder, agent_launcher(), installed)
        await self._save(with_agent(self._store.content(), item), _("the agent was not added"))
        return self._supervisor.runtime(chosen).info()

    async def remove(self, name: str) -> None:
        await self._save(without_agent(self._store.content(), name), _("the agent was not removed"))

    async def _save(self, text: str, refused: str) -> None:
        problems, _warnings = split(await self._store.save(text))
        if problems:
            raise UserError(f"{refused}: {describe(problems)}")

    # ---- for FirstStarts -------------------------------------------------------------------

    def _command_of(self, agent: str) -> list[str] | None:
        try:
            command = self._supervisor.runtime(agent).definition.command
        except UserError:  # not (or no longer) configured
            return None
        return list(command) if command else None

    def _entry_of(self, command: list[str]) -> str:
        """The registry entry whose npx/uvx package the command runs ("" when none)."""
        for agent in self._registry.agents:
            for package in (agent.distribution.npx, agent.distribution.uvx):
                wanted = package_name(package.package) if package else None
                if wanted and any(package_name(arg) == wanted for arg in command):
                    return agent.id
        return ""


def describe(problems: list[Problem]) -> str:
    """The problems in one sentence. Their lines are the edited text's, which the person never
    saw, so only the messages are said (the editor shows the file's own)."""
    return "; ".join(dict.fromkeys(p.message for p in problems[:5]))
