"""The watcher says when the configuration file can no longer be read — it became a folder, a
symlink loop, a named pipe, or the read is refused — with `config:changed` (valid: false) and in
`Current()`; the last valid configuration keeps running, and the file coming back is reloaded."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from app import Sidekicks
from tests.integration.config.conftest import VALID
from tests.waiting import EventLog

BACK = VALID.replace("dark", "light")


def _reported(sk: Sidekicks, log: EventLog, mark: int, words: str) -> dict[str, Any]:
    """The `config:changed` whose problem contains `words`; `Current()` must say the same."""
    event = log.wait(
        "config:changed",
        lambda p: not p["valid"] and any(words in q["message"] for q in p["problems"]),
        timeout=5,
        since=mark,
    )
    info = sk.api.ConfigService.Current()
    assert info.valid is False
    assert [p.message for p in info.problems] == [q["message"] for q in event["problems"]]
    assert info.theme == "dark"  # the last valid configuration is still in force
    return event


def _comes_back(sk: Sidekicks, log: EventLog, config_file: Path) -> None:
    mark = log.mark()
    config_file.write_text(BACK, encoding="utf-8")
    log.wait("config:changed", lambda p: p["valid"], timeout=5, since=mark)
    assert sk.api.ConfigService.Current().theme == "light"


def test_a_configuration_that_becomes_a_folder_is_reported(
    app: tuple[Sidekicks, EventLog], config_file: Path
) -> None:
    sk, log = app
    mark = log.mark()
    config_file.unlink()
    config_file.mkdir()
    event = _reported(sk, log, mark, "is a folder")
    assert event["problems"][0]["message"].startswith(str(config_file))
    config_file.rmdir()
    _comes_back(sk, log, config_file)


@pytest.mark.posix_only(
    "symlinks need a privilege on Windows, which reports a loop as ERROR_CANT_RESOLVE_FILENAME"
)
def test_a_configuration_that_becomes_a_symlink_loop_is_reported(
    app: tuple[Sidekicks, EventLog], config_file: Path
) -> None:
    sk, log = app
    mark = log.mark()
    link = config_file.with_name("loop.tmp")
    link.symlink_to(config_file.name)  # once renamed over the file, it points at itself
    os.replace(link, config_file)
    _reported(sk, log, mark, "symbolic links")
    config_file.unlink()
    _comes_back(sk, log, config_file)


@pytest.mark.posix_only("named pipes (mkfifo) are POSIX files")
def test_a_configuration_replaced_by_a_named_pipe_is_reported_without_blocking(
    app: tuple[Sidekicks, EventLog], config_file: Path
) -> None:
    sk, log = app
    pipe = config_file.with_name("pipe.tmp")
    os.mkfifo(pipe)
    mark = log.mark()
    os.replace(pipe, config_file)
    _reported(sk, log, mark, "is not a regular file")
    config_file.unlink()
    _comes_back(sk, log, config_file)


def test_a_configuration_whose_read_is_refused_is_reported(
    app: tuple[Sidekicks, EventLog], config_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Tests run as root here, where chmod 000 does not stop a read: the read itself is refused,
    # for this one file, as the OS refuses it to a user without the permission.
    real_open = os.open

    def refusing_open(path: Any, *args: Any, **kwargs: Any) -> int:
        if os.fspath(path) == str(config_file):
            raise PermissionError(13, "Permission denied", str(config_file))
        return real_open(path, *args, **kwargs)

    sk, log = app
    mark = log.mark()
    monkeypatch.setattr(os, "open", refusing_open)
    config_file.write_text(BACK, encoding="utf-8")
    _reported(sk, log, mark, "permission denied")
    monkeypatch.setattr(os, "open", real_open)
    _comes_back(sk, log, config_file)
