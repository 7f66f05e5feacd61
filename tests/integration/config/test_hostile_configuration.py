"""Configuration text made to hurt (alias bombs, huge texts) is one clear problem, never a freeze:
through Validate, Save, Open, the start and the watcher, with real files."""

from __future__ import annotations

import os
import tracemalloc
from pathlib import Path

import pytest

from app import Sidekicks
from app.core.errors import ConfigError
from tests.integration.config.conftest import VALID
from tests.unit.config.hostile_texts import MIB, alias_bomb
from tests.waiting import EventLog

HEAD = "theme: light\ndescription: "
TWO_MB_TEXT = HEAD + "x" * (2 * MIB - len(HEAD) - 1) + "\n"
TOO_LARGE = "the configuration is 2 MB; Sidekicks reads at most 1 MB"
# 7 levels of 9: the values aliases repeat pass 10,000 at the first `*d` of line 5.
BOMB_PROBLEM = (5, 8, "aliases repeat too many values here: `*d` brings them past 10000")


def test_validate_reports_an_alias_bomb_at_the_alias_without_expanding_it(
    app: tuple[Sidekicks, EventLog],
) -> None:
    sk, _ = app
    problems = sk.api.ConfigService.Validate(alias_bomb(levels=7))
    assert [(p.line, p.column, p.warning) for p in problems] == [(5, 8, False)]
    assert problems[0].message.startswith(BOMB_PROBLEM[2])


def test_save_refuses_an_alias_bomb_and_leaves_the_file_untouched(
    app: tuple[Sidekicks, EventLog], config_file: Path
) -> None:
    sk, _ = app
    problems = sk.api.ConfigService.Save(alias_bomb(levels=9))
    assert [(p.line, p.column) for p in problems] == [BOMB_PROBLEM[:2]]
    assert config_file.read_text(encoding="utf-8") == VALID


def test_validate_of_a_text_over_1_mb_is_one_problem_at_the_start(
    app: tuple[Sidekicks, EventLog],
) -> None:
    sk, _ = app
    problems = sk.api.ConfigService.Validate(TWO_MB_TEXT)
    assert [(p.line, p.column, p.message) for p in problems] == [(1, 1, TOO_LARGE)]


def test_save_of_a_text_over_1_mb_is_refused_and_leaves_the_file_untouched(
    app: tuple[Sidekicks, EventLog], config_file: Path
) -> None:
    sk, _ = app
    problems = sk.api.ConfigService.Save(TWO_MB_TEXT)
    assert [(p.line, p.column, p.message) for p in problems] == [(1, 1, TOO_LARGE)]
    assert config_file.read_text(encoding="utf-8") == VALID


def _huge_file(path: Path, size: int) -> Path:
    """A valid start followed by `size` bytes in all (sparse: it costs no disk)."""
    path.write_text(VALID, encoding="utf-8")
    os.truncate(path, size)
    return path


def test_open_refuses_a_50_mb_file_without_reading_it_into_memory(
    app: tuple[Sidekicks, EventLog], tmp_path: Path
) -> None:
    sk, _ = app
    before = sk.api.ConfigService.Current()
    huge = _huge_file(tmp_path / "huge.yaml", 50 * MIB)
    tracemalloc.start()
    try:
        with pytest.raises(ConfigError, match=r"huge\.yaml is 50 MB; Sidekicks reads at most 1 MB"):
            sk.api.ConfigService.Open(str(huge))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 5 * MIB, f"{peak / MIB:.1f} MB allocated while refusing the file"
    assert sk.api.ConfigService.Current() == before


def test_a_start_on_a_file_over_1_mb_is_a_clear_error(tmp_path: Path) -> None:
    huge = _huge_file(tmp_path / "huge.yaml", 50 * MIB)
    with pytest.raises(ConfigError, match=r"huge\.yaml is 50 MB; Sidekicks reads at most 1 MB"):
        Sidekicks(config=huge).start()


def test_an_edit_that_makes_the_file_over_1_mb_is_reported_and_the_last_valid_one_stays(
    app: tuple[Sidekicks, EventLog], config_file: Path
) -> None:
    sk, log = app
    mark = log.mark()
    config_file.write_text(TWO_MB_TEXT, encoding="utf-8")
    event = log.wait("config:changed", lambda p: not p["valid"], timeout=5, since=mark)
    assert [p["message"] for p in event["problems"]] == [
        f"{config_file} is 2 MB; Sidekicks reads at most 1 MB"
    ]
    info = sk.api.ConfigService.Current()
    assert (info.valid, info.theme) == (False, "dark")
    mark = log.mark()
    config_file.write_text(VALID.replace("dark", "light"), encoding="utf-8")
    log.wait("config:changed", lambda p: p["valid"], timeout=5, since=mark)
    assert sk.api.ConfigService.Current().theme == "light"
