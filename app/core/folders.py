"""The sentence for a working folder that is not there: a warning when the configuration names
it (app/config/validate.py), the reason an agent does not start (app/acp/process.py)."""

from __future__ import annotations

from app.i18n import N_, _
from app.i18n.text import Text, lazy

FOLDER_MISSING = N_("the folder {path} does not exist")


def folder_missing(path: str) -> str:
    """The one sentence for a working folder that is not there (a warning, or a failed start)."""
    return _(FOLDER_MISSING).format(path=path)


def folder_missing_text(path: str) -> Text:
    """The same sentence, said in the language current when it is read (a failed start's
    reason stays on screen across a language switch)."""
    return lazy(FOLDER_MISSING, path=path)
