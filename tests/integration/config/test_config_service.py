"""ConfigService through the headless app: real files, real watchdog events, real saves."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from app import Sidekicks
from app.config.defaults import agent_launcher, default_config_text
from app.core.errors import ConfigError, UserError
from tests.integration.config.conftest import VALID
from tests.waiting import EventLog

OTHER = "theme: light\nagents:\n  - name: other\n    builtin: demo\n"


def test_first_start_creates_the_default_config_with_the_demo_agent(user_config_dir: Path) -> None:
    with Sidekicks() as sk:
        info = sk.api.ConfigService.Current()
        default = user_config_dir / "sidekicks" / "config.yaml"
        assert info.path == str(default)
        assert info.source == "default"
        assert info.created is True
        assert info.valid is True
        text = default.read_text(encoding="utf-8")
        assert text == default_config_text()
        # agents.sh, or on Windows the Python launcher (app/agents/launcher.py) run by Python
        launcher = agent_launcher()
        assert Path(launcher[-1]).is_file()
        commands = [line for line in text.splitlines() if line.startswith("  #   command: [")]
        for agent in ("claude", "codex", "gemini", "opencode", "goose"):
            assert f"  # - name: {agent}\n" in text
            assert any(line.endswith(f", {agent}]") for line in commands), commands
        assert all(Path(launcher[-1]).name in line for line in commands), commands
    with Sidekicks() as sk:
        assert sk.api.ConfigService.Current().created is False


def test_current_reports_the_flag_source_and_the_settings(app: tuple[Sidekicks, EventLog]) -> None:
    sk, _ = app
    info = sk.api.ConfigService.Current()
    assert info.source == "flag"
    assert info.theme == "dark"
    assert info.language == "system"
    assert info.history_problem == ""
    assert set(info.wire()) == {
        "path", "source", "created", "valid", "problems", "warnings",
        "theme", "language", "historyProblem",
    }  # fmt: skip


def test_the_environment_variable_is_used_when_there_is_no_flag(
    config_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SIDEKICKS_CONFIG", str(config_file))
    with Sidekicks() as sk:
        info = sk.api.ConfigService.Current()
    assert (info.source, info.path) == ("env", str(config_file))


def test_a_missing_flag_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="does not exist"):
        Sidekicks(config=tmp_path / "nope.yaml").start()


def test_the_most_recent_file_is_reopened_at_the_next_start(
    app: tuple[Sidekicks, EventLog], tmp_path: Path
) -> None:
    sk, _ = app
    other = tmp_path / "other.yaml"
    other.write_text(OTHER, encoding="utf-8")
    sk.api.ConfigService.Open(str(other))
    sk.close()
    with Sidekicks() as again:
        info = again.api.ConfigService.Current()
    assert (info.source, info.path, info.theme) == ("recent", str(other), "light")


def test_content_returns_the_file_text(app: tuple[Sidekicks, EventLog]) -> None:
    sk, _ = app
    assert sk.api.ConfigService.Content() == VALID


def test_save_writes_valid_text_as_given_and_reports_the_change(
    app: tuple[Sidekicks, EventLog], config_file: Path
) -> None:
    sk, log = app
    mark = log.mark()
    text = "# my agents\ntheme: light   # bright\nagents:\n  - name: demo\n    builtin: demo\n"
    assert sk.api.ConfigService.Save(text) == []
    assert config_file.read_text(encoding="utf-8") == text
    event = log.wait("config:changed", lambda p: p["valid"], since=mark)
    assert event["path"] == str(config_file)
    assert sk.api.ConfigService.Current().theme == "light"


def test_save_of_invalid_text_returns_problems_and_leaves_the_file_untouched(
    app: tuple[Sidekicks, EventLog], config_file: Path
) -> None:
    sk, _ = app
    before = config_file.read_bytes()
    problems = sk.api.ConfigService.Save("theme: purple\nagents: []\n")
    assert [(p.line, p.column, p.warning) for p in problems] == [(1, 8, False)]
    assert "purple" not in problems[0].message
    assert "theme" in problems[0].message
    assert config_file.read_bytes() == before


def test_save_keeps_warnings_and_still_writes(
    app: tuple[Sidekicks, EventLog], config_file: Path
) -> None:
    sk, _ = app
    text = VALID + "colour: blue\n"
    entries = sk.api.ConfigService.Save(text)
    assert [(e.line, e.warning) for e in entries] == [(5, True)]
    assert config_file.read_text(encoding="utf-8") == text


def test_validate_does_not_save(app: tuple[Sidekicks, EventLog], config_file: Path) -> None:
    sk, _ = app
    entries = sk.api.ConfigService.Validate("agents:\n  - name: x\n")
    assert entries
    assert entries[0].line == 2
    assert config_file.read_text(encoding="utf-8") == VALID


def test_validate_refuses_something_that_is_not_text(app: tuple[Sidekicks, EventLog]) -> None:
    sk, _ = app
    with pytest.raises(UserError, match=r"^`text` must be text$"):
        sk.api.ConfigService.Validate(42)  # type: ignore[arg-type]


def test_an_external_edit_is_reloaded_and_reported(
    app: tuple[Sidekicks, EventLog], config_file: Path
) -> None:
    sk, log = app
    mark = log.mark()
    config_file.write_text(OTHER, encoding="utf-8")
    log.wait("config:changed", lambda p: p["valid"], timeout=3, since=mark)
    assert sk.api.ConfigService.Current().theme == "light"


def test_an_editor_that_saves_by_rename_is_seen(
    app: tuple[Sidekicks, EventLog], config_file: Path
) -> None:
    sk, log = app
    tmp = config_file.with_name(".sidekicks.yaml.swp")
    tmp.write_text(OTHER, encoding="utf-8")
    mark = log.mark()
    os.replace(tmp, config_file)
    log.wait("config:changed", lambda p: p["valid"], timeout=3, since=mark)
    assert sk.api.ConfigService.Current().theme == "light"


def test_an_invalid_edit_keeps_the_last_valid_configuration(
    app: tuple[Sidekicks, EventLog], config_file: Path
) -> None:
    sk, log = app
    config_file.write_text("theme: light\nlimits:\n  maxRunningAgents: 0\n", encoding="utf-8")
    event = log.wait("config:changed", lambda p: not p["valid"], timeout=3)
    assert [(p["line"], p["column"]) for p in event["problems"]] == [(3, 21)]
    info = sk.api.ConfigService.Current()
    assert info.valid is False
    assert info.theme == "dark"  # still the last valid one
    assert info.problems[0].line == 3


def test_a_deleted_file_is_reported_and_a_new_one_is_picked_up(
    app: tuple[Sidekicks, EventLog], config_file: Path
) -> None:
    sk, log = app
    mark = log.mark()
    config_file.unlink()
    event = log.wait("config:changed", lambda p: not p["valid"], timeout=3, since=mark)
    assert "deleted" in event["problems"][0]["message"]
    assert sk.api.ConfigService.Current().theme == "dark"
    mark = log.mark()
    config_file.write_text(OTHER, encoding="utf-8")
    log.wait("config:changed", lambda p: p["valid"], timeout=3, since=mark)
    assert sk.api.ConfigService.Current().theme == "light"


def test_open_switches_file_remembers_it_and_watches_it(
    app: tuple[Sidekicks, EventLog], tmp_path: Path, config_file: Path
) -> None:
    sk, log = app
    other = tmp_path / "other.yaml"
    other.write_text(OTHER, encoding="utf-8")
    info = sk.api.ConfigService.Open(str(other))
    assert (info.path, info.theme, info.source) == (str(other), "light", "recent")
    assert sk.api.ConfigService.Recent() == [str(other), str(config_file)]
    mark = log.mark()
    other.write_text(VALID, encoding="utf-8")
    log.wait("config:changed", lambda p: p["path"] == str(other), timeout=3, since=mark)
    assert sk.api.ConfigService.Current().theme == "dark"


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda d: d / "missing.yaml", "does not exist"),
        (lambda d: _folder(d / "folder.yaml"), "is a folder"),
        (lambda d: _write(d / "latin1.yaml", "theme: \xe9t\xe9\n".encode("latin-1")), "UTF-8"),
        (lambda d: _write(d / "list.yaml", b"- a\n- b\n"), "not a YAML mapping"),
        (lambda d: _write(d / "scalar.yaml", b"hello\n"), "not a YAML mapping"),
        (lambda d: _write(d / "empty.yaml", b""), "not a YAML mapping"),
    ],
    ids=["missing", "folder", "not-utf8", "a-list", "a-scalar", "empty"],
)
def test_a_failed_open_says_why_and_changes_nothing(
    app: tuple[Sidekicks, EventLog], tmp_path: Path, make, message: str
) -> None:
    sk, log = app
    before = sk.api.ConfigService.Current()
    seen = len(log.named("config:changed"))
    target = make(tmp_path / "bad")
    with pytest.raises(ConfigError, match=message):
        sk.api.ConfigService.Open(str(target))
    assert sk.api.ConfigService.Current() == before
    assert sk.api.ConfigService.Recent() == [before.path]  # only the file the app started on
    assert len(log.named("config:changed")) == seen


def test_an_unreadable_file_is_a_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Tests run as root here, where chmod 000 does not stop reads: make the open itself fail.
    from app.config import files

    target = tmp_path / "locked.yaml"
    target.write_text(VALID, encoding="utf-8")
    real_open = os.open

    def refuse(path: Any, *args: Any, **kwargs: Any) -> int:
        if os.fspath(path) == str(target):
            raise PermissionError(13, "Permission denied")
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(os, "open", refuse)
    with pytest.raises(ConfigError, match="permission denied"):
        files.read_config_text(target)


def test_a_file_with_mistakes_still_opens_and_shows_them(
    app: tuple[Sidekicks, EventLog], tmp_path: Path
) -> None:
    sk, _ = app
    broken = tmp_path / "broken.yaml"
    broken.write_text("agents:\n  - name: Bad Name\n    builtin: demo\n", encoding="utf-8")
    info = sk.api.ConfigService.Open(str(broken))
    assert info.valid is False
    assert (info.problems[0].line, info.problems[0].column) == (2, 11)


def test_recent_keeps_eight_most_recent_first_without_duplicates(
    app: tuple[Sidekicks, EventLog], tmp_path: Path
) -> None:
    sk, _ = app
    paths = []
    for i in range(10):
        path = tmp_path / f"c{i}.yaml"
        path.write_text(VALID, encoding="utf-8")
        paths.append(str(path))
        sk.api.ConfigService.Open(str(path))
    sk.api.ConfigService.Open(paths[5])
    expected = [paths[5], paths[9], paths[8], paths[7], paths[6], paths[4], paths[3], paths[2]]
    assert sk.api.ConfigService.Recent() == expected
    sk.close()
    with Sidekicks() as again:
        assert again.api.ConfigService.Recent() == expected


def test_recent_includes_the_file_the_app_started_on_without_remembering_it(
    config_file: Path, tmp_path: Path
) -> None:
    with Sidekicks(config=config_file) as sk:
        assert sk.api.ConfigService.Recent() == [str(config_file)]
        other = tmp_path / "other.yaml"
        other.write_text(VALID, encoding="utf-8")
        sk.api.ConfigService.Open(str(other))
        assert sk.api.ConfigService.Recent() == [str(other), str(config_file)]
    with Sidekicks() as again:  # the next start opens the file last opened from the app
        assert again.api.ConfigService.Current().path == str(other)
        assert again.api.ConfigService.Recent() == [str(other)]


def test_choose_without_a_window_returns_nothing(app: tuple[Sidekicks, EventLog]) -> None:
    sk, _ = app
    assert sk.api.ConfigService.Choose() == ""


def test_choose_opens_the_file_the_chooser_returns(
    app: tuple[Sidekicks, EventLog], tmp_path: Path
) -> None:
    sk, _ = app
    other = tmp_path / "chosen.yaml"
    other.write_text(OTHER, encoding="utf-8")
    sk.api.ConfigService._set_file_chooser(lambda: str(other))
    assert sk.api.ConfigService.Choose() == str(other)
    assert sk.api.ConfigService.Current().path == str(other)


def test_schema_is_the_json_schema_of_the_configuration(app: tuple[Sidekicks, EventLog]) -> None:
    sk, _ = app
    schema = sk.api.ConfigService.Schema()
    assert schema["$schema"].endswith("2020-12/schema")
    assert {"theme", "language", "limits", "agents"} <= set(schema["properties"])


def _folder(path: Path) -> Path:
    path.mkdir(parents=True)
    return path


def _write(path: Path, data: bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


def test_an_edit_that_is_not_utf8_is_reported_not_fatal(
    app: tuple[Sidekicks, EventLog], config_file: Path
) -> None:
    sk, log = app
    mark = log.mark()
    config_file.write_bytes("theme: l\xe9ger\n".encode("latin-1"))
    event = log.wait("config:changed", lambda p: not p["valid"], timeout=3, since=mark)
    assert "UTF-8" in event["problems"][0]["message"]
    assert sk.api.ConfigService.Current().theme == "dark"
