"""The catalogs in locales/ cover every string the code marks: the test the issue asks for."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from babel.messages.pofile import read_po

from tests.unit.i18n.script import ROOT, SCRIPT, i18n_script


def test_every_string_used_in_the_code_is_translated_in_french_with_the_same_placeholders() -> None:
    extraction = i18n_script.extract(ROOT)
    assert len(extraction.messages) > 50, "the extractor found almost nothing"
    problems = i18n_script.problems(extraction, ROOT / "locales")
    assert problems == [], (
        "run `scripts/i18n.py extract && scripts/i18n.py update`, then translate "
        "locales/fr/LC_MESSAGES/messages.po:\n" + "\n".join(problems)
    )


def test_both_python_and_ui_strings_are_extracted() -> None:
    messages = i18n_script.extract(ROOT).messages
    assert "python" in messages["the configuration is invalid"].origins
    assert "ui" in messages["starting…"].origins
    assert messages["must not be negative"].origins == {"python"}


def project(tmp_path: Path, python: str, ui: str) -> Path:
    """A project with the real catalogs and one Python and one UI source file."""
    root = tmp_path / "project"
    shutil.copytree(ROOT / "locales", root / "locales", ignore=shutil.ignore_patterns("*.mo"))
    (root / "app").mkdir()
    (root / "app" / "module.py").write_text(python, encoding="utf-8")
    (root / "ui" / "src").mkdir(parents=True)
    (root / "ui" / "src" / "View.svelte").write_text(ui, encoding="utf-8")
    return root


def check(root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), "--root", str(root), "check"],
        capture_output=True,
        # The messages it prints are UTF-8 on every system (Windows pipes: the ANSI code page).
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
        encoding="utf-8",
        timeout=60,
        check=False,
    )


def set_french(root: Path, msgid: str, msgstr: str, *, fuzzy: bool = False) -> None:
    path = root / "locales" / "fr" / "LC_MESSAGES" / "messages.po"
    catalog = i18n_script.read_catalog(path, "fr")
    message = catalog[msgid]
    message.string = msgstr
    message.flags.discard("fuzzy")
    if fuzzy:
        message.flags.add("fuzzy")
    path.write_bytes(i18n_script._po_bytes(catalog))


def test_the_check_fails_on_a_new_python_string_until_it_is_translated(tmp_path: Path) -> None:
    root = project(
        tmp_path,
        'from app.i18n import _\n\nMESSAGE = _("{count} new things arrived")\n',
        '<p>{t("ready")}</p>\n',
    )
    result = check(root)
    assert result.returncode == 1
    assert "missing from en and fr: '{count} new things arrived' (app/module.py:3)" in (
        result.stdout
    )

    i18n_script.cmd_extract(root, root / "locales")
    i18n_script.cmd_update(root / "locales")
    result = check(root)
    assert result.returncode == 1
    assert "in fr: '{count} new things arrived'" in result.stdout  # untranslated, or fuzzy
    assert "missing" not in result.stdout, "English may stay empty: it is the source"

    set_french(root, "{count} new things arrived", "{count} nouveautés sont arrivées", fuzzy=True)
    assert "fuzzy in fr: '{count} new things arrived'" in check(root).stdout

    set_french(root, "{count} new things arrived", "{nombre} nouveautés sont arrivées")
    assert "placeholders differ in fr: '{count} new things arrived'" in check(root).stdout

    set_french(root, "{count} new things arrived", "{count} nouveautés sont arrivées {")
    assert "not a valid format string in fr" in check(root).stdout

    set_french(root, "{count} new things arrived", "{count} nouveautés sont arrivées")
    result = check(root)
    assert (result.returncode, result.stdout.splitlines()[-1]) == (
        0,
        "2 messages: every one is translated in en, fr",
    )


def test_the_check_fails_on_a_new_ui_string_until_it_is_translated(tmp_path: Path) -> None:
    root = project(tmp_path, "", '<button>\n  {t("Archive {name}", { name })}\n</button>\n')
    assert "missing from en and fr: 'Archive {name}' (ui/src/View.svelte:2)" in check(root).stdout
    i18n_script.cmd_extract(root, root / "locales")
    i18n_script.cmd_update(root / "locales")
    set_french(root, "Archive {name}", "Archiver {name}")
    assert check(root).returncode == 0


def test_update_keeps_the_translation_of_a_string_that_leaves_the_code_and_comes_back(
    tmp_path: Path,
) -> None:
    root = project(tmp_path, "", '<p>{t("ready")}</p>\n')
    locales = root / "locales"
    fr = locales / "fr" / "LC_MESSAGES" / "messages.po"
    i18n_script.cmd_extract(root, locales)
    i18n_script.cmd_update(locales)
    catalog = i18n_script.read_catalog(fr, "fr")
    assert [m.id for m in catalog if m.id] == ["ready"]
    assert catalog.obsolete["stopped"].string == "arrêté", "kept as an obsolete #~ entry"

    (root / "ui" / "src" / "View.svelte").write_text('<p>{t("stopped")}</p>\n', encoding="utf-8")
    i18n_script.cmd_extract(root, locales)
    i18n_script.cmd_update(locales)
    message = i18n_script.read_catalog(fr, "fr")["stopped"]
    assert (message.string, message.fuzzy) == ("arrêté", False)


def test_update_offers_a_close_old_translation_as_fuzzy_for_review(tmp_path: Path) -> None:
    root = project(tmp_path, "", '<p>{t("restart to apply the changes")}</p>\n')
    i18n_script.cmd_extract(root, root / "locales")
    i18n_script.cmd_update(root / "locales")
    with (root / "locales" / "fr" / "LC_MESSAGES" / "messages.po").open("rb") as f:
        message = read_po(f)["restart to apply the changes"]
    assert (message.string, message.fuzzy) == ("à redémarrer", True)
    assert "fuzzy in fr: 'restart to apply the changes'" in check(root).stdout


def test_extract_and_update_leave_unchanged_catalogs_untouched(tmp_path: Path) -> None:
    root = project(tmp_path, "", '<p>{t("ready")}</p>\n')
    locales = root / "locales"
    i18n_script.cmd_extract(root, locales)
    i18n_script.cmd_update(locales)
    files = [locales / "messages.pot", *sorted(locales.glob("*/LC_MESSAGES/messages.po"))]
    before = [f.read_bytes() for f in files]
    i18n_script.cmd_extract(root, locales)
    i18n_script.cmd_update(locales)
    assert [f.read_bytes() for f in files] == before


def test_a_word_translated_in_a_context_reaches_the_ui_catalog_under_its_context(
    tmp_path: Path,
) -> None:
    root = project(tmp_path, "", '{t("Delete")} {pt("tool kind", "Delete")}\n')
    locales = root / "locales"
    i18n_script.cmd_extract(root, locales)
    i18n_script.cmd_update(locales)
    assert "in fr: 'Delete' in context 'tool kind'" in check(root).stdout  # new or fuzzy
    path = locales / "fr" / "LC_MESSAGES" / "messages.po"
    catalog = i18n_script.read_catalog(path, "fr")
    for context, french in ((None, "Supprimer"), ("tool kind", "Suppression")):
        message = catalog.get("Delete", context)
        message.string = french
        message.flags.discard("fuzzy")
    path.write_bytes(i18n_script._po_bytes(catalog))
    assert check(root).returncode == 0
    french = i18n_script.ui_catalogs(locales)["fr"]
    assert (french["Delete"], french["tool kind\x04Delete"]) == ("Supprimer", "Suppression")
