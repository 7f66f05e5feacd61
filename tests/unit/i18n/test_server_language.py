"""Server-side messages follow the configuration's `language`: en, fr or the system's."""

from __future__ import annotations

import ctypes
import gettext
import locale
import os
import shutil
import sys
import types
from pathlib import Path

import pytest

from app import i18n
from app.config.validate import validate_text
from tests.unit.i18n.script import ROOT, i18n_script

BLUE_THEME = "theme: blue\nagents: []\n"


def first_problem(text: str) -> str:
    return validate_text(text).problems[0].message


def test_french_turns_a_validation_problem_into_french() -> None:
    assert i18n.set_language("fr") == "fr"
    assert first_problem(BLUE_THEME).startswith("`theme` doit valoir l’une de ces valeurs\u00a0:")


def test_english_keeps_the_validation_problem_in_english() -> None:
    i18n.set_language("fr")
    assert i18n.set_language("en") == "en"
    assert first_problem(BLUE_THEME).startswith("`theme` must be one of:")


def test_a_message_raised_in_english_and_translated_where_shown_is_french_too() -> None:
    i18n.set_language("fr")
    text = "limits:\n  stopIdleAgentsAfter: soon\nagents: []\n"
    assert first_problem(text) == (
        "`stopIdleAgentsAfter` doit être une durée comme 90s, 15m ou 2h (0 signifie jamais)"
    )


@pytest.mark.parametrize(("lang", "expected"), [("fr_FR.UTF-8", "fr"), ("en_GB.UTF-8", "en")])
def test_system_follows_lang(monkeypatch: pytest.MonkeyPatch, lang: str, expected: str) -> None:
    for var in ("LC_ALL", "LC_MESSAGES", "LANGUAGE"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", lang)
    assert i18n.set_language("system") == expected
    french = first_problem(BLUE_THEME).startswith("`theme` doit")
    assert french == (expected == "fr")


def no_language_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    """As for an app opened from the Finder, the Dock or the Start menu: no LANG."""
    for var in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        monkeypatch.delenv(var, raising=False)


@pytest.mark.parametrize(
    ("langid", "expected"),
    [(0x040C, "fr"), (0x0C0C, "fr"), (0x100C, "fr"), (0x0409, "en"), (0x0407, "en")],
    ids=["fr-FR", "fr-CA", "fr-CH", "en-US", "de-DE"],
)
def test_windows_without_variables_follows_its_display_language(
    monkeypatch: pytest.MonkeyPatch, langid: int, expected: str
) -> None:
    no_language_variables(monkeypatch)
    monkeypatch.setattr(sys, "platform", "win32")
    kernel32 = types.SimpleNamespace(GetUserDefaultUILanguage=lambda: langid)
    monkeypatch.setattr(ctypes, "windll", types.SimpleNamespace(kernel32=kernel32), raising=False)
    assert i18n.system_language() == expected


def test_macos_without_variables_follows_its_first_preferred_language(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    no_language_variables(monkeypatch)
    monkeypatch.setattr(sys, "platform", "darwin")
    preferred = ["fr-CA", "en-US"]
    foundation = types.ModuleType("Foundation")
    foundation.NSLocale = types.SimpleNamespace(preferredLanguages=lambda: preferred)  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "Foundation", foundation)
    assert i18n.system_language() == "fr"
    preferred[:] = ["en-GB", "fr-FR"]
    assert i18n.system_language() == "en"


def test_where_the_system_cannot_be_asked_its_locale_decides(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    no_language_variables(monkeypatch)
    monkeypatch.setattr(sys, "platform", "darwin")
    monkeypatch.setitem(sys.modules, "Foundation", None)  # pyobjc missing: the import fails
    monkeypatch.setattr(locale, "getlocale", lambda *_: ("fr_FR", "UTF-8"))
    assert i18n.system_language() == "fr"


def test_french_is_read_from_the_po_when_the_mo_was_never_compiled(tmp_path: Path) -> None:
    folder = tmp_path / "fr" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    shutil.copy(ROOT / "locales" / "fr" / "LC_MESSAGES" / "messages.po", folder)
    catalog = i18n.translations("fr", localedir=tmp_path)
    assert catalog.gettext("the configuration is invalid") == "la configuration n’est pas valide"


def test_a_po_newer_than_its_mo_wins_so_a_fresh_translation_shows_without_compiling(
    tmp_path: Path,
) -> None:
    i18n_script.cmd_compile(ROOT / "locales", tmp_path, tmp_path / "ui.json")
    po = tmp_path / "fr" / "LC_MESSAGES" / "messages.po"
    text = (ROOT / "locales" / "fr" / "LC_MESSAGES" / "messages.po").read_text(encoding="utf-8")
    po.write_text(text.replace("prêt", "paré"), encoding="utf-8")
    mo = tmp_path / "fr" / "LC_MESSAGES" / "messages.mo"
    os.utime(mo, (1_000_000_000, 1_000_000_000))
    assert i18n.translations("fr", localedir=tmp_path).gettext("ready") == "paré"


def test_without_any_catalog_messages_stay_english(tmp_path: Path) -> None:
    catalog = i18n.translations("fr", localedir=tmp_path)
    assert type(catalog) is gettext.NullTranslations
    assert catalog.gettext("the configuration is invalid") == "the configuration is invalid"
