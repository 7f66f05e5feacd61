"""Where Sidekicks keeps its files, on each platform: Linux, macOS and Windows are simulated here
(sys.platform and the environment patched), so every platform's rule runs on every system."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from app import paths


@pytest.fixture
def home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """The user's home: HOME on POSIX, USERPROFILE where Python looks on Windows."""
    folder = tmp_path / "home"
    monkeypatch.setenv("HOME", str(folder))
    monkeypatch.setenv("USERPROFILE", str(folder))
    return folder


def on(monkeypatch: pytest.MonkeyPatch, platform: str, **env: str | None) -> None:
    """Simulates `platform` with the given environment (None: unset)."""
    monkeypatch.setattr(paths.sys, "platform", platform)
    for name, value in env.items():
        if value is None:
            monkeypatch.delenv(name, raising=False)
        else:
            monkeypatch.setenv(name, value)


# Linux: the XDG base directory specification


def test_linux_uses_an_absolute_xdg_config_home(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, home: Path
) -> None:
    on(monkeypatch, "linux", XDG_CONFIG_HOME=str(tmp_path / "xdg"))
    assert paths.user_config_dir() == tmp_path / "xdg"
    assert paths.default_config_path() == tmp_path / "xdg" / "sidekicks" / "config.yaml"


@pytest.mark.parametrize("xdg", [None, "", "relative/dir", "~/not-expanded"])
def test_linux_falls_back_to_dot_config_when_xdg_is_unset_empty_or_relative(
    monkeypatch: pytest.MonkeyPatch, home: Path, xdg: str | None
) -> None:
    # The XDG specification: a relative value is invalid and is ignored.
    on(monkeypatch, "linux", XDG_CONFIG_HOME=xdg)
    assert paths.user_config_dir() == home / ".config"


def test_linux_ignores_appdata(monkeypatch: pytest.MonkeyPatch, home: Path) -> None:
    on(monkeypatch, "linux", XDG_CONFIG_HOME=None, APPDATA=str(home / "Roaming"))
    assert paths.user_config_dir() == home / ".config"


# macOS


def test_macos_uses_application_support_in_the_home_folder(
    monkeypatch: pytest.MonkeyPatch, home: Path
) -> None:
    on(monkeypatch, "darwin", XDG_CONFIG_HOME=None, APPDATA=None)
    assert paths.user_config_dir() == home / "Library" / "Application Support"


def test_macos_ignores_xdg_and_appdata(monkeypatch: pytest.MonkeyPatch, home: Path) -> None:
    on(monkeypatch, "darwin", XDG_CONFIG_HOME=str(home / "xdg"), APPDATA=str(home / "Roaming"))
    assert paths.user_config_dir() == home / "Library" / "Application Support"


# Windows


def test_windows_uses_roaming_appdata(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, home: Path
) -> None:
    on(monkeypatch, "win32", APPDATA=str(tmp_path / "Roaming"), XDG_CONFIG_HOME=None)
    assert paths.user_config_dir() == tmp_path / "Roaming"


@pytest.mark.parametrize("appdata", [None, ""])
def test_windows_without_appdata_uses_the_usual_roaming_folder(
    monkeypatch: pytest.MonkeyPatch, home: Path, appdata: str | None
) -> None:
    on(monkeypatch, "win32", APPDATA=appdata)
    assert paths.user_config_dir() == home / "AppData" / "Roaming"


def test_windows_ignores_xdg(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, home: Path) -> None:
    on(monkeypatch, "win32", APPDATA=str(tmp_path / "Roaming"), XDG_CONFIG_HOME=str(home / "x"))
    assert paths.user_config_dir() == tmp_path / "Roaming"


# Every folder Sidekicks uses is under the platform's folder


@pytest.mark.parametrize(
    ("platform", "env", "where"),
    [
        ("linux", {"XDG_CONFIG_HOME": None}, (".config",)),
        ("darwin", {}, ("Library", "Application Support")),
        ("win32", {"APPDATA": None}, ("AppData", "Roaming")),
    ],
)
def test_config_recent_run_and_data_folders_follow_the_platform(
    monkeypatch: pytest.MonkeyPatch,
    home: Path,
    platform: str,
    env: dict[str, str | None],
    where: tuple[str, ...],
) -> None:
    on(monkeypatch, platform, **env)
    app = home.joinpath(*where) / "sidekicks"
    assert paths.app_config_dir() == app
    assert paths.default_config_path() == app / "config.yaml"
    assert paths.recent_file_path() == app / "recent.json"
    assert paths.run_dir() == app / "run"
    config = home / "project" / "sidekicks.yaml"
    assert paths.data_dir(config) == app / "data" / paths.config_fingerprint(config)


def test_the_data_dir_is_named_by_the_fingerprint_of_the_absolute_path(tmp_path: Path) -> None:
    config = tmp_path / "a" / ".." / "config.yaml"
    expected = hashlib.sha256(str((tmp_path / "config.yaml").resolve()).encode()).hexdigest()[:16]
    assert paths.config_fingerprint(config) == expected
    assert paths.data_dir(config).name == expected
    assert paths.data_dir(config).parent == paths.app_config_dir() / "data"
    assert paths.config_fingerprint(tmp_path / "other.yaml") != expected


def test_resources_come_from_the_bundle_when_frozen(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    assert (paths.resource_root() / "app" / "paths.py").is_file()
    monkeypatch.setattr(paths.sys, "frozen", True, raising=False)
    monkeypatch.setattr(paths.sys, "_MEIPASS", str(tmp_path), raising=False)
    assert paths.resource_path("locales") == tmp_path / "locales"


def test_programs_started_by_the_frozen_app_get_the_library_path_the_person_had() -> None:
    frozen = {"LD_LIBRARY_PATH": "/bundle/_internal:/opt/lib", "LD_LIBRARY_PATH_ORIG": "/opt/lib"}
    assert paths.child_environment(frozen, frozen=True)["LD_LIBRARY_PATH"] == "/opt/lib"
    assert "LD_LIBRARY_PATH_ORIG" not in paths.child_environment(frozen, frozen=True)


def test_without_a_library_path_before_the_bundle_the_programs_get_none() -> None:
    env = paths.child_environment({"LD_LIBRARY_PATH": "/bundle/_internal", "A": "1"}, frozen=True)
    assert env == {"A": "1"}


def test_from_source_the_environment_is_passed_on_as_it_is() -> None:
    env = {"LD_LIBRARY_PATH": "/mine", "LD_LIBRARY_PATH_ORIG": "x"}
    assert paths.child_environment(env, frozen=False) == env
