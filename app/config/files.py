"""Reading a configuration file for Open/startup, with errors a person understands."""

from __future__ import annotations

import os
from pathlib import Path

from app.config.yamldoc import parse
from app.core.errors import ConfigError
from app.i18n import _


def folder_missing(path: str) -> str:
    """The one sentence for a working folder that is not there (a warning, or a failed start)."""
    return _("the folder {path} does not exist").format(path=path)


def absolute(path: str | os.PathLike[str]) -> Path:
    return Path(os.path.abspath(Path(path).expanduser()))


def read_config_text(path: Path) -> str:
    """The file's text; ConfigError when it is missing, a folder, unreadable or not UTF-8."""
    if not path.exists():
        raise ConfigError(_("{path} does not exist").format(path=path))
    if path.is_dir():
        raise ConfigError(_("{path} is a folder, not a configuration file").format(path=path))
    try:
        raw = path.read_bytes()
    except PermissionError:
        raise ConfigError(
            _("{path} cannot be read (permission denied)").format(path=path)
        ) from None
    except OSError as err:
        raise ConfigError(
            _("{path} cannot be read: {error}").format(path=path, error=err.strerror or err)
        ) from None
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ConfigError(_("{path} is not a text file in UTF-8").format(path=path)) from None


def check_openable(path: Path) -> str:
    """The text of a file that Open accepts: readable YAML whose top level is a mapping.

    A mapping with mistakes in it opens (the editor shows them); anything else is refused."""
    text = read_config_text(path)
    parsed = parse(text)
    if parsed.problem is None and not isinstance(parsed.data, dict):
        raise ConfigError(
            _(
                "{path} is not a Sidekicks configuration: its top level is not a YAML mapping"
            ).format(path=path)
        )
    return text
