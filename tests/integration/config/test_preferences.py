"""ConfigService.Preferences / SetPreferences on a real file: written with its comments kept,
validated and reloaded like a Save."""

from __future__ import annotations

from pathlib import Path

import pytest

from app import Sidekicks
from app.config.preferences import format_duration
from app.core.errors import UserError
from app.models.preferences import Preferences
from tests.waiting import EventLog

COMMENTED = """\
# mine
theme: dark   # the dark one
limits:
  stopIdleAgentsAfter: 90s   # quick
agents:
  - name: demo
    builtin: demo
"""


@pytest.fixture
def commented(config_file: Path) -> Path:
    config_file.write_text(COMMENTED, encoding="utf-8", newline="\n")
    return config_file


def test_preferences_read_the_file_with_the_idle_stop_as_written(
    commented: Path,
) -> None:
    with Sidekicks(config=commented) as sk:
        prefs = sk.api.ConfigService.Preferences()
    assert prefs.wire() == {
        "theme": "dark", "language": "system", "notifications": True,
        "maxRunningAgents": 4, "stopIdleAgentsAfter": "90s",
    }  # fmt: skip


def test_set_preferences_writes_only_what_changed_and_keeps_the_comments(
    commented: Path,
) -> None:
    log = EventLog()
    with Sidekicks(config=commented) as sk:
        sk.events.subscribe(log)
        mark = log.mark()
        prefs = sk.api.ConfigService.Preferences()
        prefs.theme, prefs.max_running_agents, prefs.stop_idle_agents_after = "light", 2, "0"
        assert sk.api.ConfigService.SetPreferences(prefs) == []
        log.wait("config:changed", lambda p: p["valid"], since=mark)
        assert sk.api.ConfigService.Current().theme == "light"
        assert sk.api.ConfigService.Preferences().stop_idle_agents_after == "0"
        assert sk.api.ConfigService.Content() == commented.read_text(encoding="utf-8")
    assert commented.read_text(encoding="utf-8") == (
        "# mine\ntheme: light  # the dark one\nlimits:\n  stopIdleAgentsAfter: 0     # quick\n"
        "  maxRunningAgents: 2\nagents:\n  - name: demo\n    builtin: demo\n"
    )


def test_invalid_preferences_return_problems_and_write_nothing(
    app: tuple[Sidekicks, EventLog], config_file: Path
) -> None:
    sk, _ = app
    before = config_file.read_bytes()
    prefs = sk.api.ConfigService.Preferences()
    prefs.max_running_agents, prefs.stop_idle_agents_after = 0, "soon"
    problems = sk.api.ConfigService.SetPreferences(prefs)
    assert len(problems) == 2 and not any(p.warning for p in problems)
    assert any("duration" in p.message for p in problems)
    assert config_file.read_bytes() == before


def test_a_wrong_value_from_the_page_is_refused_with_a_sentence(
    app: tuple[Sidekicks, EventLog],
) -> None:
    sk, _ = app
    wrong = {**sk.api.ConfigService.Preferences().wire(), "theme": "purple"}
    with pytest.raises(UserError, match=r"^`prefs\['theme'\]` is not valid$"):
        sk.api.ConfigService.SetPreferences(wrong)  # type: ignore[arg-type]


def test_unchanged_preferences_leave_the_file_alone(
    app: tuple[Sidekicks, EventLog], config_file: Path
) -> None:
    sk, _ = app
    before = config_file.stat().st_mtime_ns
    prefs: Preferences = sk.api.ConfigService.Preferences()
    assert sk.api.ConfigService.SetPreferences(prefs) == []
    assert config_file.stat().st_mtime_ns == before


@pytest.mark.parametrize(
    ("seconds", "text"),
    [(0, "0"), (90, "90s"), (900, "15m"), (5400, "1h30m"), (7200, "2h"), (61, "61s")],
)
def test_durations_are_written_as_a_person_would(seconds: int, text: str) -> None:
    assert format_duration(seconds) == text
