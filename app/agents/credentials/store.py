"""Where the values of `env_var` sign-in methods are kept (API keys): never in the YAML, the
history or the logs.

The OS keychain first (keychain.py). Where none works — keyring's `fail`/`null` backend, as on
a headless Linux machine, or any error from it (a locked or absent Secret Service) — the values
go to an owner-only file instead (file_store.py: 0600 in a 0700 folder, written atomically; on
Windows the user profile's ACL protects it). A keychain cannot list its entries, so a small
index, not secret, says which agent has values saved, for which method and variables, and
where (`signins.json`, next to the fallback file).

Both live in `<user config dir>/sidekicks/secrets/`. `SIDEKICKS_SECRETS_DIR` names another
folder and keeps everything in its file, never in the keychain (tests; a portable install).
One method's values per agent: saving another method's replaces them.

Every call blocks (the keychain may ask the person to unlock it): call from a worker thread.
"""

from __future__ import annotations

import json
import logging
import os
import threading
from dataclasses import dataclass
from pathlib import Path

from app.agents.credentials import keychain
from app.agents.credentials.file_store import FileStore
from app.paths import SECRETS_DIR_ENV, secrets_dir

log = logging.getLogger(__name__)
FOLDER_ENV = SECRETS_DIR_ENV
INDEX_FILE = "signins.json"


@dataclass(frozen=True)
class Saved:
    method: str
    values: dict[str, str]


@dataclass(frozen=True)
class _Entry:
    method: str
    variables: tuple[str, ...]
    where: str  # "keychain" or "file"


class Credentials:
    def __init__(self, folder: Path, use_keychain: bool = True) -> None:
        self.folder = folder
        self.use_keychain = use_keychain
        self.file = FileStore(folder)
        self._index = FileStore(folder, INDEX_FILE)
        self._lock = threading.Lock()

    @classmethod
    def from_environment(cls) -> Credentials:
        # A folder named by the environment is a test's or a portable set-up's: no keychain.
        return cls(secrets_dir(), use_keychain=not os.environ.get(FOLDER_ENV))

    def saved_method(self, agent: str) -> str | None:
        """The method whose values are saved for `agent` (from the index: no secret is read)."""
        with self._lock:
            entry = self._entry(agent)
        return entry.method if entry else None

    def save(self, agent: str, method: str, values: dict[str, str]) -> None:
        """Keeps `values` (replacing any saved for the agent); raises UserError if even the
        file cannot keep them."""
        with self._lock:
            self._forget(agent)
            where = "keychain" if self.use_keychain and self._to_keychain(agent, values) else "file"
            if where == "file":
                for variable, value in values.items():
                    self.file.set(keychain.entry(agent, variable), value)
            entry = {"method": method, "vars": sorted(values), "where": where}
            self._index.set(agent, json.dumps(entry))

    def load(self, agent: str) -> Saved | None:
        """The saved values, or None when there are none (or some are missing)."""
        with self._lock:
            entry = self._entry(agent)
            if entry is None:
                return None
            values: dict[str, str] = {}
            for variable in entry.variables:
                if entry.where == "keychain":
                    value = keychain.get(agent, variable)
                else:
                    value = self.file.get(keychain.entry(agent, variable))
                if not value:
                    return None
                values[variable] = value
        return Saved(entry.method, values)

    def forget(self, agent: str) -> None:
        with self._lock:
            self._forget(agent)

    def _forget(self, agent: str) -> None:
        entry = self._entry(agent)
        if entry is None:
            return
        for variable in entry.variables:
            if entry.where == "keychain":
                try:
                    keychain.remove(agent, variable)
                except Exception as err:
                    log.warning("could not delete a keychain entry of %s (%s)",
                                agent, type(err).__name__)  # fmt: skip
            else:
                self.file.delete(keychain.entry(agent, variable))
        self._index.delete(agent)

    def _to_keychain(self, agent: str, values: dict[str, str]) -> bool:
        if not keychain.usable():
            return False
        done: list[str] = []
        try:
            for variable, value in values.items():
                keychain.put(agent, variable, value)
                done.append(variable)
        except Exception as err:  # the error's text is not logged: it could quote the value
            log.warning("the keychain refused a value (%s): using the owner-only file",
                        type(err).__name__)  # fmt: skip
            for variable in done:
                try:
                    keychain.remove(agent, variable)
                except Exception:
                    log.warning("could not undo a keychain entry of %s", agent)
            return False
        return True

    def _entry(self, agent: str) -> _Entry | None:
        raw = self._index.get(agent)
        if raw is None:
            return None
        try:
            data = json.loads(raw)
            return _Entry(str(data["method"]), tuple(map(str, data["vars"])), str(data["where"]))
        except (ValueError, KeyError, TypeError):
            return None
