"""Server-side translations: `_()` marks and translates a message in the current language.

Catalogs are Babel/gettext `.mo` files compiled from `locales/<lang>/LC_MESSAGES/messages.po` by
`scripts/i18n.py compile` (which `scripts/setup` runs). From a source checkout where the `.mo` is
missing or older than its `.po`, the `.po` is read directly, so French is never silently lost.
Until a language is chosen (or when its catalog is missing) messages stay in English.
"""

from __future__ import annotations

import gettext as _gettext
import io
import locale
import os
import sys
import threading
from pathlib import Path

from app.paths import is_frozen, resource_path

SUPPORTED = ("en", "fr")
DOMAIN = "messages"
_current: _gettext.NullTranslations = _gettext.NullTranslations()
_cache: dict[tuple[str, float, float], _gettext.NullTranslations] = {}
_lock = threading.Lock()


def N_(message: str) -> str:
    """Marks `message` for extraction without translating it: `_()` translates it where shown."""
    return message


def system_language() -> str:
    """`fr` when the OS language is French, else `en`."""
    for var in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        value = os.environ.get(var, "")
        if value:
            return "fr" if value.lower().startswith("fr") else "en"
    return "fr" if _os_language().lower().startswith("fr") else "en"


LANG_FRENCH = 0x0C  # Windows' primary language id of French (winnt.h), in a LANGID's low bits


def _os_language() -> str:
    """The OS's language where no variable says it, as the page's `navigator.language` finds it:
    Windows' display language; macOS's first preferred language (pyobjc, installed with
    pywebview; an app opened from the Finder or the Dock has no LANG); else the C locale's."""
    try:
        if sys.platform == "win32":
            import ctypes

            langid = int(ctypes.windll.kernel32.GetUserDefaultUILanguage())
            return "fr" if langid & 0x3FF == LANG_FRENCH else "en"
        if sys.platform == "darwin":
            from Foundation import NSLocale  # type: ignore[import-not-found,unused-ignore]

            preferred = NSLocale.preferredLanguages()
            if preferred:
                return str(preferred[0])
    except Exception:  # a missing API or library: the locale still says something
        pass
    return locale.getlocale()[0] or ""


def resolve_language(setting: str) -> str:
    return system_language() if setting not in SUPPORTED else setting


def set_language(setting: str) -> str:
    """Switches server-side messages to `setting` (`system`, `en` or `fr`); returns the language."""
    global _current
    language = resolve_language(setting)
    _current = translations(language)
    return language


def _(message: str) -> str:
    return _current.gettext(message)


def translations(language: str, localedir: Path | None = None) -> _gettext.NullTranslations:
    """The catalog of `language`: its compiled `.mo`, else its `.po`, else no translation."""
    folder = (localedir or resource_path("locales")) / language / "LC_MESSAGES"
    mo, po = folder / f"{DOMAIN}.mo", folder / f"{DOMAIN}.po"
    mo_time, po_time = _mtime(mo), _mtime(po)
    key = (str(folder), mo_time, po_time)
    with _lock:
        cached = _cache.get(key)
        if cached is None:
            # A source checkout may hold a .po edited since the last compile; a frozen bundle's
            # file times say nothing, so there the .mo wins whenever it exists.
            newer = po_time > mo_time and not is_frozen()
            cached = _load(mo, po, use_po=po_time >= 0 and (mo_time < 0 or newer))
            _cache[key] = cached
    return cached


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return -1.0


def _load(mo: Path, po: Path, *, use_po: bool) -> _gettext.NullTranslations:
    if use_po:
        try:
            return _gettext.GNUTranslations(io.BytesIO(_compile_po(po)))
        except Exception:  # an unreadable .po must not take the app down: try the .mo
            pass
    try:
        with mo.open("rb") as f:
            return _gettext.GNUTranslations(f)
    except (OSError, ValueError):
        return _gettext.NullTranslations()


def _compile_po(po: Path) -> bytes:
    """The `.mo` bytes of `po`, compiled in memory (fuzzy entries left out, like compile does)."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with po.open("rb") as f:
        catalog = read_po(f, domain=DOMAIN)
    out = io.BytesIO()
    write_mo(out, catalog, use_fuzzy=False)
    return out.getvalue()
