"""Where Sidekicks keeps things (the user config dir, per-config data dirs, bundled resources)
and where the folders and programs a configuration names are (`resolve_cwd`, `find_program`)."""

from __future__ import annotations

import hashlib
import os
import shutil
import sys
from collections.abc import Mapping
from pathlib import Path

APP_DIR_NAME = "sidekicks"


def user_config_dir() -> Path:
    """The platform's per-user configuration folder (SPEC §4 History, Location)."""
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Application Support"
    if sys.platform == "win32":
        appdata = os.environ.get("APPDATA")
        return Path(appdata) if appdata else Path.home() / "AppData" / "Roaming"
    xdg = os.environ.get("XDG_CONFIG_HOME")
    # The XDG spec says a relative value is invalid and must be ignored.
    if xdg and os.path.isabs(xdg):
        return Path(xdg)
    return Path.home() / ".config"


def app_config_dir() -> Path:
    """`<user config dir>/sidekicks`: the default config, recent files, window state, data."""
    return user_config_dir() / APP_DIR_NAME


def default_config_path() -> Path:
    return app_config_dir() / "config.yaml"


def recent_file_path() -> Path:
    return app_config_dir() / "recent.json"


def run_dir() -> Path:
    """`<user config dir>/sidekicks/run`: what each running app started
    (app/core/run_records.py)."""
    return app_config_dir() / "run"


SECRETS_DIR_ENV = "SIDEKICKS_SECRETS_DIR"  # tests and portable set-ups name another folder


def secrets_dir() -> Path:
    """Where sign-in secrets are kept when no keychain holds them, with the sign-in index:
    `<user config dir>/sidekicks/secrets`, or `$SIDEKICKS_SECRETS_DIR`."""
    named = os.environ.get(SECRETS_DIR_ENV)
    return Path(named) if named else app_config_dir() / "secrets"


def config_fingerprint(config_path: str | os.PathLike[str]) -> str:
    """First 16 hex chars of SHA-256 of the resolved absolute path (one history per file)."""
    resolved = str(Path(config_path).expanduser().resolve())
    return hashlib.sha256(resolved.encode("utf-8")).hexdigest()[:16]


def data_dir(config_path: str | os.PathLike[str]) -> Path:
    """`<user config dir>/sidekicks/data/<fingerprint>/`, the history of one config file."""
    return app_config_dir() / "data" / config_fingerprint(config_path)


def is_frozen() -> bool:
    return bool(getattr(sys, "frozen", False))


def resource_root() -> Path:
    """The folder holding `ui/`, `locales/`…: the repo from source, the bundle when frozen."""
    bundle = getattr(sys, "_MEIPASS", None)
    if is_frozen() and bundle:
        return Path(bundle)
    return Path(__file__).resolve().parent.parent


def resource_path(*parts: str) -> Path:
    return resource_root().joinpath(*parts)


# PyInstaller's bootloader puts the bundle first on the library path of the frozen app (keeping
# the person's value in `<name>_ORIG`, or none if there was none). Qt's own helper processes
# need that; the programs the app starts for the person (agents, their commands, sign-in
# terminals) must not load the bundle's libssl or libz instead of their system's.
_BUNDLE_LIBRARY_PATHS = ("LD_LIBRARY_PATH",)
ARENAS_SET_BY_US = "SIDEKICKS_SET_MALLOC_ARENA_MAX"  # app/core/arenas.py
ENGINE_FLAGS = "QTWEBENGINE_CHROMIUM_FLAGS"
ENGINE_FLAGS_BEFORE_US = "SIDEKICKS_QTWEBENGINE_FLAGS_BEFORE"  # app/bridge/engine_memory.py


def child_environment(
    environ: Mapping[str, str] | None = None, frozen: bool | None = None
) -> dict[str, str]:
    """The environment for a program started for the person: ours, with the library path the
    person had before the frozen app's bootloader changed it, and without the malloc arena
    limit and the engine switch the app set for its window."""
    env = dict(os.environ if environ is None else environ)
    # The window's one malloc arena (app/core/arenas.py) is for its own processes, not theirs.
    if env.pop(ARENAS_SET_BY_US, None) is not None:
        env.pop("MALLOC_ARENA_MAX", None)
    engine_flags = env.pop(ENGINE_FLAGS_BEFORE_US, None)  # the person's value, "" for none
    if engine_flags:
        env[ENGINE_FLAGS] = engine_flags
    elif engine_flags is not None:
        env.pop(ENGINE_FLAGS, None)
    if not (is_frozen() if frozen is None else frozen):
        return env
    for name in _BUNDLE_LIBRARY_PATHS:
        original = env.pop(f"{name}_ORIG", None)
        if original is None:
            env.pop(name, None)
        else:
            env[name] = original
    return env


def resolve_cwd(cwd: str, base_dir: Path) -> Path:
    """A folder the configuration names (an agent's `cwd`, its `folders:`): `~` is the home
    folder, `$VARS` are expanded, a relative folder is relative to `base_dir` (the file's)."""
    path = Path(os.path.expandvars(cwd)).expanduser()
    return path if path.is_absolute() else (base_dir / path)


def find_program(program: str, cwd: Path, path_var: str) -> str | None:
    """The program an agent's `command` starts, as its start would find it: a path (relative
    to `cwd`) or a name looked up on `path_var`; None when there is none to run."""
    program = os.path.expanduser(program)
    if os.sep in program or (os.altsep and os.altsep in program):
        candidate = Path(program) if os.path.isabs(program) else cwd / program
        return str(candidate) if os.access(candidate, os.X_OK) and candidate.is_file() else None
    return shutil.which(program, path=path_var)
