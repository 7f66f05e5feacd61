"""Server-side translations: `_()` marks and translates a message in the current language.

Catalogs are Babel/gettext `.mo` files compiled from `locales/<lang>/LC_MESSAGES/messages.po`.
Until a language is chosen (or when its catalog is missing) messages stay in English.
"""

from __future__ import annotations

import gettext as _gettext
import locale
import os

from app.paths import resource_path

SUPPORTED = ("en", "fr")
_current: _gettext.NullTranslations = _gettext.NullTranslations()
_current_language = "en"


def system_language() -> str:
    """`fr` when the OS language is French, else `en`."""
    for var in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        value = os.environ.get(var, "")
        if value:
            return "fr" if value.lower().startswith("fr") else "en"
    code = locale.getlocale()[0] or ""
    return "fr" if code.lower().startswith("fr") else "en"


def resolve_language(setting: str) -> str:
    return system_language() if setting not in SUPPORTED else setting


def set_language(setting: str) -> str:
    """Switches server-side messages to `setting` (`system`, `en` or `fr`); returns the language."""
    global _current, _current_language
    language = resolve_language(setting)
    _current = _gettext.translation(
        "messages", localedir=str(resource_path("locales")), languages=[language], fallback=True
    )
    _current_language = language
    return language


def current_language() -> str:
    return _current_language


def _(message: str) -> str:
    return _current.gettext(message)
