"""Where Sidekicks keeps its files, on each platform."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from app import paths


def test_linux_uses_xdg_config_home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(paths.sys, "platform", "linux")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    assert paths.user_config_dir() == tmp_path
    assert paths.default_config_path() == tmp_path / "sidekicks" / "config.yaml"


def test_linux_falls_back_to_dot_config_when_xdg_is_unset_or_relative(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(paths.sys, "platform", "linux")
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("XDG_CONFIG_HOME")
    assert paths.user_config_dir() == tmp_path / ".config"
    monkeypatch.setenv("XDG_CONFIG_HOME", "relative/dir")
    assert paths.user_config_dir() == tmp_path / ".config"


def test_macos_uses_application_support(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(paths.sys, "platform", "darwin")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert paths.user_config_dir() == tmp_path / "Library" / "Application Support"


def test_windows_uses_roaming_appdata(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr(paths.sys, "platform", "win32")
    monkeypatch.setenv("APPDATA", str(tmp_path / "Roaming"))
    assert paths.user_config_dir() == tmp_path / "Roaming"


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
