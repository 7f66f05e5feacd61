"""The store of sign-in values: the keychain when one works, else an owner-only file."""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Iterator
from pathlib import Path

import keyring
import pytest
from keyring.backend import KeyringBackend
from keyring.backends import fail

from app.agents.credentials.store import Credentials
from app.core.errors import UserError

KEY = "sk-test-RECOGNISABLE-1234"


class MemoryKeyring(KeyringBackend):
    """A real keyring backend that keeps its entries in a dict."""

    priority = 1  # type: ignore[assignment]

    def __init__(self) -> None:
        super().__init__()
        self.entries: dict[tuple[str, str], str] = {}

    def get_password(self, service: str, username: str) -> str | None:
        return self.entries.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self.entries[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        from keyring.errors import PasswordDeleteError

        if self.entries.pop((service, username), None) is None:
            raise PasswordDeleteError(username)


class BrokenKeyring(MemoryKeyring):
    def set_password(self, service: str, username: str, password: str) -> None:
        raise keyring.errors.KeyringLocked("the collection is locked")


@pytest.fixture
def memory_keyring() -> Iterator[MemoryKeyring]:
    previous = keyring.get_keyring()
    backend = MemoryKeyring()
    keyring.set_keyring(backend)
    yield backend
    keyring.set_keyring(previous)


def files_under(folder: Path) -> list[Path]:
    return [p for p in folder.rglob("*") if p.is_file()]


def test_values_go_to_the_keychain_when_one_works(
    memory_keyring: MemoryKeyring, tmp_path: Path
) -> None:
    store = Credentials(tmp_path / "secrets")
    store.save("codex", "openai-api-key", {"OPENAI_API_KEY": KEY})
    assert memory_keyring.entries == {("Sidekicks", "codex/OPENAI_API_KEY"): KEY}
    loaded = Credentials(tmp_path / "secrets").load("codex")
    assert loaded is not None and loaded.values == {"OPENAI_API_KEY": KEY}
    assert loaded.method == "openai-api-key"
    # Only the index is on disk, and it holds names, not values.
    assert all(KEY not in p.read_text(encoding="utf-8") for p in files_under(tmp_path))
    assert not (tmp_path / "secrets" / "secrets.json").exists()


def test_forgetting_removes_the_keychain_entries_and_the_index(
    memory_keyring: MemoryKeyring, tmp_path: Path
) -> None:
    store = Credentials(tmp_path / "secrets")
    store.save("codex", "openai-api-key", {"OPENAI_API_KEY": KEY})
    store.forget("codex")
    assert memory_keyring.entries == {}
    assert store.load("codex") is None and store.saved_method("codex") is None


def test_a_keychain_that_refuses_falls_back_to_the_file(tmp_path: Path) -> None:
    previous = keyring.get_keyring()
    keyring.set_keyring(BrokenKeyring())
    try:
        store = Credentials(tmp_path / "secrets")
        store.save("codex", "openai-api-key", {"OPENAI_API_KEY": KEY})
        loaded = store.load("codex")
    finally:
        keyring.set_keyring(previous)
    assert loaded is not None and loaded.values == {"OPENAI_API_KEY": KEY}
    assert KEY in (tmp_path / "secrets" / "secrets.json").read_text(encoding="utf-8")


@pytest.mark.posix_only("POSIX modes 0700/0600: Windows keeps the user's files private by ACLs")
def test_without_a_keychain_the_file_is_owner_only(tmp_path: Path) -> None:
    previous = keyring.get_keyring()
    keyring.set_keyring(fail.Keyring())
    try:
        Credentials(tmp_path / "secrets").save("codex", "openai-api-key", {"OPENAI_API_KEY": KEY})
    finally:
        keyring.set_keyring(previous)
    folder, file = tmp_path / "secrets", tmp_path / "secrets" / "secrets.json"
    assert stat.S_IMODE(os.stat(folder).st_mode) == 0o700
    assert stat.S_IMODE(os.stat(file).st_mode) == 0o600
    assert json.loads(file.read_text(encoding="utf-8")) == {"codex/OPENAI_API_KEY": KEY}


def test_the_file_is_replaced_atomically_without_temporary_files_left(tmp_path: Path) -> None:
    store = Credentials(tmp_path / "s", use_keychain=False)
    store.save("codex", "openai-api-key", {"OPENAI_API_KEY": KEY})
    inode = os.stat(tmp_path / "s" / "secrets.json").st_ino
    store.save("gemini", "gemini-api-key", {"GEMINI_API_KEY": "other"})
    assert os.stat(tmp_path / "s" / "secrets.json").st_ino != inode  # a new file renamed over it
    assert sorted(p.name for p in (tmp_path / "s").iterdir()) == ["secrets.json", "signins.json"]
    assert store.load("codex") == Credentials(tmp_path / "s", False).load("codex")


def test_saving_another_method_replaces_the_agents_values(tmp_path: Path) -> None:
    store = Credentials(tmp_path / "s", use_keychain=False)
    store.save("codex", "openai-api-key", {"OPENAI_API_KEY": KEY})
    store.save("codex", "codex-api-key", {"CODEX_API_KEY": "second"})
    assert store.saved_method("codex") == "codex-api-key"
    assert json.loads((tmp_path / "s" / "secrets.json").read_text(encoding="utf-8")) == {
        "codex/CODEX_API_KEY": "second"
    }


def test_a_damaged_file_is_a_clear_error_and_is_never_overwritten(tmp_path: Path) -> None:
    store = Credentials(tmp_path / "s", use_keychain=False)
    store.save("codex", "openai-api-key", {"OPENAI_API_KEY": KEY})
    damaged = '{"codex/OPENAI_API_KEY": "' + KEY + '", oops'
    (tmp_path / "s" / "secrets.json").write_text(damaged, encoding="utf-8")
    with pytest.raises(UserError, match=r"secrets\.json cannot be read.*fix or delete") as caught:
        store.load("codex")
    assert KEY not in str(caught.value)
    with pytest.raises(UserError, match="cannot be read"):
        store.save("gemini", "gemini-api-key", {"GEMINI_API_KEY": "other"})
    assert (tmp_path / "s" / "secrets.json").read_text(encoding="utf-8") == damaged


def test_the_environment_can_point_the_store_at_a_folder_without_keychain(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SIDEKICKS_SECRETS_DIR", str(tmp_path / "elsewhere"))
    store = Credentials.from_environment()
    assert store.folder == tmp_path / "elsewhere" and not store.use_keychain
