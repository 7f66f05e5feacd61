"""The configuration in force: which file, where it came from, its last valid content.

Lives on the core loop. An invalid edit keeps the last valid configuration running and reports
its problems; a deleted file is reported, not fatal. Other features listen for new valid
configurations (`on_config`) and take part in switching files (`on_before_open`, `on_opened`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Literal

from app.config import recent
from app.config.atomic import write_atomic
from app.config.files import absolute, check_openable
from app.config.model import Config
from app.config.validate import Validation, validate_text
from app.config.watcher import ConfigWatcher
from app.core.errors import ConfigError
from app.core.loop import LoopThread
from app.events import names
from app.events.bus import EventBus
from app.events.payloads import ConfigChanged
from app.i18n import _, set_language
from app.models.problems import Problem

log = logging.getLogger(__name__)

Source = Literal["flag", "env", "recent", "default"]
DEBOUNCE_SECONDS = 0.15


class ConfigStore:
    def __init__(self, bus: EventBus, core: LoopThread) -> None:
        self._bus = bus
        self._core = core
        self.path = Path()
        self.source: Source = "default"
        self.created = False
        self.history_problem = ""
        self.validation = Validation()
        self.config = Config()  # the last valid configuration (defaults until there is one)
        self._disk_text: str | None = None
        self._watcher: ConfigWatcher | None = None
        self._reload_handle: asyncio.TimerHandle | None = None
        self.config_listeners: list[Callable[[Config], None]] = []
        self.before_open: list[Callable[[], Awaitable[None]]] = []
        self.after_open: list[Callable[[Path], Awaitable[None]]] = []

    # ---- loading ---------------------------------------------------------------------------

    def load(self, path: Path, text: str, source: Source, created: bool) -> None:
        """Takes `path` as the configuration in force (called on the loop)."""
        self._stop_watching()
        self.path, self.source, self.created = path, source, created
        self.config = Config()
        self._apply(text)
        self._watcher = ConfigWatcher(path, self._changed_on_disk)
        self._watcher.start()

    def _apply(self, text: str | None, unreadable: str = "") -> None:
        self._disk_text = text
        if text is None or unreadable:
            message = unreadable or _(
                "the file was deleted or moved; the last valid configuration stays in force"
            )
            self.validation = Validation([Problem(line=1, column=1, message=message)])
        else:
            self.validation = validate_text(text, self.path.parent)
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
        self._reload_handle = None
        try:
            raw = self.path.read_bytes()
        except FileNotFoundError:
            raw = None
        except OSError as err:
            log.warning("cannot read %s: %s", self.path, err)
            return
        text, unreadable = None, ""
        if raw is not None:
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:
                text = raw.decode("utf-8", errors="replace")
                unreadable = _(
                    "the file is not UTF-8 text; the last valid configuration stays in force"
                )
        if text == self._disk_text:
            return  # our own save, or a touch that changed nothing
        self._apply(text, unreadable)

    def _stop_watching(self) -> None:
        if self._reload_handle is not None:
            self._reload_handle.cancel()
            self._reload_handle = None
        if self._watcher is not None:
            self._watcher.stop()
            self._watcher = None

    # ---- editing ---------------------------------------------------------------------------

    def validate(self, text: str) -> list[Problem]:
        return validate_text(text, self.path.parent).entries

    def save(self, text: str) -> list[Problem]:
        result = validate_text(text, self.path.parent)
        if not result.valid:
            return result.entries
        try:
            write_atomic(self.path, text)
        except OSError as err:
            raise ConfigError(
                _("{path} could not be saved: {error}").format(path=self.path, error=err)
            ) from None
        self._apply(text)
        return result.entries

    def content(self) -> str:
        if self._disk_text is not None:
            return self._disk_text
        try:
            return self.path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return ""

    async def open(self, raw_path: str) -> None:
        path = absolute(raw_path)
        text = check_openable(path)  # raises before anything changes
        for before in list(self.before_open):
            await before()
        self.load(path, text, "recent", created=False)
        try:
            recent.remember(path)
        except OSError as err:
            log.warning("cannot remember %s in the recent files: %s", path, err)
        for after in list(self.after_open):
            await after(path)

    def close(self) -> None:
        self._stop_watching()
