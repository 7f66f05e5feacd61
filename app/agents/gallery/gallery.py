"""The gallery's state on the core loop: the registry in use, the programs found on PATH and
the installs under way. GalleryService and AgentService's Catalog/Add/Remove call into it."""

from __future__ import annotations

from app.core.errors import UserError
from app.events.bus import EventBus
from app.i18n import _
from app.models.agents import AgentInfo
from app.models.gallery import CatalogEntry, RegistryInfo

DEFAULT_REGISTRY_URL = "https://cdn.agentclientprotocol.com/registry/v1/latest/registry.json"


class Gallery:
    def __init__(self, bus: EventBus) -> None:
        self._bus = bus

    async def catalog(self) -> list[CatalogEntry]:
        return []

    def registry_info(self) -> RegistryInfo:
        return RegistryInfo(source="builtin", url=DEFAULT_REGISTRY_URL)

    async def refresh(self) -> RegistryInfo:
        return self.registry_info()

    async def install(self, id: str) -> CatalogEntry:
        raise UserError(_("{id} is not in the gallery").format(id=f"`{id}`"))

    def cancel_install(self, id: str) -> bool:
        return False

    async def add(self, id: str, name: str, cwd: str) -> AgentInfo:
        raise UserError(_("{id} is not in the gallery").format(id=f"`{id}`"))

    async def remove(self, name: str) -> None:
        raise UserError(_("there is no agent named {name}").format(name=f"`{name}`"))
