"""What to open at start: --config, else $SIDEKICKS_CONFIG, else the most recent existing file,
else the default file (created on first run with the demo agent).

Light on purpose (no validation, no YAML library): the window resolves it before it opens, so
that a file that cannot be read is said with no window, while the backend still starts on its
own thread (app/bridge/starting.py)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from app.config import recent
from app.config.defaults import default_config_text
from app.config.files import absolute, read_config_text
from app.core.atomic import write_atomic
from app.paths import default_config_path

ENV_VAR = "SIDEKICKS_CONFIG"
Source = Literal["flag", "env", "recent", "default"]  # where the configuration came from


@dataclass
class Startup:
    path: Path
    text: str
    source: Source
    created: bool


def startup_config(flag: str | os.PathLike[str] | None) -> Startup:
    """Raises ConfigError when the file named by the flag or the variable cannot be read."""
    if flag:
        path = absolute(flag)
        return Startup(path, read_config_text(path), "flag", False)
    from_env = os.environ.get(ENV_VAR)
    if from_env:
        path = absolute(from_env)
        return Startup(path, read_config_text(path), "env", False)
    for candidate in recent.recent():
        try:
            return Startup(Path(candidate), read_config_text(Path(candidate)), "recent", False)
        except Exception:  # unreadable now: try the next one
            continue
    path = default_config_path()
    created = False
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, default_config_text())
        created = True
    return Startup(path, read_config_text(path), "default", created)
