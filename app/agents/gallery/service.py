"""GalleryService (issue 27): where the catalog comes from, installs of binary agents, and
the folder chooser for an added agent's `cwd`. The catalog itself and adding or removing an
agent are AgentService's (Catalog, Add, Remove)."""

from __future__ import annotations

import os
from collections.abc import Callable

from app.agents.gallery.gallery import Gallery
from app.core.expose import exposed
from app.core.loop import LoopThread
from app.models import gallery as wire
from app.models.gallery import CatalogEntry

FolderChooser = Callable[[], str]
FOLDER_PATH_HOOK = "SIDEKICKS_TEST_FOLDER_PATH"  # tests: a native dialog cannot be driven
REFRESH_TIMEOUT = 30.0  # a registry fetch (10 s) and each program's --version (2 s)
INSTALL_TIMEOUT = 30 * 60.0  # a large archive on a slow line; Cancel ends it sooner


def _no_chooser() -> str:
    return ""  # headless: there is no window to show a dialog in


class GalleryService:
    def __init__(self, gallery: Gallery, core: LoopThread) -> None:
        self._gallery = gallery
        self._core = core
        self._chooser: FolderChooser = _no_chooser

    def _set_folder_chooser(self, chooser: FolderChooser) -> None:
        """The window installs the native folder dialog here."""
        self._chooser = chooser

    @exposed
    def RegistryInfo(self) -> wire.RegistryInfo:  # the method shares the model's name
        """Where the catalog's registry entries come from (registry, cache, builtin), its date,
        and why the last fetch failed."""
        return self._core.call(self._gallery.registry_info)

    @exposed
    def Refresh(self) -> wire.RegistryInfo:
        """Fetches the registry again and looks for the programs on PATH again."""
        return self._core.run(self._gallery.refresh(), timeout=REFRESH_TIMEOUT)

    @exposed
    def Install(self, id: str) -> CatalogEntry:
        """Downloads the binary agent `id` for this system, checks its sha256 and unpacks it
        into the data folder (`install:progress` events); also an Update. Returns when done."""
        return self._core.run(self._gallery.install(id), timeout=INSTALL_TIMEOUT)

    @exposed
    def CancelInstall(self, id: str) -> bool:
        """Cancels the install of `id` under way; false when there is none."""
        return self._core.call(lambda: self._gallery.cancel_install(id))

    @exposed
    def ChooseFolder(self) -> str:
        """The native folder chooser; the folder chosen, "" when cancelled. With
        $SIDEKICKS_TEST_FOLDER_PATH (tests), that folder instead."""
        hook = os.environ.get(FOLDER_PATH_HOOK)
        if hook:
            return hook
        return self._chooser()
