"""ConfigService (SPEC §3 and §4 "ConfigService settings methods"), as the page calls it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from app.config.model import json_schema
from app.config.preferences import preferences_of, text_with
from app.config.store import ConfigStore
from app.core.errors import UserError
from app.core.expose import exposed
from app.core.loop import LoopThread
from app.i18n import _
from app.models.preferences import Preferences as PreferencesModel
from app.models.problems import Problem
from app.models.wire import WireModel

OPEN_TIMEOUT = 60.0  # Open stops every agent first (up to ~8 s each, in parallel)

FileChooser = Callable[[], str | None]


class ConfigInfo(WireModel):
    path: str
    source: str
    created: bool
    valid: bool
    problems: list[Problem]
    warnings: list[Problem]
    theme: str
    language: str
    history_problem: str


def _no_chooser() -> str | None:
    return None  # headless: there is no window to show a dialog in


class ConfigService:
    def __init__(self, store: ConfigStore, core: LoopThread) -> None:
        self._store = store
        self._core = core
        self._chooser: FileChooser = _no_chooser

    def _set_file_chooser(self, chooser: FileChooser) -> None:
        """The window installs the native dialog here."""
        self._chooser = chooser

    def _info(self) -> ConfigInfo:
        s = self._store
        return ConfigInfo(
            path=str(s.path),
            source=s.source,
            created=s.created,
            valid=s.validation.valid,
            problems=s.validation.problems,
            warnings=s.validation.warnings,
            theme=s.config.theme,
            language=s.config.language,
            history_problem=s.history_problem,
        )

    @exposed
    def Current(self) -> ConfigInfo:
        """The configuration in force: its file, where it came from, and whether it is valid."""
        return self._core.call(self._info)

    @exposed
    def Content(self) -> str:
        """The configuration file's text."""
        return self._core.call(self._store.content)

    @exposed
    def Validate(self, text: str) -> list[Problem]:
        """Problems and warnings of `text`, without saving."""
        return self._core.run(self._store.validate(text))

    @exposed
    def Save(self, text: str) -> list[Problem]:
        """Writes `text` if it has no problem; returns its problems and warnings either way."""
        return self._core.run(self._store.save(text))

    @exposed
    def Preferences(self) -> PreferencesModel:
        """The Preferences form's settings: theme, language, notifications, limits."""
        return self._core.call(self._preferences)

    @exposed
    def SetPreferences(self, prefs: PreferencesModel) -> list[Problem]:
        """Writes the changed settings into the YAML (comments and order kept), validated and
        reloaded like a Save: with a problem, nothing is written and the problems are returned."""
        return self._core.run(self._set_preferences(prefs))

    def _preferences(self) -> PreferencesModel:
        return preferences_of(self._store.config, self._store.content())

    async def _set_preferences(self, prefs: PreferencesModel) -> list[Problem]:
        text = self._store.content()
        edited = text_with(text, preferences_of(self._store.config, text), prefs)
        if edited == text:
            return self._store.validation.entries
        return await self._store.save(edited)

    @exposed
    def Schema(self) -> dict[str, Any]:
        """The configuration's JSON Schema."""
        return json_schema()

    @exposed
    def Open(self, path: str) -> ConfigInfo:
        """Stops the answers and agents, then loads and watches `path` with its own history."""
        if not path.strip():
            raise UserError(_("no file was given"))
        self._core.run(self._store.open(path), timeout=OPEN_TIMEOUT)
        return self._core.call(self._info)

    @exposed
    def Choose(self) -> str:
        """Shows the native file chooser and opens the chosen file; "" when cancelled."""
        chosen = self._chooser()
        if not chosen:
            return ""
        self._core.run(self._store.open(chosen), timeout=OPEN_TIMEOUT)
        return str(self._store.path)

    @exposed
    def Recent(self) -> list[str]:
        """Configuration files opened from the app, most recent first (8 at most), with the file
        the app started on."""
        return self._store.recent_files()
