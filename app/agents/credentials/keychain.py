"""The OS keychain through `keyring`: Secret Service (GNOME Keyring, KWallet), macOS Keychain,
Windows Credential Locker. One entry per agent and variable, under the service "Sidekicks"."""

from __future__ import annotations

import contextlib

SERVICE = "Sidekicks"


def usable() -> bool:
    """False where keyring found no keychain (its `fail` or `null` backend: a headless machine,
    a desktop without Secret Service)."""
    try:
        import keyring
        from keyring.backends import fail, null
    except ImportError:
        return False
    try:
        backend = keyring.get_keyring()
    except Exception:
        return False
    return not isinstance(backend, fail.Keyring | null.Keyring)


def entry(agent: str, variable: str) -> str:
    return f"{agent}/{variable}"


def get(agent: str, variable: str) -> str | None:
    import keyring

    value: str | None = keyring.get_password(SERVICE, entry(agent, variable))
    return value


def put(agent: str, variable: str, value: str) -> None:
    import keyring

    keyring.set_password(SERVICE, entry(agent, variable), value)


def remove(agent: str, variable: str) -> None:
    import keyring
    from keyring.errors import PasswordDeleteError

    with contextlib.suppress(PasswordDeleteError):  # not there: already forgotten
        keyring.delete_password(SERVICE, entry(agent, variable))
