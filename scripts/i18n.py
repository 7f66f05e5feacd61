#!/usr/bin/env python3
"""Babel catalogs for Sidekicks: extract, update, compile, check.

  .venv/bin/python scripts/i18n.py extract   # locales/messages.pot from app/ and ui/src/
  .venv/bin/python scripts/i18n.py update    # merge it into locales/{en,fr}/LC_MESSAGES/messages.po
  .venv/bin/python scripts/i18n.py compile   # the .mo files (Python) and the UI's JSON catalog
  .venv/bin/python scripts/i18n.py check     # exit 1 if a string used in code lacks French

The workflow after changing strings: `extract && update`, translate the new (empty or fuzzy)
French entries of `locales/fr/LC_MESSAGES/messages.po`, then `compile` (`scripts/setup` runs it).

Marked strings:
- Python (`app/`): `_("…")` translates; `N_("…")` only marks (translated later by `_(value)`).
- UI (`ui/src/`, `.ts` and `.svelte`): `t("…")` or `t('…')`, optionally with `{name}` params,
  and `N_("…")` to only mark. The first argument must be one string literal: template literals,
  variables and concatenations are not extracted (extract and check warn about them).
  `pt("context", "…")` gives a word a translation of its own in one context (gettext's msgctxt):
  "Delete" on a button and "Delete" naming a kind of tool call need different French.
Placeholders are `{name}` on both sides; a translation must keep the same names.
English is the source language: English `msgstr` may stay empty. French must be complete.
"""

from __future__ import annotations

import argparse
import io
import json
import re
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[1]
LOCALES = ROOT / "locales"
DOMAIN = "messages"
LANGUAGES = ("en", "fr")
SOURCE_LANGUAGE = "en"
COMPLETE_LANGUAGES = ("fr",)  # every used message must be translated (and not fuzzy) here
PY_DIRS = ("app",)
PY_KEYWORDS: dict[str, None] = {"_": None, "N_": None}
UI_DIRS = ("ui/src",)
UI_SUFFIXES = (".ts", ".svelte")
UI_FUNCTIONS = ("t", "N_")
UI_CONTEXT_FUNCTIONS = ("pt",)  # pt(context, msgid, params?)
CONTEXT_SEPARATOR = "\x04"  # gettext's: the UI catalog's key of a message with a context
UI_JSON = ROOT / "ui" / "src" / "lib" / "locales.generated.json"
UI_JSON_COMMENT = "generated — do not edit: scripts/i18n.py compile"
PROJECT = "Sidekicks"
VERSION = "1"  # the catalogs' format, not the app's version (no churn on releases)
TEAM = "Sidekicks maintainers"
POT_HEADER = (
    "# Sidekicks messages, extracted from app/ and ui/src/ by `scripts/i18n.py extract`.\n"
    "# Do not edit: change the sources, then run `scripts/i18n.py extract && scripts/i18n.py "
    "update`.\n#"
)
PO_HEADERS = {
    "en": (
        "# English messages for Sidekicks. English is the source language: an empty msgstr\n"
        "# shows the msgid itself. Fill a msgstr only to reword a message without touching code.\n"
        "# Updated by `scripts/i18n.py update`.\n#"
    ),
    "fr": (
        "# French translations for Sidekicks. After `scripts/i18n.py extract && scripts/i18n.py\n"
        "# update`, translate every empty msgstr and review (then unflag) every fuzzy entry.\n"
        "# Keep the `{name}` placeholders and the `backticks` around configuration keys.\n#"
    ),
}
DATE_LINES = re.compile(rb'^"(POT-Creation-Date|PO-Revision-Date): .*\\n"$', re.MULTILINE)
PLACEHOLDER = re.compile(r"\{(\w*)\}")


@dataclass
class Used:
    """A message used in code, with where it is used and by which side."""

    msgid: str
    context: str | None = None
    locations: list[tuple[str, int]] = field(default_factory=list)
    origins: set[str] = field(default_factory=set)  # "python", "ui"
    comments: list[str] = field(default_factory=list)

    @property
    def key(self) -> str:
        return key_of(self.msgid, self.context)

    def __str__(self) -> str:
        return (
            repr(self.msgid)
            if self.context is None
            else f"{self.msgid!r} in context {self.context!r}"
        )


def key_of(msgid: str, context: str | None) -> str:
    """How the UI catalog (and `Extraction.messages`) names a message."""
    return msgid if context is None else f"{context}{CONTEXT_SEPARATOR}{msgid}"


@dataclass
class Extraction:
    messages: dict[str, Used]  # by key_of(msgid, context)
    warnings: list[str]


# ---------------------------------------------------------------------------------------------
# Extraction


def extract(root: Path = ROOT) -> Extraction:
    """Every message marked in the Python and UI sources under `root`, in source order."""
    messages: dict[str, Used] = {}
    warnings: list[str] = []

    def use(
        msgid: str,
        path: str,
        line: int,
        origin: str,
        comments: Iterable[str] = (),
        context: str | None = None,
    ) -> None:
        used = messages.setdefault(key_of(msgid, context), Used(msgid, context))
        used.locations.append((path, line))
        used.origins.add(origin)
        used.comments.extend(c for c in comments if c not in used.comments)

    for folder in PY_DIRS:
        base = root / folder
        if not base.is_dir():
            continue
        found = extract_from_dir(
            base,
            method_map=[("**.py", "python")],
            keywords=PY_KEYWORDS,
            comment_tags=("TRANSLATORS:",),
            strip_comment_tags=True,
        )
        for filename, line, message, comments, _context in found:
            if isinstance(message, str) and message:
                use(message, f"{folder}/{filename}", line, "python", comments)
    for path in _ui_files(root):
        relative = path.relative_to(root).as_posix()
        text = path.read_text(encoding="utf-8")
        for msgid, context, line in _extract_ui(text, relative, warnings):
            use(msgid, relative, line, "ui", context=context)
    return Extraction(messages, warnings)


def _ui_files(root: Path) -> Iterator[Path]:
    for folder in UI_DIRS:
        base = root / folder
        if base.is_dir():
            for path in sorted(base.rglob("*")):
                if (
                    path.is_file()
                    and path.suffix in UI_SUFFIXES
                    and not path.name.endswith(".d.ts")
                    and "node_modules" not in path.parts
                ):
                    yield path


_STRING = r"""("(?:[^"\\\r\n]|\\.|\\\r?\n)*"|'(?:[^'\\\r\n]|\\.|\\\r?\n)*')"""
_FUNCTIONS = "|".join(map(re.escape, UI_FUNCTIONS + UI_CONTEXT_FUNCTIONS))
_CALL = re.compile(r"(?<![\w$.#])(" + _FUNCTIONS + r")\s*\(\s*")
_LITERAL = re.compile(_STRING + r"\s*([,)]?)", re.DOTALL)
_CONTEXT_LITERALS = re.compile(_STRING + r"\s*,\s*" + _STRING + r"\s*([,)]?)", re.DOTALL)
_COMMENTS = re.compile(
    r"/\*.*?\*/"  # block comments
    r"|<!--.*?-->"  # markup comments in .svelte files
    r"|(?<![:\w\"'`\\/])//[^\n]*",  # line comments (not `https://…`, not inside "…//…")
    re.DOTALL,
)


def _mask_comments(text: str) -> str:
    """`text` with comments blanked out (same length, same line breaks)."""
    return _COMMENTS.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


def _extract_ui(text: str, path: str, warnings: list[str]) -> Iterator[tuple[str, str | None, int]]:
    """(msgid, context, line) of each marked string of a UI source."""
    masked = _mask_comments(text)
    for call in _CALL.finditer(masked):
        line = masked.count("\n", 0, call.start()) + 1
        before = masked[max(0, call.start() - 16) : call.start()]
        if re.search(r"\bfunction\s+$", before):
            continue  # the definition of t() itself
        with_context = call.group(1) in UI_CONTEXT_FUNCTIONS
        literal = (_CONTEXT_LITERALS if with_context else _LITERAL).match(masked, call.end())
        if literal is None or literal.group(literal.lastindex or 0) == "":
            following = masked[call.end() : call.end() + 30].split("\n", 1)[0]
            if following.startswith(")"):
                continue
            what = "its first two arguments" if with_context else "its first argument"
            warnings.append(
                f"{path}:{line}: {call.group(1)}({following.strip()}… is not extracted: "
                f"{what} must be string literals"
            )
            continue
        strings = [_unescape_js(literal.group(i)[1:-1]) for i in range(1, literal.lastindex or 1)]
        if with_context:
            yield strings[1], strings[0], line
        else:
            yield strings[0], None, line


_JS_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0"}


def _unescape_js(body: str) -> str:
    def one(match: re.Match[str]) -> str:
        escape = match.group(1)
        if escape.startswith("u{"):
            return chr(int(escape[2:-1], 16))
        if escape[0] in "ux" and len(escape) > 1:
            return chr(int(escape[1:], 16))
        if escape[0] in "\r\n":
            return ""  # line continuation
        return _JS_ESCAPES.get(escape, escape)

    return re.sub(r"\\(u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|\r?\n|.)", one, body)


# ---------------------------------------------------------------------------------------------
# Catalogs


def template(extraction: Extraction) -> Catalog:
    pot = Catalog(
        project=PROJECT,
        version=VERSION,
        header_comment=POT_HEADER,
        fuzzy=False,
        charset="utf-8",
    )
    for used in extraction.messages.values():
        flags = ["python-brace-format"] if PLACEHOLDER.search(used.msgid) else []
        pot.add(
            used.msgid,
            locations=used.locations,
            flags=flags,
            auto_comments=used.comments,
            context=used.context,
        )
    return pot


def po_path(language: str, locales: Path = LOCALES) -> Path:
    return locales / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def read_catalog(path: Path, language: str | None = None) -> Catalog:
    with path.open("rb") as f:
        return read_po(f, locale=language, domain=DOMAIN)


def _po_bytes(catalog: Catalog) -> bytes:
    for message in catalog:
        if not message.fuzzy:
            message.previous_id = []  # `#| msgid` only helps review a fuzzy entry
    out = io.BytesIO()
    write_po(out, catalog, width=100, include_previous=True)
    return out.getvalue()


def _write_if_changed(path: Path, data: bytes, ignore_dates: bool = False) -> bool:
    """Writes `data` unless the file already holds it (dates aside): no churn, no rebuilds."""
    if path.exists():
        old = path.read_bytes()
        same = (
            DATE_LINES.sub(b"", old) == DATE_LINES.sub(b"", data) if ignore_dates else old == data
        )
        if same:
            return False
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return True


def merge(pot: Catalog, catalog: Catalog) -> Catalog:
    """Babel's update: new entries empty (or fuzzy when close to an old one), unused ones kept as
    obsolete (`#~`) so their translation comes back if the message does."""
    for old in list(catalog.obsolete.values()):
        if catalog.get(old.id, old.context) is None:
            catalog[old.id] = old
    catalog.obsolete.clear()
    catalog.update(pot, update_creation_date=True)
    return catalog


def new_catalog(language: str) -> Catalog:
    return Catalog(
        locale=language,
        domain=DOMAIN,
        project=PROJECT,
        version=VERSION,
        header_comment=PO_HEADERS.get(language, "#"),
        last_translator=TEAM,
        language_team=TEAM,
        revision_date=datetime.now(UTC),
        fuzzy=False,
        charset="utf-8",
    )


# ---------------------------------------------------------------------------------------------
# Commands


def cmd_extract(root: Path = ROOT, locales: Path = LOCALES) -> int:
    extraction = extract(root)
    for warning in extraction.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    changed = _write_if_changed(
        locales / f"{DOMAIN}.pot", _po_bytes(template(extraction)), ignore_dates=True
    )
    state = "written" if changed else "unchanged"
    print(f"{len(extraction.messages)} messages → {locales / f'{DOMAIN}.pot'} ({state})")
    return 0


def cmd_update(locales: Path = LOCALES) -> int:
    with (locales / f"{DOMAIN}.pot").open("rb") as f:
        pot = read_po(f, domain=DOMAIN)
    for language in LANGUAGES:
        path = po_path(language, locales)
        catalog = read_catalog(path, language) if path.exists() else new_catalog(language)
        before = {m.id for m in catalog if m.id}
        merge(pot, catalog)
        added = sum(1 for m in catalog if m.id and m.id not in before)
        todo = sum(1 for m in catalog if m.id and (not m.string or m.fuzzy))
        to_do = f"{todo} to translate or review" if language in COMPLETE_LANGUAGES else ""
        changed = _write_if_changed(path, _po_bytes(catalog), ignore_dates=True)
        print(
            f"{path.relative_to(locales.parent)}: {len(catalog)} messages, {added} new, "
            f"{len(catalog.obsolete)} obsolete"
            + (f", {to_do}" if to_do else "")
            + ("" if changed else " (unchanged)")
        )
    return 0


def ui_catalogs(locales: Path = LOCALES) -> dict[str, dict[str, str]]:
    """{language: {msgid: msgstr}}: the translated, non-fuzzy entries of each catalog."""
    out: dict[str, dict[str, str]] = {}
    for language in LANGUAGES:
        path = po_path(language, locales)
        entries: dict[str, str] = {}
        if path.exists():
            for m in read_catalog(path, language):
                msgid, msgstr = m.id, m.string
                if (
                    isinstance(msgid, str)
                    and msgid
                    and isinstance(msgstr, str)
                    and msgstr
                    and not m.fuzzy
                ):
                    entries[key_of(msgid, m.context)] = msgstr
        out[language] = dict(sorted(entries.items()))
    return out


def cmd_compile(
    locales: Path = LOCALES, out_locales: Path | None = None, ui_json: Path = UI_JSON
) -> int:
    out_locales = out_locales or locales
    for language in LANGUAGES:
        path = po_path(language, locales)
        if not path.exists():
            print(f"{path} is missing: run `scripts/i18n.py update`", file=sys.stderr)
            return 1
        mo = io.BytesIO()
        write_mo(mo, read_catalog(path, language), use_fuzzy=False)
        target = out_locales / language / "LC_MESSAGES" / f"{DOMAIN}.mo"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(mo.getvalue())  # always: app/i18n prefers a .po newer than its .mo
    document = {"_comment": UI_JSON_COMMENT, **ui_catalogs(locales)}
    text = json.dumps(document, ensure_ascii=False, indent=1) + "\n"
    _write_if_changed(ui_json, text.encode("utf-8"))
    print(f"compiled {', '.join(LANGUAGES)} → {out_locales}/*/LC_MESSAGES/, {ui_json}")
    return 0


def placeholders(text: str) -> set[str]:
    return set(PLACEHOLDER.findall(text))


def problems(extraction: Extraction, locales: Path = LOCALES) -> list[str]:
    """Why the catalogs do not cover the code, one line per message (empty when they do)."""
    out: list[str] = []
    catalogs: dict[str, Catalog | None] = {}
    for language in LANGUAGES:
        path = po_path(language, locales)
        catalogs[language] = read_catalog(path, language) if path.exists() else None
        if catalogs[language] is None:
            out.append(f"{path.relative_to(locales.parent)} is missing")
    for used in extraction.messages.values():
        where = "{}:{}".format(*used.locations[0]) if used.locations else "?"
        wanted = placeholders(used.msgid)
        found = {
            language: catalog.get(used.msgid, used.context)
            for language, catalog in catalogs.items()
            if catalog is not None
        }
        missing = [language for language, message in found.items() if message is None]
        if missing:
            out.append(f"missing from {' and '.join(missing)}: {used} ({where})")
        for language, message in found.items():
            if message is None:
                continue
            string = message.string if isinstance(message.string, str) else ""
            if language in COMPLETE_LANGUAGES:
                if not string:
                    out.append(f"untranslated in {language}: {used} ({where})")
                    continue
                if message.fuzzy:
                    out.append(f"fuzzy in {language}: {used} ({where})")
            if string:
                out.extend(_string_problems(used, string, wanted, language, where))
    return out


def _string_problems(
    used: Used, string: str, wanted: set[str], language: str, where: str
) -> Iterator[str]:
    got = placeholders(string)
    if got != wanted:
        yield (
            f"placeholders differ in {language}: {used} has {sorted(wanted)}, "
            f"{string!r} has {sorted(got)} ({where})"
        )
    elif "python" in used.origins:
        try:
            string.format(**dict.fromkeys(got, ""))
        except (ValueError, IndexError, KeyError) as err:
            yield f"not a valid format string in {language}: {string!r}: {err} ({where})"


def cmd_check(root: Path = ROOT, locales: Path = LOCALES) -> int:
    extraction = extract(root)
    for warning in extraction.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    found = problems(extraction, locales)
    for problem in found:
        print(problem)
    if found:
        print(
            f"{len(found)} problem(s). Run `scripts/i18n.py extract && scripts/i18n.py update`, "
            "then translate locales/fr/LC_MESSAGES/messages.po.",
            file=sys.stderr,
        )
        return 1
    print(f"{len(extraction.messages)} messages: every one is translated in {', '.join(LANGUAGES)}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--root", type=Path, default=ROOT, help="the project (default: this one)")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("extract", help="write locales/messages.pot from app/ and ui/src/")
    sub.add_parser("update", help="merge messages.pot into the en and fr catalogs")
    compile_ = sub.add_parser("compile", help="write the .mo files and the UI's JSON catalog")
    compile_.add_argument("--out", type=Path, help="folder for <lang>/LC_MESSAGES/messages.mo")
    compile_.add_argument("--json", type=Path, help="the UI catalog to write")
    sub.add_parser("check", help="exit 1 if a message used in code lacks its French translation")
    args = parser.parse_args(argv)
    root: Path = args.root.resolve()
    locales = root / LOCALES.relative_to(ROOT)
    if args.command == "extract":
        return cmd_extract(root, locales)
    if args.command == "update":
        return cmd_update(locales)
    if args.command == "compile":
        ui_json = args.json or root / UI_JSON.relative_to(ROOT)
        return cmd_compile(locales, args.out, ui_json)
    return cmd_check(root, locales)


if __name__ == "__main__":
    sys.exit(main())
