"""The configuration in force: which file, where it came from, its last valid content.

Lives on the core loop. An invalid edit keeps the last valid configuration running and reports
its problems; a deleted or unreadable file is reported, not fatal. Reading and validating happen
on the checker's thread (checking.py): the loop only awaits them. Other features listen for new
valid configurations (`on_config`) and take part in switching files (`on_before_open`,
`on_opened`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from pathlib import Path

from app.config import recent
from app.config.checking import Checker, FileState
from app.config.files import absolute, read_config_text
from app.config.model import Config
from app.config.preset_checks import KnownOffer, with_preset_warnings
from app.config.startup import Source
from app.config.validate import Validation, validate_text
from app.config.watcher import ConfigWatcher
from app.core.atomic import write_atomic
from app.core.errors import ConfigError
from app.core.loop import LoopThread
from app.events import names
from app.events.bus import EventBus
from app.events.payloads import ConfigChanged
from app.i18n import _, set_language
from app.models.problems import Problem

log = logging.getLogger(__name__)

DEBOUNCE_SECONDS = 0.15


class ConfigStore:
    def __init__(self, bus: EventBus, core: LoopThread) -> None:
        self._bus = bus
        self._core = core
        self.path = Path()
        self.source: Source = "default"
        self.created = False
        self.history_problem = ""
        self.started_on: Path | None = None  # the file the app started on (for Recent)
        self._opened_here: set[str] = set()  # files opened from the app during this run
        self.validation = Validation()
        self.config = Config()  # the last valid configuration (defaults until there is one)
        self._disk_text: str | None = None
        self._watcher: ConfigWatcher | None = None
        self._reload_handle: asyncio.TimerHandle | None = None
        self._checker = Checker()
        self._reloads = 0  # reloads started: only the newest one's result is applied
        self._reloading: set[asyncio.Task[None]] = set()
        self.config_listeners: list[Callable[[Config], None]] = []
        self.before_open: list[Callable[[], Awaitable[None]]] = []
        self.after_open: list[Callable[[Path], Awaitable[None]]] = []
        # What an agent's sessions last offered (modes, options), for the presets' warnings:
        # installed by the app, which keeps it with the channels' history.
        self.known_offer: KnownOffer = lambda _name: None

    # ---- loading ---------------------------------------------------------------------------

    def load(
        self,
        path: Path,
        text: str,
        source: Source,
        created: bool,
        validation: Validation | None = None,
    ) -> None:
        """Takes `path` as the configuration in force (called on the loop). Without `validation`,
        the text is validated here: at the start, before anything else is served."""
        self._stop_watching()
        if self.started_on is None:
            self.started_on = path
        self.path, self.source, self.created = path, source, created
        self.config = Config()
        if validation is None:
            validation = validate_text(text, path.parent)
        self._apply(text, validation)
        self._watcher = ConfigWatcher(path, self._changed_on_disk)
        self._watcher.start()

    def _apply(self, text: str | None, validation: Validation) -> None:
        self._disk_text = text
        self.validation = with_preset_warnings(text, validation, self.known_offer)
        if self.validation.config is not None:
            self.config = self.validation.config
            set_language(self.config.language)
            for listener in list(self.config_listeners):
                try:
                    listener(self.config)
                except Exception:
                    log.exception("configuration listener failed")
        self._bus.emit(
            names.CONFIG_CHANGED,
            ConfigChanged(
                path=str(self.path), valid=self.validation.valid, problems=self.validation.entries
            ),
        )

    def set_history_problem(self, problem: str) -> None:
        """A problem the history found after it was opened (damage met by a read): the page
        hears of it through `config:changed`, as of any change to what `Current()` returns."""
        self.history_problem = problem
        self._bus.emit(
            names.CONFIG_CHANGED,
            ConfigChanged(
                path=str(self.path), valid=self.validation.valid, problems=self.validation.entries
            ),
        )

    # ---- watching --------------------------------------------------------------------------

    def _changed_on_disk(self) -> None:
        """Called from the watchdog thread: hop onto the loop and debounce."""
        self._core.call_soon(self._schedule_reload)

    def _schedule_reload(self) -> None:
        if self._reload_handle is not None:
            self._reload_handle.cancel()
        self._reload_handle = self._core.loop.call_later(DEBOUNCE_SECONDS, self.reload)

    def reload(self) -> None:
        """Reads and checks the file on the checker's thread, then applies what it found."""
        self._reload_handle = None
        self._reloads += 1
        task = self._core.loop.create_task(self._reload(self._reloads, self.path))
        self._reloading.add(task)
        task.add_done_callback(self._reloading.discard)

    async def _reload(self, number: int, path: Path) -> None:
        state = await self._checker.file(path, self._disk_text)
        if state is None or number != self._reloads:
            return  # unchanged, or a newer reload (or another file) has taken over
        if self._same_as_in_force(state):
            return  # our own save, a touch that changed nothing, or the same problem again
        self._apply(state.text, state.validation)

    def _same_as_in_force(self, state: FileState) -> bool:
        if state.text is not None:
            return state.text == self._disk_text
        return self._disk_text is None and state.validation.entries == self.validation.entries

    def _stop_watching(self) -> None:
        self._reloads += 1  # a reload under way belongs to the file being left
        if self._reload_handle is not None:
            self._reload_handle.cancel()
            self._reload_handle = None
        if self._watcher is not None:
            self._watcher.stop()
            self._watcher = None

    # ---- editing ---------------------------------------------------------------------------

    async def validate(self, text: str) -> list[Problem]:
        result = await self._checker.text(text, self.path.parent)
        return with_preset_warnings(text, result, self.known_offer).entries

    async def save(self, text: str) -> list[Problem]:
        path = self.path
        result = await self._checker.text(text, path.parent)
        if not result.valid:
            return result.entries
        if self.path != path:  # Open switched files while the text was being checked
            raise ConfigError(
                _("the configuration was switched to {path} meanwhile; nothing was saved").format(
                    path=self.path
                )
            )
        try:
            write_atomic(path, text)
        except OSError as err:
            raise ConfigError(
                _("{path} could not be saved: {error}").format(path=path, error=err)
            ) from None
        self._apply(text, result)
        return self.validation.entries

    def content(self) -> str:
        if self._disk_text is not None:
            return self._disk_text
        try:  # a regular file of at most 1 MB: quick, and never a pipe that blocks the loop
            return read_config_text(self.path)
        except ConfigError:
            return ""

    async def open(self, raw_path: str) -> None:
        path = absolute(raw_path)
        text, validation = await self._checker.openable(path)  # raises before anything changes
        for before in list(self.before_open):
            await before()
        self.load(path, text, "recent", created=False, validation=validation)
        self._opened_here.add(str(path))
        try:
            recent.remember(path)
        except OSError as err:
            log.warning("cannot remember %s in the recent files: %s", path, err)
        for after in list(self.after_open):
            await after(path)

    def recent_files(self) -> list[str]:
        """The remembered files, with the file the app started on among them (not remembered:
        the next start's choice stays as before). It ranks after the files opened since."""
        files = recent.recent()
        start = self.started_on
        if start is None or str(start) in files or not start.is_file():
            return files
        at = sum(1 for f in files if f in self._opened_here)
        return [*files[:at], str(start), *files[at:]][: recent.MAX_RECENT]

    def close(self) -> None:
        self._stop_watching()
        self._checker.close()
